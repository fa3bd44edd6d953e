import { MSG, type AuthPermissionResponse } from '@obol/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { activity, api } from '../lib/api.ts';
import { sessionStore, useSession } from '../lib/session.ts';
import { useNotify } from '../ui/notifications.tsx';
import { useNavigate } from 'react-router';

/** Seconds before the idle expiry at which the warning shows: a minute, or half a short timeout. */
export const warnAt = (idleSeconds: number) => Math.min(60, Math.floor(idleSeconds / 2));

/** Warns shortly before an idle session ends, with a countdown, and lets the user stay signed in. */
export function IdleWarning({ onLogout }: { onLogout: () => void }) {
  const session = useSession();
  const { notify } = useNotify();
  const navigate = useNavigate();
  const idle = session?.timing.idle_timeout_seconds ?? 0;
  const [remaining, setRemaining] = useState(idle);

  useEffect(() => {
    if (!idle) return;
    const tick = () => setRemaining(Math.ceil(idle - (Date.now() - activity.last()) / 1000));
    tick();
    const timer = setInterval(tick, 1000);
    const unsub = activity.subscribe(tick);
    return () => {
      clearInterval(timer);
      unsub();
    };
  }, [idle]);

  useEffect(() => {
    if (idle && remaining <= 0 && sessionStore.get()) {
      sessionStore.clear();
      notify('error', MSG.sessionExpired);
      navigate('/signin');
    }
  }, [remaining, idle, notify, navigate]);

  if (!idle) return null;
  const open = remaining > 0 && remaining <= warnAt(idle);
  return (
    <Dialog open={open} aria-labelledby="idle-title">
      <DialogTitle id="idle-title">Your session is about to expire</DialogTitle>
      <DialogContent>
        <Typography>
          You will be signed out in <strong>{remaining}</strong> second{remaining === 1 ? '' : 's'} because of
          inactivity.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onLogout}>Log out</Button>
        <Button
          variant="contained"
          onClick={() =>
            api<AuthPermissionResponse>('/api/auth-permission')
              .then((r) => sessionStore.update({ permissions: r.data.permission, timing: r.session }))
              .catch(() => undefined)
          }
        >
          Stay signed in
        </Button>
      </DialogActions>
    </Dialog>
  );
}
