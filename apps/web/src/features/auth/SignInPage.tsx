import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequest, MSG, type AuthType } from '@obol/contract';
import { Alert, Button, FormControl, FormControlLabel, FormLabel, Link, Radio, RadioGroup, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { z } from 'zod';
import { ApiError, signInErrorMessage } from '../../lib/api.ts';
import { login } from './api/login.ts';
import { verifyCode } from './api/verifyCode.ts';
import { CHALLENGE_KEY, sessionStore, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { firstPermittedPath } from '../../app/paths.ts';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { AuthTextField } from './AuthTextField.tsx';
import { rememberFactor, strongFactorOf } from './factorMemory.ts';
import { fieldProps } from '../../lib/fieldProps.ts';

type Form = z.input<typeof loginRequest>;
export { CHALLENGE_KEY };

/** The pending sign-in kept between the two steps. */
export interface Challenge {
  token: string;
  /** a passkey is used on the sign-in page itself: no code follows */
  auth_type: Exclude<AuthType, 'passkey'>;
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
  const [failure, setFailure] = useState<string | null>(null);
  // set once this page signed the user in with a passkey: it then navigates itself instead of redirecting
  const [verified, setVerified] = useState(false);
  const form = useForm<Form>({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: '', password: '', auth_type: 'email' },
  });
  // an address that signed in here with an authenticator or a passkey is not offered the e-mailed code
  const strong = strongFactorOf(useWatch({ control: form.control, name: 'email' }) ?? '');
  useEffect(() => {
    if (strong && form.getValues('auth_type') === 'email') form.setValue('auth_type', strong);
  }, [strong, form]);
  if (session && !verified) return <Navigate to={signedInHome(session.permissions)} replace />;

  const submit = form.handleSubmit(async (values) => {
    setBusy(true);
    setFailure(null);
    try {
      const r = await login(values);
      if (r.auth_type === 'passkey') {
        // the browser's passkey prompt runs at once (its code loads only now)
        const { PasskeyError, signWithPasskey } = await import('../../lib/passkeys.ts');
        if (!r.passkey_options) throw new PasskeyError(MSG.noPasskey);
        const assertion = await signWithPasskey(r.passkey_options);
        const signedIn = await verifyCode({ challenge_token: r.challenge_token, assertion });
        flushSync(() => setVerified(true));
        sessionStore.signIn(signedIn);
        rememberFactor(signedIn.user.email, 'passkey');
        notify('success', MSG.loggedIn);
        navigate(firstPermittedPath(signedIn.permission), { replace: true });
        return;
      }
      const challenge: Challenge = {
        token: r.challenge_token,
        auth_type: r.auth_type,
        merchant,
      };
      sessionStorage.setItem(CHALLENGE_KEY, JSON.stringify(challenge));
      notify('info', r.message[0] ?? 'Enter your code');
      navigate('/signin/authentication');
    } catch (err) {
      // a PasskeyError (lib/passkeys.ts, loaded with the prompt) carries the user's words
      const message = err instanceof Error && err.name === 'PasskeyError' ? err.message : signInErrorMessage(err);
      // the account has an authenticator or a passkey: the e-mailed code is refused, and no longer offered here
      const emailRefused = err instanceof ApiError && err.status === 403 && !!err.fieldError('auth_type');
      if (emailRefused) {
        rememberFactor(values.email, 'authenticator');
        form.setValue('auth_type', 'authenticator');
      }
      // said once: beside the factors when the user must choose again, else as a toast
      if (values.auth_type === 'passkey' || emailRefused) setFailure(message);
      else notify('error', message);
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
          <AuthTextField label="Email" type="email" autoComplete="username" {...fieldProps(form, 'email')} />
          <AuthTextField
            label="Password"
            type="password"
            autoComplete="current-password"
            {...fieldProps(form, 'password')}
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
                  {strong ? null : <FormControlLabel value="email" control={<Radio />} label="E-mail code" />}
                  <FormControlLabel value="authenticator" control={<Radio />} label="Authenticator app" />
                  <FormControlLabel value="backup" control={<Radio />} label="Backup code" />
                  <FormControlLabel value="passkey" control={<Radio />} label="Passkey" />
                </RadioGroup>
              )}
            />
          </FormControl>
          {failure ? (
            <Alert severity="error" role="alert">
              {failure}
            </Alert>
          ) : null}
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
