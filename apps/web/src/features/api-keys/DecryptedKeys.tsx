import { type ApiKeyResponse } from '@obol/contract';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { KeyLine } from './KeyLine.tsx';

/** The caller's own keys in plain text (after the password, or a rotation), each with its copy button, until hidden. */
export function DecryptedKeys({ revealed, onHide }: { revealed: ApiKeyResponse; onHide: () => void }) {
  return (
    <Paper sx={{ p: 2, mb: 2 }} aria-label="Decrypted keys">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography component="h2" variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          Your keys
        </Typography>
        <Button onClick={onHide}>Hide keys</Button>
      </Stack>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, columnGap: 2, rowGap: 0.5 }}>
        <Typography variant="body2" color="textSecondary">
          Public key
        </Typography>
        <KeyLine label="public key" value={revealed.public_key} shown={revealed.public_key} />
        <Typography variant="body2" color="textSecondary">
          Private key
        </Typography>
        <KeyLine label="private key" value={revealed.private_key} shown={revealed.private_key} />
      </Box>
      {revealed.brands?.length ? (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 1 }}>
          Your brands&apos; keys are shown under View brand keys.
        </Typography>
      ) : null}
    </Paper>
  );
}
