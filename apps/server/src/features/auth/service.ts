import {
  isRole,
  MSG,
  type AuthType,
  type CurrentBatch,
  type Permission,
  type SessionTiming,
  type SessionUser,
  type VerifyCodeResponse,
} from '@obol/contract';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { batches } from '../batches/tables.ts';
import { accounts } from '../ledger/tables.ts';
import {
  decryptSecret,
  hashPassword,
  keyedHash,
  randomToken,
  safeEqualHex,
  sha256,
  sixDigitCode,
  verifyPassword,
  verifyTotp,
} from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, tooManyRequests } from '../../platform/errors.ts';
import type { AuthContext, AuthUser } from '../../platform/http.ts';
import { scopeFor } from '../../platform/scope.ts';
import { permissionsOfRole } from '../roles/repo.ts';
import { accountInfoFor } from '../ledger/info.ts';
import { roles } from '../roles/tables.ts';
import { users } from '../users/tables.ts';
import { tally } from '../../platform/limits.ts';
import { backupCodes, oneTimeCodes, sessions } from './tables.ts';
import { beginAttempt } from './throttle.ts';

export const LOGIN_CODE_TTL_MS = 10 * 60_000;
export const RESET_LINK_TTL_MS = 60 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const BACKUP_CODE_COUNT = 10;

type UserRow = typeof users.$inferSelect & { roleName: string };

async function userByEmail(deps: Deps, email: string): Promise<UserRow | undefined> {
  const [row] = await deps.db
    .select({ u: users, roleName: roles.name })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.email, email.toLowerCase()))
    .limit(1);
  return row ? { ...row.u, roleName: row.roleName } : undefined;
}

async function userById(deps: Deps, id: number): Promise<UserRow | undefined> {
  const [row] = await deps.db
    .select({ u: users, roleName: roles.name })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, id))
    .limit(1);
  return row ? { ...row.u, roleName: row.roleName } : undefined;
}

function toAuthUser(u: UserRow): AuthUser {
  if (!isRole(u.roleName)) throw new Error(`user ${u.id} has unknown role ${u.roleName}`);
  return { id: u.id, name: u.name, email: u.email, role: u.roleName, parentId: u.parentId, twoFaAsOtp: u.twoFaAsOtp };
}

// ---------- sign-in ----------

export interface LoginInput {
  email: string;
  password: string;
  auth_type: AuthType;
}

export async function login(
  deps: Deps,
  input: LoginInput,
  ip: string,
  audit: (a: { id: number | null; name?: string; email: string }) => void,
) {
  audit({ id: null, email: input.email });
  // counted before the password is checked, so racing guesses cannot exceed the limits
  const attempt = await beginAttempt(deps, input.email, ip);
  const user = await userByEmail(deps, input.email);
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new ApiError(401, [MSG.invalidCredentials]);
  audit({ id: user.id, name: user.name, email: user.email });
  if (!user.isActive) throw new ApiError(403, ['Your account is inactive. Please contact your administrator.']);
  // the account's attempt stays counted until the second factor completes the sign-in
  await attempt.passed();
  const challenge = randomToken();
  const code = input.auth_type === 'email' ? sixDigitCode() : null;
  await deps.db.insert(oneTimeCodes).values({
    userId: user.id,
    purpose: 'login',
    method: input.auth_type,
    challengeHash: sha256(challenge),
    codeHash: code ? keyedHash(deps.config.secretsKey, code) : null,
    maxAttempts: CODE_MAX_ATTEMPTS,
    expiresAt: new Date(Date.now() + LOGIN_CODE_TTL_MS),
  });
  if (code) {
    await deps.mailer.send({
      to: user.email,
      subject: 'Your Obol sign-in code',
      template: 'login-code',
      text: `Hello ${user.name},\n\nYour Obol sign-in code is ${code}.\nIt is valid for 10 minutes and can be used once.\n\nIf you did not try to sign in, change your password.\n`,
      code,
    });
  }
  const message =
    input.auth_type === 'email'
      ? [MSG.codeSent]
      : input.auth_type === 'authenticator'
        ? ['Enter the code from your authenticator app']
        : ['Enter one of your backup codes'];
  return { challenge_token: challenge, auth_type: input.auth_type, message };
}

/** Checks a second-factor code for the user; on success consumes what must be single-use. */
async function checkSecondFactor(deps: Deps, user: UserRow, method: string, codeHash: string | null, code: string) {
  if (method === 'email') {
    return !!codeHash && /^\d{6}$/.test(code) && safeEqualHex(codeHash, keyedHash(deps.config.secretsKey, code));
  }
  if (method === 'authenticator') {
    if (!user.totpSecretEnc || !/^\d{6}$/.test(code)) return false;
    const step = verifyTotp(decryptSecret(deps.config.secretsKey, user.totpSecretEnc), code);
    if (step === null) return false;
    // single use: the step must be newer than the last accepted one
    const updated = await deps.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), sql`${users.totpLastStep} < ${step}`)))
      .returning({ id: users.id });
    return updated.length === 1;
  }
  if (method === 'backup') {
    const normalized = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
    const used = await deps.db
      .update(backupCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(backupCodes.userId, user.id),
          eq(backupCodes.codeHash, keyedHash(deps.config.secretsKey, normalized)),
          isNull(backupCodes.usedAt),
        ),
      )
      .returning({ id: backupCodes.id });
    return used.length === 1;
  }
  return false;
}

export async function verifyCode(
  deps: Deps,
  input: { challenge_token: string; code: string },
  meta: { ip: string; userAgent?: string },
  audit: (a: { id: number | null; name?: string; email?: string }) => void,
): Promise<VerifyCodeResponse> {
  const [challenge] = await deps.db
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.challengeHash, sha256(input.challenge_token)), eq(oneTimeCodes.purpose, 'login')))
    .limit(1);
  if (!challenge) throw new ApiError(401, [MSG.invalidCode]);
  const user = await userById(deps, challenge.userId);
  if (!user) throw new ApiError(401, [MSG.invalidCode]);
  audit({ id: user.id, name: user.name, email: user.email });
  if (challenge.usedAt || challenge.expiresAt.getTime() <= Date.now()) throw new ApiError(401, [MSG.invalidCode]);
  // a code counts as a sign-in attempt of the account and the address, before it is checked
  const attempt = await beginAttempt(deps, user.email, meta.ip, challenge.id);
  // and a try of this challenge (5 per code), counted first, atomically, so parallel guesses cannot exceed it
  const [tried] = await deps.db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(
      and(
        eq(oneTimeCodes.id, challenge.id),
        isNull(oneTimeCodes.usedAt),
        sql`${oneTimeCodes.attempts} < ${oneTimeCodes.maxAttempts}`,
      ),
    )
    .returning({ attempts: oneTimeCodes.attempts });
  if (!tried) throw tooManyRequests();
  const ok = await checkSecondFactor(deps, user, challenge.method, challenge.codeHash, input.code);
  if (!ok) throw new ApiError(401, [MSG.invalidCode]);
  const consumed = await deps.db
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeCodes.id, challenge.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  if (!consumed.length) throw new ApiError(401, [MSG.invalidCode]);
  if (!user.isActive) throw new ApiError(403, ['Your account is inactive. Please contact your administrator.']);
  await attempt.completed();

  const token = randomToken();
  const now = Date.now();
  const timing = sessionTiming(deps, now, now + deps.config.sessionMaxHours * 3_600_000);
  await deps.db.insert(sessions).values({
    userId: user.id,
    tokenHash: sha256(token),
    idleExpiresAt: new Date(now + deps.config.sessionIdleSeconds * 1000),
    expiresAt: new Date(timing.expires_at),
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300),
  });
  await deps.db
    .update(users)
    .set({ lastLogin: new Date(now) })
    .where(eq(users.id, user.id));
  const authUser = toAuthUser(user);
  return {
    accessToken: token,
    user: await sessionUser(deps, authUser),
    permission: await permissionsOfRole(deps.db, user.roleId),
    account: await accountInfoFor(deps.db, scopeFor(authUser)),
    batch: await currentBatchOf(deps, user.id),
    session: timing,
    message: [MSG.loggedIn],
  };
}

/**
 * The batch the user was working on: the newest one they uploaded that is staged and awaiting review
 * (Pending) or still being staged (Processing, not executed), so a new sign-in resumes it.
 */
async function currentBatchOf(deps: Deps, userId: number): Promise<CurrentBatch | null> {
  const [b] = await deps.db
    .select({
      batchId: batches.batchId,
      fileName: batches.fileName,
      status: batches.status,
      behalf: users.name,
      ref: accounts.accountReference,
    })
    .from(batches)
    .innerJoin(users, eq(users.id, batches.behalfOfId))
    .innerJoin(accounts, eq(accounts.id, batches.accountId))
    .where(
      and(
        eq(batches.uploadedBy, userId),
        eq(batches.payoutType, 'Batch Payout'),
        or(eq(batches.status, 'Pending'), and(eq(batches.status, 'Processing'), isNull(batches.executedAt))),
      ),
    )
    .orderBy(desc(batches.createdAt))
    .limit(1);
  return b
    ? {
        batch_id: b.batchId,
        merchant_name: b.behalf,
        file_name: b.fileName,
        account_reference: b.ref,
        batch_status: b.status,
      }
    : null;
}

function sessionTiming(deps: Deps, _now: number, expiresAt: number): SessionTiming {
  return { idle_timeout_seconds: deps.config.sessionIdleSeconds, expires_at: new Date(expiresAt).toISOString() };
}

export async function sessionUser(deps: Deps, u: AuthUser): Promise<SessionUser> {
  let parent: SessionUser['parent'] = null;
  if (u.parentId !== null) {
    const [p] = await deps.db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, u.parentId));
    if (p) parent = p;
  }
  return { id: u.id, name: u.name, email: u.email, role: u.role, parent, two_fa_as_otp: u.twoFaAsOtp };
}

// ---------- sessions ----------

/** Resolves a bearer token to the caller, extending the idle expiry. Null when missing, expired or revoked. */
export async function authenticate(deps: Deps, token: string): Promise<AuthContext | null> {
  if (!token || token.length > 200) return null;
  const now = new Date();
  const [row] = await deps.db
    .select({ s: sessions, u: users, roleName: roles.name })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        eq(sessions.tokenHash, sha256(token)),
        isNull(sessions.revokedAt),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row || !row.u.isActive) return null;
  // extend the idle expiry, at most every 5 seconds per session to spare writes
  if (now.getTime() - row.s.lastSeenAt.getTime() > 5_000) {
    const idle = new Date(Math.min(now.getTime() + deps.config.sessionIdleSeconds * 1000, row.s.expiresAt.getTime()));
    await deps.db.update(sessions).set({ lastSeenAt: now, idleExpiresAt: idle }).where(eq(sessions.id, row.s.id));
  }
  const user = toAuthUser({ ...row.u, roleName: row.roleName });
  const perms = await permissionsOfRole(deps.db, row.u.roleId);
  return { user, sessionId: row.s.id, permissions: new Set<Permission>(perms), scope: scopeFor(user) };
}

export async function currentTiming(deps: Deps, sessionId: number): Promise<SessionTiming> {
  const [s] = await deps.db.select().from(sessions).where(eq(sessions.id, sessionId));
  return sessionTiming(deps, Date.now(), s.expiresAt.getTime());
}

export async function logout(deps: Deps, sessionId: number) {
  await deps.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
}

// ---------- passwords ----------

/**
 * Mails a link to set a new password. The caller answers the same whatever happens here: no account, an
 * inactive one, or a request over the limits (per address, then per e-mail asked for), which sends nothing.
 * Returns what happened, for the activity log.
 */
export async function forgotPassword(deps: Deps, email: string, ip: string): Promise<'sent' | 'throttled' | 'none'> {
  if (!(await tally(deps, 'resetAddress', ip)).allowed) return 'throttled';
  if (!(await tally(deps, 'resetAccount', email)).allowed) return 'throttled';
  const user = await userByEmail(deps, email);
  if (!user || !user.isActive) return 'none';
  const token = randomToken();
  await deps.db.insert(oneTimeCodes).values({
    userId: user.id,
    purpose: 'password_reset',
    method: 'link',
    codeHash: keyedHash(deps.config.secretsKey, token),
    maxAttempts: 1,
    expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
  });
  const link = `${deps.config.publicUrl}/new-password/${encodeURIComponent(token)}/${encodeURIComponent(user.email)}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Set a new Obol password',
    template: 'password-reset',
    text: `Hello ${user.name},\n\nSet a new password for Obol here (valid for 60 minutes, usable once):\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
  });
  return 'sent';
}

async function findResetLink(deps: Deps, token: string, email: string) {
  const user = await userByEmail(deps, email);
  if (!user) return null;
  const [row] = await deps.db
    .select()
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.userId, user.id),
        eq(oneTimeCodes.purpose, 'password_reset'),
        eq(oneTimeCodes.codeHash, keyedHash(deps.config.secretsKey, token)),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ? { user, row } : null;
}

export async function checkLink(deps: Deps, token: string, email: string) {
  if (!(await findResetLink(deps, token, email))) throw badRequest(MSG.linkExpired, 'token');
}

export async function setPassword(deps: Deps, input: { token: string; email: string; password: string }) {
  const found = await findResetLink(deps, input.token, input.email);
  if (!found) throw badRequest(MSG.linkExpired, 'token');
  const hash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    const used = await tx
      .update(oneTimeCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(oneTimeCodes.id, found.row.id), isNull(oneTimeCodes.usedAt)))
      .returning({ id: oneTimeCodes.id });
    if (!used.length) throw badRequest(MSG.linkExpired, 'token');
    await voidResetLinks(tx, found.user.id);
    await tx
      .update(users)
      .set({ passwordHash: hash, emailVerifiedAt: found.user.emailVerifiedAt ?? new Date(), updatedAt: new Date() })
      .where(eq(users.id, found.user.id));
    // a new password ends every open session of the account
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, found.user.id), isNull(sessions.revokedAt)));
  });
  return found.user;
}

/** A new password voids every reset link of the account still outstanding: an older mail must not undo it. */
async function voidResetLinks(tx: Executor, userId: number) {
  await tx
    .update(oneTimeCodes)
    .set({ usedAt: new Date() })
    .where(
      and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, 'password_reset'), isNull(oneTimeCodes.usedAt)),
    );
}

export async function changePassword(
  deps: Deps,
  auth: AuthContext,
  input: { current_password: string; password: string },
  ip: string,
) {
  const user = await confirmPassword(deps, auth, input.current_password, ip, 'current_password');
  if (input.current_password === input.password) {
    throw badRequest('The new password must differ from the current one', 'password');
  }
  const hash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash: hash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await voidResetLinks(tx, user.id);
    // other sessions of the account end; this one stays
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), sql`${sessions.id} <> ${auth.sessionId}`));
  });
}

/**
 * Checks the signed-in user's own password (to change it, or to get new backup codes). It goes through the
 * account's and the address's sign-in counters, so a session cannot be used to guess the password: wrong is
 * 400 'Incorrect Password.' on `field`, too many tries 429.
 */
export async function confirmPassword(deps: Deps, auth: AuthContext, password: string, ip: string, field: string) {
  const user = await userById(deps, auth.user.id);
  if (!user) throw badRequest(MSG.incorrectPassword, field);
  const attempt = await beginAttempt(deps, user.email, ip);
  if (!(await verifyPassword(user.passwordHash, password))) throw badRequest(MSG.incorrectPassword, field);
  await attempt.completed();
  return user;
}

/** Replaces the caller's backup codes with a new set and returns them once, in plain text. */
export async function newBackupCodes(deps: Deps, userId: number): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => {
    const raw = randomToken(8)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .padEnd(10, 'X')
      .slice(0, 10);
    return raw;
  });
  await deps.db.transaction(async (tx) => {
    await tx.delete(backupCodes).where(and(eq(backupCodes.userId, userId), isNull(backupCodes.usedAt)));
    await tx.insert(backupCodes).values(codes.map((c) => ({ userId, codeHash: keyedHash(deps.config.secretsKey, c) })));
  });
  return codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`);
}
