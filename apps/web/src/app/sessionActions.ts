import { MSG } from '@obol/contract';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { authPermission } from '../features/auth/api/authPermission.ts';
import { logout } from '../features/auth/api/logout.ts';
import { resetSession, sessionStore } from '../lib/session.ts';
import { useNotify } from '../ui/notifications.tsx';

/** A session that ended (401, idle timeout): clear everything, say 'Session expired', go to /signin. */
export function useExpireSession() {
  const navigate = useNavigate();
  const { notify } = useNotify();
  return useCallback(() => {
    resetSession();
    notify('error', MSG.sessionExpired);
    navigate('/signin', { replace: true });
  }, [navigate, notify]);
}

/** Logout: tell the server, clear everything, go to /signin. */
export function useLogout() {
  const navigate = useNavigate();
  return useCallback(async () => {
    if (sessionStore.get()) {
      try {
        await logout();
      } catch {
        /* the session may have ended already */
      }
    }
    resetSession();
    navigate('/signin', { replace: true });
  }, [navigate]);
}

/** POST /api/auth-permission: fresh permissions and session timing into the store (also keeps the session alive). */
export async function refreshPermissions(): Promise<void> {
  if (!sessionStore.get()?.token) return;
  try {
    const r = await authPermission();
    if (Array.isArray(r?.data?.permission))
      sessionStore.update({ permissions: r.data.permission, ...(r.session ? { timing: r.session } : {}) });
  } catch {
    /* a 401 is handled by the api client; other failures keep the permissions held */
  }
}
