import { MSG } from '@obol/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';

/** Asks for a one-time code and hands it to `onSubmit`; shows the server's refusal under the field. */
export function CodeDialog({
  open,
  title,
  text,
  onClose,
  onSubmit,
}: {
  open: boolean;
  title: string;
  text?: string;
  onClose: () => void;
  onSubmit: (code: string) => Promise<string | null>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // the dialog renders in a portal, but React still bubbles its submit to an enclosing form
    e.stopPropagation();
    if (!code) return setError(MSG.required);
    setBusy(true);
    const err = await onSubmit(code).finally(() => setBusy(false));
    setError(err);
    if (!err) setCode('');
  };
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby="code-dialog-title"
      fullWidth
      maxWidth="xs"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="code-dialog-title">{title}</DialogTitle>
        <DialogContent>
          {text ? <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText> : null}
          <TextField
            label="Verification code"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
            error={!!error}
            helperText={error}
            autoFocus
            fullWidth
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Submit
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
