import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequest, initials, MSG } from '@obol/contract';
import {
  Avatar,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Grid,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { changePassword } from './api/changePassword.ts';
import { exportBackupCode } from './api/exportBackupCode.ts';
import { euro } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { PasswordRules } from '../../ui/PasswordRules.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';

type ChangeForm = z.input<typeof changePasswordRequest>;

export function ProfilePage() {
  const session = useSession();
  const { notify } = useNotify();
  const form = useForm<ChangeForm>({
    resolver: zodResolver(changePasswordRequest),
    mode: 'onTouched',
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const [askingPassword, setAskingPassword] = useState(false);
  if (!session) return null;
  const { user, account } = session;
  const showBalance =
    session.permissions.includes('User can view balance') && user.role !== 'Admin' && user.role !== 'Manager';

  const submit = form.handleSubmit(async (v) => {
    try {
      const r = await changePassword(v);
      notify('success', r.message?.[0] ?? MSG.passwordChanged);
      form.reset();
    } catch (err) {
      if (err instanceof ApiError) {
        for (const f of ['current_password', 'password', 'password_confirmation'] as const) {
          const m = err.fieldError(f);
          if (m) form.setError(f, { message: m });
        }
      }
      notify('error', errorMessage(err));
    }
  });

  return (
    <>
      <PageTitle>User Profile</PageTitle>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 5 }}>
          <Paper sx={{ p: 3 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
              <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
                {initials(user.name)}
              </Avatar>
              <Box>
                <Typography component="h2" variant="h6">
                  {user.name}
                </Typography>
                <Typography color="text.secondary">{user.email}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {user.role}
                  {user.parent ? ` of ${user.parent.name}` : ''}
                </Typography>
              </Box>
            </Stack>
            {account?.account_reference ? (
              <Typography variant="body2" sx={{ mb: 1 }}>
                Account reference: <strong>{account.account_reference}</strong>
              </Typography>
            ) : null}
            {showBalance && account ? (
              <Typography variant="body2" sx={{ mb: 1 }}>
                Available balance: <strong>{euro(account.balance)}</strong>
              </Typography>
            ) : null}
            <Typography variant="body2" sx={{ mb: 2 }}>
              Codes for payouts: {user.two_fa_as_otp ? 'by e-mail' : 'authenticator app'}
            </Typography>
            <Button variant="outlined" onClick={() => setAskingPassword(true)}>
              Download backup codes
            </Button>
            <BackupCodesDialog
              open={askingPassword}
              email={user.email}
              onClose={() => setAskingPassword(false)}
              onDownloaded={() => {
                setAskingPassword(false);
                notify('success', 'Backup codes downloaded. Keep them safe: each signs you in once.');
              }}
            />
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          <Paper sx={{ p: 3 }}>
            <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
              Change password
            </Typography>
            <form onSubmit={submit} noValidate>
              <Stack spacing={2} sx={{ maxWidth: 420 }}>
                <TextField
                  label="Current password"
                  type="password"
                  {...form.register('current_password')}
                  error={!!form.formState.errors.current_password}
                  helperText={form.formState.errors.current_password?.message}
                />
                <TextField
                  label="New password"
                  type="password"
                  {...form.register('password')}
                  error={!!form.formState.errors.password}
                  helperText={form.formState.errors.password?.message}
                />
                <PasswordRules password={password ?? ''} />
                <TextField
                  label="Confirm new password"
                  type="password"
                  {...form.register('password_confirmation')}
                  error={!!form.formState.errors.password_confirmation}
                  helperText={form.formState.errors.password_confirmation?.message}
                />
                <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
                  Change password
                </Button>
              </Stack>
            </form>
          </Paper>
        </Grid>
        <Grid size={12}>
          <PasskeysCard />
        </Grid>
      </Grid>
    </>
  );
}

/**
 * New backup codes sign in without the second factor the user set up, so the server wants the password as well
 * as the session: this asks for it, shows the server's refusal under the field, and saves the file.
 */
function BackupCodesDialog({
  open,
  email,
  onClose,
  onDownloaded,
}: {
  open: boolean;
  email: string;
  onClose: () => void;
  onDownloaded: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPassword('');
    setError(null);
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    // the dialog renders in a portal, but React still bubbles its submit to an enclosing form
    e.stopPropagation();
    if (!password) return setError(MSG.required);
    setBusy(true);
    try {
      await exportBackupCode({ email, password });
      setPassword('');
      setError(null);
      onDownloaded();
    } catch (err) {
      setError((err instanceof ApiError && err.fieldError('password')) || errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : close} aria-labelledby="backup-codes-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="backup-codes-title">Download backup codes</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Enter your password to get 10 new backup codes. They replace the codes you had; each signs you in once.
          </DialogContentText>
          <TextField
            label="Password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            slotProps={{ htmlInput: { autoComplete: 'current-password' } }}
            error={!!error}
            helperText={error}
            autoFocus
            fullWidth
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Download
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
