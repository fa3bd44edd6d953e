import { MSG } from '@obol/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import { ApiError, errorMessage } from '../lib/api.ts';

interface Props {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  /** what an empty field says ('This field is required'; the API key dialog says 'Required.') */
  requiredMessage?: string;
  /** the confirmation removes something: its button is red */
  danger?: boolean;
  /** the request field the server names when the password is wrong */
  field?: string;
  onCancel: () => void;
  /** sends the password; a refusal is shown under the field and the dialog stays open */
  onConfirm: (password: string) => Promise<void>;
}

/** The user's own password, asked for before a change of the account's security; its refusal shows under it. */
export function CurrentPasswordField({
  value,
  onChange,
  error,
  autoFocus,
}: {
  value: string;
  onChange: (password: string) => void;
  error?: string | null;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label="Password"
      type="password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { autoComplete: 'current-password' } }}
      error={!!error}
      helperText={error}
      autoFocus={autoFocus}
      fullWidth
    />
  );
}

/**
 * Asks for the user's password before a change of the account's own security (backup codes, the 2FA switch, the
 * API key reveal). Cancel, Esc and a click outside change nothing. A wrong password ('Incorrect Password.'), a
 * rate limit or any other refusal shows under the field.
 */
export function PasswordDialog({
  open,
  title,
  text,
  confirmLabel,
  requiredMessage = MSG.required,
  field = 'current_password',
  danger = false,
  onCancel,
  onConfirm,
}: Props) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPassword('');
    setError(null);
    onCancel();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // the dialog renders in a portal, but React still bubbles its submit to an enclosing form
    e.stopPropagation();
    if (!password) return setError(requiredMessage);
    setBusy(true);
    try {
      await onConfirm(password);
      setPassword('');
      setError(null);
    } catch (err) {
      setError((err instanceof ApiError && err.fieldError(field)) || errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : close} aria-labelledby={`${id}-title`} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
          <CurrentPasswordField value={password} onChange={setPassword} error={error} autoFocus />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={danger ? 'error' : 'primary'}
            disabled={busy}
            sx={(t) => (danger && t.palette.mode === 'dark' ? { bgcolor: 'error.dark', color: 'common.white' } : {})}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
