import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequest, MSG } from '@obol/contract';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { NewPasswordFields } from '../../ui/PasswordRules.tsx';
import { changePassword } from './api/changePassword.ts';
import { fieldProps } from '../../lib/fieldProps.ts';

type ChangeForm = z.input<typeof changePasswordRequest>;

/** The change-password form: the current password, the new one under the spec's rules, and its confirmation. */
export function ChangePasswordCard() {
  const { notify } = useNotify();
  const form = useForm<ChangeForm>({
    resolver: zodResolver(changePasswordRequest),
    mode: 'onTouched',
    defaultValues: { current_password: '', password: '', password_confirmation: '' },
  });
  // the fields are uncontrolled: after a reset they are mounted anew, so their labels float back down
  const [round, setRound] = useState(0);

  const submit = form.handleSubmit(async (v) => {
    try {
      const r = await changePassword(v);
      notify('success', r.message?.[0] ?? MSG.passwordChanged);
      form.reset();
      setRound((n) => n + 1);
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
    <Paper sx={{ p: 3 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        Change password
      </Typography>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2} sx={{ maxWidth: 420 }} key={round}>
          <TextField label="Current password" type="password" {...fieldProps(form, 'current_password')} />
          <NewPasswordFields form={form} confirmLabel="Confirm new password" />
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Change password
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
