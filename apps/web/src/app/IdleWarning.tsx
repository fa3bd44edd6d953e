import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { activity } from '../lib/api.ts';
import { sessionStore, useSession } from '../lib/session.ts';
import { refreshPermissions, useExpireSession } from './sessionActions.ts';

/** Seconds before the idle expiry at which the warning shows: a minute, or half a timeout shorter than 2 minutes. */
export const warnAt = (idleSeconds: number) => (idleSeconds < 120 ? Math.floor(idleSeconds / 2) : 60);

/** Seconds left of a session: the idle time since the last successful call, capped by its absolute end. */
export function secondsLeft(
  idleSeconds: number,
  lastActivity: number,
  expiresAt: string | undefined,
  now = Date.now(),
) {
  const idleLeft = idleSeconds - (now - lastActivity) / 1000;
  const end = expiresAt ? Date.parse(expiresAt) : NaN;
  const absoluteLeft = Number.isNaN(end) ? Infinity : (end - now) / 1000;
  return Math.ceil(Math.min(idleLeft, absoluteLeft));
}

/** Warns shortly before an idle session ends, with a countdown, and lets the user stay signed in. */
export function IdleWarning({ onLogout }: { onLogout: () => void }) {
  const session = useSession();
  const expire = useExpireSession();
  const idle = session?.timing?.idle_timeout_seconds ?? 0;
  const expiresAt = session?.timing?.expires_at;
  const [remaining, setRemaining] = useState(() => (idle ? secondsLeft(idle, activity.last(), expiresAt) : 0));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!idle) return;
    const tick = () => setRemaining(secondsLeft(idle, activity.last(), expiresAt));
    tick();
    const timer = setInterval(tick, 1000);
    const unsub = activity.subscribe(tick);
    return () => {
      clearInterval(timer);
      unsub();
    };
  }, [idle, expiresAt]);

  useEffect(() => {
    if (idle && remaining <= 0 && sessionStore.get()) expire();
  }, [remaining, idle, expire]);

  if (!idle) return null;
  const open = remaining > 0 && remaining <= warnAt(idle);
  const stay = async () => {
    setBusy(true);
    await refreshPermissions();
    setBusy(false);
  };
  return (
    <Dialog open={open} aria-labelledby="idle-title" aria-describedby="idle-text">
      <DialogTitle id="idle-title">Your session is about to expire</DialogTitle>
      <DialogContent>
        <Typography id="idle-text">
          You will be signed out in <strong data-testid="idle-seconds">{Math.max(0, remaining)}</strong> second
          {remaining === 1 ? '' : 's'} because of inactivity.
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onLogout}>Log out</Button>
        <Button variant="contained" onClick={stay} disabled={busy}>
          Stay signed in
        </Button>
      </DialogActions>
    </Dialog>
  );
}
