import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify } from '../../ui/notifications.tsx';
import { exportBackupCode } from './api/exportBackupCode.ts';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';

/**
 * New backup codes sign in without the second factor the user set up, so the server wants the password as well
 * as the session: this asks for it, shows the server's refusal under the field, and saves the file.
 */
export function BackupCodesButton({ email }: { email: string }) {
  const { notify } = useNotify();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)}>
        Download backup codes
      </Button>
      <PasswordDialog
        open={open}
        title="Download backup codes"
        text="Enter your password to get 10 new backup codes. They replace the codes you had; each signs you in once."
        confirmLabel="Download"
        field="password"
        onCancel={() => setOpen(false)}
        onConfirm={async (password) => {
          await exportBackupCode({ email, password });
          setOpen(false);
          notify('success', 'Backup codes downloaded. Keep them safe: each signs you in once.');
        }}
      />
    </>
  );
}
