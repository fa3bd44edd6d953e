import { zodResolver } from '@hookform/resolvers/zod';
import { AUTH_TYPES, loginRequest, type AuthType } from '@obol/contract';
import {
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Link,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { signInErrorMessage } from '../../lib/api.ts';
import { login } from './api/login.ts';
import { CHALLENGE_KEY, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { firstPermittedPath } from '../../app/paths.ts';
import { AuthLayout } from './AuthLayout.tsx';

type Form = z.input<typeof loginRequest>;
export { CHALLENGE_KEY };

/** The pending sign-in kept between the two steps. */
export interface Challenge {
  token: string;
  auth_type: AuthType;
  merchant: boolean;
}

/** Where a signed-in user goes from the sign-in pages. */
export function signedInHome(perms: readonly string[]) {
  return perms.includes('User can view transactions') ? '/payout-transactions' : firstPermittedPath(perms);
}

export function SignInPage({ merchant = false }: { merchant?: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const { notify } = useNotify();
  const [busy, setBusy] = useState(false);
  const form = useForm<Form>({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: '', password: '', auth_type: 'email' },
  });
  if (session) return <Navigate to={signedInHome(session.permissions)} replace />;

  const submit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const r = await login(values);
      const challenge: Challenge = {
        token: r.challenge_token,
        auth_type: AUTH_TYPES.includes(r.auth_type) ? r.auth_type : values.auth_type,
        merchant,
      };
      sessionStorage.setItem(CHALLENGE_KEY, JSON.stringify(challenge));
      notify('info', r.message[0] ?? 'Enter your code');
      navigate('/signin/authentication');
    } catch (err) {
      notify('error', signInErrorMessage(err));
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthLayout
      title={merchant ? 'Merchant sign-in' : 'Sign in'}
      subtitle={merchant ? 'Sign in to pay out on behalf of your business.' : undefined}
    >
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            {...form.register('email')}
            error={!!form.formState.errors.email}
            helperText={form.formState.errors.email?.message}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            {...form.register('password')}
            error={!!form.formState.errors.password}
            helperText={form.formState.errors.password?.message}
          />
          <FormControl>
            <FormLabel id="factor-label">Second factor</FormLabel>
            <Controller
              control={form.control}
              name="auth_type"
              render={({ field }) => (
                <RadioGroup
                  aria-labelledby="factor-label"
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value)}
                >
                  <FormControlLabel value="email" control={<Radio />} label="E-mail code" />
                  <FormControlLabel value="authenticator" control={<Radio />} label="Authenticator app" />
                  <FormControlLabel value="backup" control={<Radio />} label="Backup code" />
                </RadioGroup>
              )}
            />
          </FormControl>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Sign in
          </Button>
          <Link component={RouterLink} to="/forgot-password" variant="body2">
            Forgot password?
          </Link>
        </Stack>
      </form>
    </AuthLayout>
  );
}
