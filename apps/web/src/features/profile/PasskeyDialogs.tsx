import { MSG, type PasskeyRow } from '@obol/contract';
import { Alert, Dialog, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { createPasskey, PasskeyError } from '../../lib/passkeys.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { deletePasskey } from './api/deletePasskey.ts';
import { passkeyRegister } from './api/passkeyRegister.ts';
import { passkeyRegisterOptions } from './api/passkeyRegisterOptions.ts';
import { passkeysKey } from './api/passkeys.ts';
import { renamePasskey } from './api/renamePasskey.ts';
import { CurrentPasswordField, PasswordDialog } from '../../ui/PasswordDialog.tsx';
import { FormActions } from '../../ui/FormActions.tsx';

/** The field's message in a 400, or the answer's message. */
const fieldOr = (err: unknown, field: string) =>
  (err instanceof ApiError && err.fieldError(field)) || (err instanceof PasskeyError ? err.message : errorMessage(err));

function FormDialog({
  open,
  title,
  busy,
  onClose,
  onSubmit,
  submitLabel,
  children,
}: {
  open: boolean;
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  children: ReactNode;
}) {
  const titleId = `passkey-dialog-${submitLabel.toLowerCase().replace(/\W+/g, '-')}`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // the dialog renders in a portal, but React still bubbles its submit to an enclosing form
    e.stopPropagation();
    onSubmit();
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 0.5 }}>
            {children}
          </Stack>
        </DialogContent>
        <FormActions onCancel={onClose} busy={busy} submit={submitLabel} />
      </form>
    </Dialog>
  );
}

/** Asks a name and the password, then runs the browser's prompt and keeps the new passkey. */
export function AddPasskeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { notify } = useNotify();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string; general?: string }>({});
  const close = () => {
    setName('');
    setPassword('');
    setErrors({});
    onClose();
  };
  const add = useMutation({
    mutationFn: async () => {
      const { options } = await passkeyRegisterOptions({ current_password: password });
      const response = await createPasskey(options);
      return passkeyRegister({ response, name: name.trim() });
    },
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: passkeysKey });
      notify('success', r.message[0] ?? MSG.passkeyAdded);
      close();
    },
    onError: (err) => {
      const password = err instanceof ApiError ? err.fieldError('current_password') : undefined;
      const name = err instanceof ApiError ? err.fieldError('name') : undefined;
      setErrors(password || name ? { password, name } : { general: fieldOr(err, 'response') });
    },
  });
  const submit = () => {
    const next = { name: name.trim() ? undefined : MSG.required, password: password ? undefined : MSG.required };
    setErrors(next);
    if (!next.name && !next.password) add.mutate();
  };
  return (
    <FormDialog
      open={open}
      title="Add a passkey"
      busy={add.isPending}
      onClose={close}
      onSubmit={submit}
      submitLabel="Continue"
    >
      <DialogContentText>
        Name the passkey so you can tell it apart, and enter your password. Your browser then asks you to create the
        passkey.
      </DialogContentText>
      {errors.general ? <Alert severity="error">{errors.general}</Alert> : null}
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Work laptop"
        error={!!errors.name}
        helperText={errors.name}
        slotProps={{ htmlInput: { maxLength: 50 } }}
        autoFocus
        fullWidth
      />
      <CurrentPasswordField value={password} onChange={setPassword} error={errors.password} />
    </FormDialog>
  );
}

export function RenamePasskeyDialog({ passkey, onClose }: { passkey: PasskeyRow; onClose: () => void }) {
  const { notify } = useNotify();
  const client = useQueryClient();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: () => renamePasskey({ id: passkey.id, name: name.trim() }),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: passkeysKey });
      notify('success', r.message[0] ?? MSG.passkeyRenamed);
      onClose();
    },
    onError: (err) => setError(fieldOr(err, 'name')),
  });
  return (
    <FormDialog
      open
      title="Rename passkey"
      busy={rename.isPending}
      onClose={onClose}
      onSubmit={() => (name.trim() ? rename.mutate() : setError(MSG.required))}
      submitLabel="Rename"
    >
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={!!error}
        helperText={error}
        slotProps={{ htmlInput: { maxLength: 50 } }}
        autoFocus
        fullWidth
      />
    </FormDialog>
  );
}

/** Removing a passkey is confirmed with the password (the profile's password dialog). */
export function RemovePasskeyDialog({ passkey, onClose }: { passkey: PasskeyRow; onClose: () => void }) {
  const { notify } = useNotify();
  const client = useQueryClient();
  return (
    <PasswordDialog
      open
      title="Remove passkey?"
      text={`“${passkey.name}” will no longer sign you in. Enter your password to remove it.`}
      confirmLabel="Remove passkey"
      danger
      onCancel={onClose}
      onConfirm={async (password) => {
        const r = await deletePasskey({ id: passkey.id, current_password: password });
        void client.invalidateQueries({ queryKey: passkeysKey });
        notify('success', r.message[0] ?? MSG.passkeyRemoved);
        onClose();
      }}
    />
  );
}
