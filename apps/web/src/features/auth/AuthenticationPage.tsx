import { AUTH_TYPES, MSG } from '@obol/contract';
import { Button, Link, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { firstPermittedPath } from '../../app/paths.ts';
import { signInErrorMessage } from '../../lib/api.ts';
import { verifyCode } from './api/verifyCode.ts';
import { CHALLENGE_KEY, sessionStore, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { AuthLayout } from '../../ui/AuthLayout.tsx';
import { signedInHome, type Challenge } from './SignInPage.tsx';
import { rememberFactor } from './factorMemory.ts';

const HINT: Record<Challenge['auth_type'], string> = {
  email: 'Enter the 6-digit code we sent to your e-mail.',
  authenticator: 'Enter the 6-digit code from your authenticator app.',
  backup: 'Enter one of your backup codes.',
};

/** The factors typed on this page (a passkey is used on the sign-in page itself). */
const CODE_TYPES = AUTH_TYPES.filter((t): t is Challenge['auth_type'] => t !== 'passkey');

/** The pending sign-in, or null when none was started (or it is unreadable). */
export function readChallenge(): Challenge | null {
  try {
    const raw = sessionStorage.getItem(CHALLENGE_KEY);
    if (!raw) return null;
    const c = JSON.parse(raw) as Partial<Challenge>;
    if (!c.token || !c.auth_type || !CODE_TYPES.includes(c.auth_type)) return null;
    return { token: c.token, auth_type: c.auth_type, merchant: !!c.merchant };
  } catch {
    return null;
  }
}

export function AuthenticationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { notify } = useNotify();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // set once this page signed the user in: it then navigates itself instead of redirecting
  const [verified, setVerified] = useState(false);
  const [challenge] = useState(readChallenge);

  if (session && !verified) return <Navigate to={signedInHome(session.permissions)} replace />;
  if (!challenge) return verified ? null : <Navigate to="/signin" replace />;
  const numeric = challenge.auth_type !== 'backup';

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setError(MSG.required);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await verifyCode({
        challenge_token: challenge.token,
        code: code.trim(),
      });
      flushSync(() => setVerified(true));
      sessionStorage.removeItem(CHALLENGE_KEY);
      sessionStore.signIn(r);
      rememberFactor(r.user.email, challenge.auth_type);
      notify('success', MSG.loggedIn);
      navigate(firstPermittedPath(r.permission), { replace: true });
    } catch (err) {
      const msg = signInErrorMessage(err);
      setError(msg);
      notify('error', msg);
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title={challenge.merchant ? 'Merchant verification' : 'Verification'}
      subtitle={HINT[challenge.auth_type]}
    >
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label="Code"
            value={code}
            onChange={(e) => {
              setError(null);
              setCode(numeric ? e.target.value.replace(/\D/g, '').slice(0, 6) : e.target.value.slice(0, 20));
            }}
            slotProps={{
              htmlInput: {
                inputMode: numeric ? 'numeric' : 'text',
                pattern: numeric ? '[0-9]*' : undefined,
                autoComplete: 'one-time-code',
              },
            }}
            error={!!error}
            helperText={error}
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Verify
          </Button>
          <Link
            component={RouterLink}
            to={challenge.merchant ? '/merchant-signin' : '/signin'}
            variant="body2"
            onClick={() => sessionStorage.removeItem(CHALLENGE_KEY)}
          >
            Back to sign-in
          </Link>
        </Stack>
      </form>
    </AuthLayout>
  );
}
