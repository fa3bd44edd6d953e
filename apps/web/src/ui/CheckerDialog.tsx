import { MSG, type WalletHolder } from '@obol/contract';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { ApiError } from '../lib/api.ts';
import { useNotify } from './notifications.tsx';

/**
 * The Obol Checker: who holds a wallet id. Used by Payments and the profile; each passes its own call of
 * /wallet-checker (a feature's api/ file), so this part talks to no server itself.
 */
export function CheckerDialog({
  open,
  onClose,
  check: checkWallet,
}: {
  open: boolean;
  onClose: () => void;
  check: (obolId: string) => Promise<{ user_info: WalletHolder }>;
}) {
  const titleId = useId();
  const { notify } = useNotify();
  const [id, setId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<WalletHolder | null>(null);
  const check = async (e: React.FormEvent) => {
    e.preventDefault();
    setInfo(null);
    if (!id.trim()) return setError(MSG.required);
    setError(null);
    try {
      setInfo((await checkWallet(id.trim())).user_info);
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={check} noValidate>
        <DialogTitle id={titleId}>Obol Checker</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label="Obol ID"
              value={id}
              onChange={(e) => setId(e.target.value)}
              error={!!error}
              helperText={error}
              autoFocus
            />
            {info ? (
              <Alert severity="success">
                <Typography variant="body2">
                  {info.first_name} {info.last_name}, born {info.date_of_birth}
                </Typography>
                <Typography variant="body2">Obol ID {info.obol_id}</Typography>
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Close</Button>
          <Button type="submit" variant="contained">
            Check
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
