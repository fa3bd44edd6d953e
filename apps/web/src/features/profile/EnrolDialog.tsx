import { MSG, TWO_FA_MSG, type TwoFaSetupResponse } from '@obol/contract';
import {
  Box,
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { FormActions } from '../../ui/FormActions.tsx';

/** The fallback of a 2FA failure without a server message (document 3, section 8). */
const UNEXPECTED = 'An unexpected error occurred.';

/**
 * The second step of turning the authenticator on: the QR code (and the secret, to type in), then a code from the
 * app. Only that code makes the new secret the active one; Cancel leaves the codes as they were.
 */
export function EnrolDialog({
  setup,
  onCancel,
  onConfirm,
}: {
  setup: TwoFaSetupResponse;
  onCancel: () => void;
  onConfirm: (code: string) => Promise<void>;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    if (!code) return setError(MSG.required);
    if (!/^\d{6}$/.test(code)) return setError(TWO_FA_MSG.codeDigits);
    setBusy(true);
    try {
      await onConfirm(code);
    } catch (err) {
      setError(
        err instanceof ApiError
          ? (err.fieldError('code') ?? err.fieldError('current_password') ?? err.body?.error?.[0] ?? UNEXPECTED)
          : UNEXPECTED,
      );
    } finally {
      setBusy(false);
    }
  };
  const grouped = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Dialog open onClose={busy ? undefined : onCancel} aria-labelledby={`${id}-title`} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>Scan the QR code</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>
              Scan this code with your authenticator app (or enter the key below), then type the 6-digit code it shows.
            </DialogContentText>
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <Box
                component="img"
                src={setup.qr_code}
                alt="QR code for your authenticator app"
                sx={{ width: 200, height: 200, maxWidth: '100%', bgcolor: 'common.white', borderRadius: 1 }}
              />
            </Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography
                variant="body2"
                sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                data-testid="totp-secret"
              >
                {grouped}
              </Typography>
              <CopyButton text={setup.secret} label="Copy the setup key" />
            </Stack>
            <TextField
              label="Code from the app"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*', autoComplete: 'one-time-code' } }}
              error={!!error}
              helperText={error}
              autoFocus
              fullWidth
            />
          </Stack>
        </DialogContent>
        <FormActions onCancel={onCancel} busy={busy} submit="Turn on" />
      </form>
    </Dialog>
  );
}
