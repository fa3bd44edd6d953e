import type {
  AccountInfo,
  CurrentBatch,
  Permission,
  SessionTiming,
  SessionUser,
  VerifyCodeResponse,
} from '@obol/contract';
import { useSyncExternalStore } from 'react';
import { queryClient } from './queryClient.ts';

/** What the browser keeps of a signed-in user: token, user, role, permissions, account and the current batch. */
export interface Session {
  token: string;
  user: SessionUser;
  permissions: Permission[];
  account: AccountInfo | null;
  batch: CurrentBatch | null;
  timing: SessionTiming;
}

export const TOKEN_KEY = 'obol.token';
const SESSION_KEY = 'obol.session';
/** sessionStorage key of the pending sign-in: the challenge token and the chosen second factor */
export const CHALLENGE_KEY = 'obol.challenge';

let current: Session | null = load();
const listeners = new Set<() => void>();

function load(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const raw = localStorage.getItem(SESSION_KEY);
    if (!token || !raw) return null;
    return { ...(JSON.parse(raw) as Omit<Session, 'token'>), token };
  } catch {
    return null;
  }
}

function save(next: Session | null) {
  current = next;
  if (next) {
    const { token, ...rest } = next;
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(SESSION_KEY, JSON.stringify(rest));
  } else {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(SESSION_KEY);
  }
  for (const l of listeners) l();
}

export const sessionStore = {
  get: () => current,
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  signIn(r: VerifyCodeResponse) {
    save({
      token: r.accessToken,
      user: r.user,
      permissions: r.permission,
      account: r.account,
      batch: r.batch,
      timing: r.session,
    });
  },
  update(patch: Partial<Omit<Session, 'token'>>) {
    if (current) save({ ...current, ...patch });
  },
  setPermissions(permissions: Permission[]) {
    if (current) save({ ...current, permissions });
  },
  setAccount(account: AccountInfo | null) {
    if (current) save({ ...current, account });
  },
  /** the current batch; cleared (null) after execution or deletion */
  setBatch(batch: CurrentBatch | null) {
    if (current) save({ ...current, batch });
  },
  clear() {
    save(null);
  },
  /** re-read after another tab changed it */
  reload() {
    current = load();
    for (const l of listeners) l();
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === TOKEN_KEY || e.key === SESSION_KEY) sessionStore.reload();
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}

/** Logout and session expiry: token, stored session, pending sign-in and every cached answer go. */
export function resetSession() {
  sessionStore.clear();
  try {
    sessionStorage.removeItem(CHALLENGE_KEY);
  } catch {
    /* storage unavailable */
  }
  queryClient.clear();
}

export function hasPermission(session: Session | null, p: Permission): boolean {
  return !!session?.permissions.includes(p);
}
