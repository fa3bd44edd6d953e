import type { Permission, SessionTiming } from '@obol/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { AuthContext } from '../../platform/http.ts';
import { scopeFor } from '../../platform/scope.ts';
import { permissionsOfRole } from '../roles/repo.ts';
import { signInUser, toAuthUser } from '../users/credentials.ts';
import { sessions } from './tables.ts';

export function sessionTiming(deps: Deps, expiresAt: number): SessionTiming {
  return { idle_timeout_seconds: deps.config.sessionIdleSeconds, expires_at: new Date(expiresAt).toISOString() };
}

/** Opens a session for the user: its bearer token (given once) and its timing. */
export async function startSession(
  deps: Deps,
  userId: number,
  now: number,
  meta: { ip: string; userAgent?: string },
): Promise<{ token: string; timing: SessionTiming }> {
  const token = randomToken();
  const timing = sessionTiming(deps, now + deps.config.sessionMaxHours * 3_600_000);
  await deps.db.insert(sessions).values({
    userId,
    tokenHash: sha256(token),
    idleExpiresAt: new Date(now + deps.config.sessionIdleSeconds * 1000),
    expiresAt: new Date(timing.expires_at),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300),
  });
  return { token, timing };
}

/** Resolves a bearer token to the caller, extending the idle expiry. Null when missing, expired or revoked. */
export async function authenticate(deps: Deps, token: string): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const now = new Date();
  const [session] = await deps.db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.tokenHash, sha256(token)),
        isNull(sessions.revokedAt),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.expiresAt, now),
      ),
    )
    .limit(1);
  if (!session) return null;
  const row = await signInUser(deps.db, { id: session.userId });
  if (!row || !row.isActive) return null;
  // extend the idle expiry, at most every 5 seconds per session to spare writes
  if (now.getTime() - session.lastSeenAt.getTime() > 5_000) {
    const idle = new Date(Math.min(now.getTime() + deps.config.sessionIdleSeconds * 1000, session.expiresAt.getTime()));
    await deps.db.update(sessions).set({ lastSeenAt: now, idleExpiresAt: idle }).where(eq(sessions.id, session.id));
  }
  const user = toAuthUser(row);
  const perms = await permissionsOfRole(deps.db, row.roleId);
  return { user, sessionId: session.id, permissions: new Set<Permission>(perms), scope: scopeFor(user) };
}

/**
 * A user's authority for work done on their behalf without a session (a scheduled report): their role's permissions
 * and scope as they are now; null when the account is gone or inactive.
 */
export async function authContextOf(deps: Deps, userId: number): Promise<(AuthContext & { email: string }) | null> {
  const row = await signInUser(deps.db, { id: userId });
  if (!row || !row.isActive) return null;
  const user = toAuthUser(row);
  const perms = await permissionsOfRole(deps.db, row.roleId);
  return { user, sessionId: 0, permissions: new Set<Permission>(perms), scope: scopeFor(user), email: row.email };
}

export async function currentTiming(deps: Deps, sessionId: number): Promise<SessionTiming> {
  const [s] = await deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
  return sessionTiming(deps, s.expiresAt.getTime());
}

export async function logout(deps: Deps, sessionId: number) {
  await deps.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

/** Ends every open session of the account, but `except` (the caller's own) when given. */
export async function endSessions(tx: Executor, userId: number, except?: number) {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except === undefined ? undefined : sql`${sessions.id} <> ${except}`,
      ),
    );
}
