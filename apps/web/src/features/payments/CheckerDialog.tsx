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
import { useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { walletChecker } from './api/walletChecker.ts';

/** The Obol Checker: who holds a wallet id. */
export function CheckerDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
      setInfo((await walletChecker(id.trim())).user_info);
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <form onSubmit={check} noValidate>
        <DialogTitle>Obol Checker</DialogTitle>
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
