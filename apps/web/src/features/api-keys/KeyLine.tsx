import { MSG } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { IconButton, Stack, Typography } from '@mui/material';
import { useCopy } from '../../ui/CopyButton.tsx';
import { useNotify } from '../../ui/notifications.tsx';

/** A key and its copy button; copying a key not decrypted yet says 'Decrypt Keys first.'. */
export function KeyLine({ label, value, shown }: { label: string; value: string | undefined; shown: string }) {
  const copy = useCopy();
  const { notify } = useNotify();
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', minWidth: 0 }}>
        {shown}
      </Typography>
      <IconButton
        size="small"
        aria-label={`Copy the ${label}`}
        onClick={() => (value ? void copy(value) : notify('error', MSG.decryptKeysFirst))}
      >
        <ContentCopyIcon fontSize="inherit" />
      </IconButton>
    </Stack>
  );
}
