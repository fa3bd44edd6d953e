import { isRole } from '@obol/contract';
import { and, eq, isNull, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import type { AuthUser } from '../../platform/http.ts';
import { permissionNames, roleName } from '../roles/repo.ts';
import { users } from './tables.ts';

// What sign-in reads and writes of a user: the password, the authenticator, the last sign-in.

/** A user as sign-in sees it: the whole row, with the name of its role. */
export type SignInUser = typeof users.$inferSelect & { roleName: string };

/** The user with this e-mail (any case) or id, with its role's name; undefined when none or deleted. */
export async function signInUser(
  db: Executor,
  by: { email: string } | { id: number },
): Promise<SignInUser | undefined> {
  const [row] = await db
    .select({
      u: users,
      roleName: roleName(users.roleId),
      // a deactivated merchant takes its brands and team with it: none of them may sign in or use a session
      parentActive: sql<boolean>`coalesce((SELECT p.is_active FROM users p WHERE p.id = "users"."parent_id"), true)`,
    })
    .from(users)
    .where(
      and(
        'email' in by ? eq(users.email, by.email.toLowerCase()) : eq(users.id, by.id),
        // a deleted user cannot sign in, use a session or a password link
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row ? { ...row.u, isActive: row.u.isActive && row.parentActive, roleName: row.roleName } : undefined;
}

/**
 * Who a session or a job acts as: the user, able to act (active, not deleted, its merchant active), with its
 * permissions.
 */
export interface ActingUser extends Omit<AuthUser, 'role'> {
  role: string;
  permissions: string[];
}

/**
 * The user whose id `userId` (a column of another query) holds, as a column of that query: null when the user is
 * deleted or cannot act (inactive, or its merchant is). One column, so a session check is one query.
 */
export const actingUser = (userId: SQLWrapper) =>
  sql<ActingUser | null>`(SELECT json_build_object(
      'id', u.id, 'name', u.name, 'email', u.email, 'role', ${roleName(sql`u.role_id`)}, 'parentId', u.parent_id,
      'twoFaAsOtp', u.two_fa_as_otp, 'permissions', ${permissionNames(sql`u.role_id`)})
    FROM ${users} u
    WHERE u.id = ${userId} AND u.deleted_at IS NULL AND u.is_active
      AND coalesce((SELECT p.is_active FROM ${users} p WHERE p.id = u.parent_id), true))`;

export function toAuthUser(u: SignInUser): AuthUser {
  if (!isRole(u.roleName)) throw new Error(`user ${u.id} has unknown role ${u.roleName}`);
  return { id: u.id, name: u.name, email: u.email, role: u.roleName, parentId: u.parentId, twoFaAsOtp: u.twoFaAsOtp };
}

/** Stores a new password hash; `emailVerifiedAt` when setting it proves the address (a mailed link). */
export async function setPasswordHash(tx: Executor, userId: number, hash: string, emailVerifiedAt?: Date) {
  await tx
    .update(users)
    .set({ passwordHash: hash, ...(emailVerifiedAt ? { emailVerifiedAt } : {}), updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export async function recordLogin(db: Executor, userId: number, at: Date) {
  await db.update(users).set({ lastLogin: at }).where(eq(users.id, userId));
}

/** The user's authenticator secret, encrypted; null when none is set up. */
export async function totpSecretOf(db: Executor, userId: number): Promise<string | null> {
  const [u] = await db.select({ secret: users.totpSecretEnc }).from(users).where(eq(users.id, userId));
  return u?.secret ?? null;
}

/** Accepts an authenticator time step once: true only when it is newer than the last one accepted. */
export async function acceptTotpStep(db: Executor, userId: number, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), sql`${users.totpLastStep} < ${step}`)))
    .returning({ id: users.id });
  return updated.length === 1;
}

// ---- enrolling the authenticator (the profile's 2FA switch) ----

/** Keeps a new authenticator secret pending (encrypted) until `until`; the active secret stays as it is. */
export async function setPendingTotp(db: Executor, userId: number, secretEnc: string, until: Date) {
  await db
    .update(users)
    .set({ totpPendingEnc: secretEnc, totpPendingUntil: until, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/**
 * Makes the pending secret the active one and codes come from the authenticator, in one conditional UPDATE: only
 * while the pending secret is the one the code was checked against and has not expired. `step` (the confirming
 * code's time step) is recorded as used. False when the pending secret changed or expired meanwhile.
 */
export async function activatePendingTotp(db: Executor, userId: number, pendingEnc: string, step: number) {
  const done = await db
    .update(users)
    .set({
      totpSecretEnc: sql`${users.totpPendingEnc}`,
      totpPendingEnc: null,
      totpPendingUntil: null,
      totpLastStep: step,
      twoFaAsOtp: false,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(users.id, userId),
        eq(users.totpPendingEnc, pendingEnc),
        sql`${users.totpPendingUntil} > clock_timestamp()`,
      ),
    )
    .returning({ id: users.id });
  return done.length === 1;
}

/** Codes go by e-mail again; the authenticator secret (active and pending) is forgotten. */
export async function useEmailCodes(db: Executor, userId: number) {
  await db
    .update(users)
    .set({ twoFaAsOtp: true, totpSecretEnc: null, totpPendingEnc: null, totpPendingUntil: null, updatedAt: new Date() })
    .where(eq(users.id, userId));
}
