import type { FastifyRequest } from 'fastify';
import type { AuthContext } from './http.ts';

// The lists' early start beside their session check (route()'s `speculative`;
// docs/decisions/023-session-check-and-early-list-start.md): what decides whether a read started on a remembered
// authority may be answered.

/** Whether two session checks gave the same authority: the session, the user as a request sees it, its permissions. */
export function sameAuthority(a: AuthContext, b: AuthContext): boolean {
  if (a === b) return true;
  if (a.sessionId !== b.sessionId || a.sessionExpiresAt !== b.sessionExpiresAt) return false;
  const [u, v] = [a.user, b.user];
  if (
    u.id !== v.id ||
    u.name !== v.name ||
    u.email !== v.email ||
    u.role !== v.role ||
    u.parentId !== v.parentId ||
    u.twoFaAsOtp !== v.twoFaAsOtp
  )
    return false;
  if (a.permissions.size !== b.permissions.size) return false;
  for (const p of a.permissions) if (!b.permissions.has(p)) return false;
  return JSON.stringify(a.scope) === JSON.stringify(b.scope);
}

/** Settles a speculative request's session check: `auth` becomes what the check answered now. */
export async function confirmAuth(req: FastifyRequest): Promise<AuthContext | null> {
  const check = req.authCheck;
  if (!check) return req.auth;
  req.authCheck = null;
  req.auth = await check;
  return req.auth;
}

/**
 * What the session check last answered for each token (by its key), so that a read route may start beside the
 * check instead of after it (route()'s `speculative`). Never an authority: a read started on it is answered only
 * once the request's own check has confirmed the same authority, and is run again on the new one (or refused)
 * when it differs. Bounded: the least recently used key goes first.
 */
export class KnownSessions {
  private readonly known = new Map<string, AuthContext>();
  private readonly max: number;
  constructor(max = 10_000) {
    this.max = max;
  }

  get(key: string): AuthContext | undefined {
    return this.known.get(key);
  }

  /** Keeps what a check answered (null: forgets the key). */
  set(key: string, auth: AuthContext | null): void {
    this.known.delete(key);
    if (!auth) return;
    this.known.set(key, auth);
    if (this.known.size > this.max) this.known.delete(this.known.keys().next().value as string);
  }
}
