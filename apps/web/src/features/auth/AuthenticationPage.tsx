import { MSG, type VerifyCodeResponse } from '@obol/contract';
import { Button, Link, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router';
import { api, ApiError } from '../../lib/api.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { firstPermittedPath } from '../../app/paths.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { CHALLENGE_KEY, signedInHome } from './SignInPage.tsx';

const HINT: Record<string, string> = {
  email: 'Enter the 6-digit code we sent to your e-mail.',
  authenticator: 'Enter the 6-digit code from your authenticator app.',
  backup: 'Enter one of your backup codes.',
};

export function AuthenticationPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { notify } = useNotify();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // a user who arrives here signed in goes on; one who just verified is sent to their start page below
  const [verified, setVerified] = useState(false);
  const raw = sessionStorage.getItem(CHALLENGE_KEY);
  if (session && !verified) return <Navigate to={signedInHome(session.permissions)} replace />;
  if (!raw) return verified ? null : <Navigate to="/signin" replace />;
  const challenge = JSON.parse(raw) as { token: string; auth_type: string };
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
      const r = await api<VerifyCodeResponse>('/api/verify-code', {
        challenge_token: challenge.token,
        code: code.trim(),
      });
      sessionStorage.removeItem(CHALLENGE_KEY);
      setVerified(true);
      sessionStore.signIn(r);
      notify('success', MSG.loggedIn);
      navigate(firstPermittedPath(r.permission));
    } catch (err) {
      const msg = err instanceof ApiError ? err.display : MSG.somethingWrong;
      setError(msg);
      notify('error', msg);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Verification" subtitle={HINT[challenge.auth_type]}>
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label="Code"
            value={code}
            onChange={(e) =>
              setCode(numeric ? e.target.value.replace(/\D/g, '').slice(0, 6) : e.target.value.slice(0, 20))
            }
            slotProps={{ htmlInput: { inputMode: numeric ? 'numeric' : 'text', autoComplete: 'one-time-code' } }}
            error={!!error}
            helperText={error}
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            Verify
          </Button>
          <Link
            component={RouterLink}
            to="/signin"
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
