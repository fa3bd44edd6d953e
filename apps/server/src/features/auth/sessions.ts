import { isPermission, isRole, type SessionTiming } from '@obol/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import { pgDialect, type Executor } from '../../platform/db.ts';
import { preparedStatement } from '../../platform/statements.ts';
import type { Deps } from '../../platform/deps.ts';
import type { AuthContext, AuthUser } from '../../platform/http.ts';
import { scopeFor } from '../../platform/scope.ts';
import { actingUser, type ActingUser } from '../users/credentials.ts';
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

/**
 * The session check of every request, one statement: the live session by its token's hash ($1) at the time $2,
 * its user able to act and the role's permissions. Prepared (planned once per connection): see preparedStatement.
 */
const sessionCheck = preparedStatement<{
  id: number | string;
  // Dates from node-postgres, texts from PGlite (pglite-client.ts, AS_TEXT)
  last_seen_at: Date | string;
  expires_at: Date | string;
  acting: ActingUser | null;
}>(
  'obol_session_check',
  ['text', 'timestamptz'],
  pgDialect.sqlToQuery(sql`SELECT ${sessions.id}, ${sessions.lastSeenAt}, ${sessions.expiresAt},
      ${actingUser(sessions.userId)} AS acting
    FROM ${sessions}
    WHERE ${sessions.tokenHash} = $1 AND ${sessions.revokedAt} IS NULL AND ${sessions.idleExpiresAt} > $2
      AND ${sessions.expiresAt} > $2
    LIMIT 1`).sql,
);

/** The key a bearer token is known by: its hash, as the sessions table keeps it. */
export const tokenKey = (token: string) => sha256(token);

/**
 * Resolves a bearer token, by its key (tokenKey), to the caller, extending the idle expiry. Null when unknown,
 * expired or revoked.
 */
export async function authenticateKey(deps: Deps, key: string): Promise<AuthContext | null> {
  const now = new Date();
  // one query per request: the live session, its user able to act and the role's permissions (issue 21)
  const [session] = await sessionCheck(deps.database, [key, now.toISOString()]);
  if (!session?.acting) return null;
  const id = Number(session.id);
  const expiresAt = new Date(session.expires_at).getTime();
  // extend the idle expiry, at most every 5 seconds per session to spare writes
  if (now.getTime() - new Date(session.last_seen_at).getTime() > 5_000) {
    const idle = new Date(Math.min(now.getTime() + deps.config.sessionIdleSeconds * 1000, expiresAt));
    await deps.db.update(sessions).set({ lastSeenAt: now, idleExpiresAt: idle }).where(eq(sessions.id, id));
  }
  return { ...contextOf(session.acting), sessionId: id, sessionExpiresAt: expiresAt };
}

function contextOf(acting: ActingUser): Omit<AuthContext, 'sessionId' | 'sessionExpiresAt'> {
  if (!isRole(acting.role)) throw new Error(`user ${acting.id} has unknown role ${acting.role}`);
  const user: AuthUser = {
    id: acting.id,
    name: acting.name,
    email: acting.email,
    role: acting.role,
    parentId: acting.parentId,
    twoFaAsOtp: acting.twoFaAsOtp,
  };
  return { user, permissions: new Set(acting.permissions.filter(isPermission)), scope: scopeFor(user) };
}

/**
 * A user's authority for work done on their behalf without a session (a scheduled report): their role's permissions
 * and scope as they are now; null when the account is gone or inactive.
 */
export async function authContextOf(deps: Deps, userId: number): Promise<(AuthContext & { email: string }) | null> {
  const [row] = await deps.db.select({ user: actingUser(sql`${userId}::int`) }).from(sql`(SELECT 1) AS one`);
  if (!row?.user) return null;
  return { ...contextOf(row.user), sessionId: 0, sessionExpiresAt: 0, email: row.user.email };
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

/** Whether a session still holds (not signed out, not idle or past its end): a long-lived stream asks now and then. */
export async function sessionHolds(db: Executor, sessionId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sessionId),
        isNull(sessions.revokedAt),
        sql`${sessions.idleExpiresAt} > now()`,
        sql`${sessions.expiresAt} > now()`,
      ),
    );
  return !!row;
}
