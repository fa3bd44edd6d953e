import { MSG, email as emailSchema, type ApiKeyHolderRow } from '@obol/contract';
import { Dialog, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { emailKeys } from './api/apiKeys.ts';
import { FormActions } from '../../ui/FormActions.tsx';

/** Share keys: the address (required, valid); the public keys and account references go there. */
export function ShareDialog({ holder, onClose }: { holder: ApiKeyHolderRow; onClose: () => void }) {
  const id = useId();
  const { notify } = useNotify();
  const [to, setTo] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!to.trim()) return setError(MSG.required);
    if (!emailSchema.safeParse(to).success) return setError(MSG.emailInvalid);
    setBusy(true);
    try {
      const r = await emailKeys({ id: holder.id, email: to.trim() });
      notify('success', r.message[0]);
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.fieldError('email') : undefined);
      notify('error', errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>Share keys of {holder.name}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
            The public keys and account references of {holder.name} and its brands are mailed. Private keys never leave
            by e-mail: the merchant decrypts them here with its password.
          </Typography>
          <TextField
            label="Email"
            type="email"
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              setError(undefined);
            }}
            error={!!error}
            helperText={error}
            required
            fullWidth
            autoFocus
          />
        </DialogContent>
        <FormActions onCancel={onClose} busy={busy} submit="Share" />
      </form>
    </Dialog>
  );
}
