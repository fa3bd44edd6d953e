import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordRequest, MSG, setPasswordRequest } from '@obol/contract';
import { Alert, Button, CircularProgress, Link, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ApiError } from '../../lib/api.ts';
import { checkLinkExpiry } from './api/checkLinkExpiry.ts';
import { forgotPassword } from './api/forgotPassword.ts';
import { setPassword } from './api/setPassword.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { NewPasswordFields } from '../../ui/PasswordRules.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { fieldProps } from '../../lib/fieldProps.ts';

export function ForgotPasswordPage() {
  const { notify } = useNotify();
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<z.input<typeof forgotPasswordRequest>>({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: '' },
  });
  const submit = form.handleSubmit(async (v) => {
    try {
      const r = await forgotPassword(v);
      setSent(r.message[0]);
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  });
  return (
    <AuthLayout title="Forgot password" subtitle="We will e-mail you a link to set a new password.">
      {sent ? (
        <Stack spacing={2}>
          <Alert severity="success">{sent}</Alert>
          <Link component={RouterLink} to="/signin">
            Back to sign-in
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <TextField label="Email" type="email" {...fieldProps(form, 'email')} />
            <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
              Send link
            </Button>
            <Link component={RouterLink} to="/signin" variant="body2">
              Back to sign-in
            </Link>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export function NewPasswordPage() {
  const { token = '', email = '' } = useParams();
  const navigate = useNavigate();
  const { notify } = useNotify();
  const [state, setState] = useState<'checking' | 'valid' | string>('checking');
  const form = useForm<z.input<typeof setPasswordRequest>>({
    resolver: zodResolver(setPasswordRequest),
    mode: 'onTouched',
    defaultValues: { token, email, password: '', password_confirmation: '' },
  });

  useEffect(() => {
    checkLinkExpiry({ token, email })
      .then(() => setState('valid'))
      .catch((err) => setState(err instanceof ApiError ? err.display : MSG.linkExpired));
  }, [token, email]);

  const submit = form.handleSubmit(async (v) => {
    try {
      await setPassword({ ...v, token, email });
      navigate('/password-success', { replace: true });
    } catch (err) {
      notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
    }
  });

  return (
    <AuthLayout title="Set a new password" subtitle={email}>
      {state === 'checking' ? (
        <CircularProgress />
      ) : state !== 'valid' ? (
        <Stack spacing={2}>
          <Alert severity="error">{state}</Alert>
          <Link component={RouterLink} to="/forgot-password">
            Ask for a new link
          </Link>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <NewPasswordFields form={form} confirmLabel="Confirm password" rulesId="password-rules" />
            <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
              Set password
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

export function PasswordSuccessPage() {
  return (
    <AuthLayout title="Password set">
      <Stack spacing={2}>
        <Alert severity="success">Your new password is set. Sign in with it.</Alert>
        <Button component={RouterLink} to="/signin" variant="contained">
          Sign in
        </Button>
      </Stack>
    </AuthLayout>
  );
}
