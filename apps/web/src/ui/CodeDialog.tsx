import { MSG } from '@obol/contract';
import { Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';
import { useSession } from '../lib/session.ts';
import { FormActions } from './FormActions.tsx';

/** The one title of the code step, wherever money is approved with a code. */
export const CODE_STEP_TITLE = 'Enter the verification code';

/** Where the code comes from: the e-mail (with how long it is valid) or the authenticator app. */
export const codeNote = (byEmail: boolean, validity: string) =>
  byEmail
    ? `We e-mailed you the code; it is valid for ${validity} and approves only this.`
    : 'Enter the code your authenticator app shows now.';

/**
 * Asks for a one-time code and hands it to `onSubmit`; shows the server's refusal under the field. Every code step
 * has the same title; `text` says what the code approves, and a note says where the code is (the user's e-mail,
 * valid for `validity`, or the authenticator app).
 */
export function CodeDialog({
  open,
  text,
  validity = '10 minutes',
  onClose,
  onSubmit,
}: {
  open: boolean;
  text?: string;
  /** how long an e-mailed code is valid ('10 minutes' for approvals, '24 hours' for a refund) */
  validity?: string;
  onClose: () => void;
  onSubmit: (code: string) => Promise<string | null>;
}) {
  const byEmail = useSession()?.user.two_fa_as_otp ?? true;
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
        <DialogTitle id="code-dialog-title">{CODE_STEP_TITLE}</DialogTitle>
        <DialogContent>
          {text ? <DialogContentText sx={{ mb: 1 }}>{text}</DialogContentText> : null}
          <DialogContentText variant="body2" sx={{ mb: 2 }}>
            {codeNote(byEmail, validity)}
          </DialogContentText>
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
        <FormActions onCancel={onClose} busy={busy} submit="Submit" />
      </form>
    </Dialog>
  );
}
