import {
  INT4_MAX,
  MERCHANT_SIDE_ROLES,
  STAFF_ASSIGNABLE_ROLES,
  USERS_MSG,
  manageableRoles,
  type RoleName,
} from '@obol/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { isUniqueViolation, type Executor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, forbidden, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { lockRoleAdministration, roleName, rolesNamed } from '../roles/repo.ts';
import { assertSomeoneCanEditRoles } from './guard.ts';
import { userScopeFilter } from './repo.ts';
import { users } from './tables.ts';

// Changing users (role, status, deletion, invitation mails) from the Users screen. Who may touch whom:
// staff everyone in their scope (only an Admin an Admin), a merchant's side its own team; nobody themselves.

/**
 * What a change of users does to signing in (auth's sessions and links). Auth sits above users (it reads their
 * credentials), so the app hands these in.
 */
export interface SignInHooks {
  /** ends every open session of the user, in the caller's transaction */
  endSessions: (tx: Executor, userId: number) => Promise<void>;
  /** a new invitation link for the user, in the caller's transaction: the mail to send once it commits */
  newInvitation: (
    tx: Executor,
    deps: Pick<Deps, 'config'>,
    user: { id: number; name: string; email: string },
    invitedBy: string,
  ) => Promise<MailMessage>;
}

/** A user as the activity log records it before and after a change. */
export interface UserState {
  id: number;
  name: string;
  email: string;
  role: RoleName;
  parent_id: number | null;
  is_active: boolean;
  verified: boolean;
  deleted: boolean;
}

const stateColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: roleName(users.roleId),
  parentId: users.parentId,
  isActive: users.isActive,
  emailVerifiedAt: users.emailVerifiedAt,
  deletedAt: users.deletedAt,
};
interface StateRow {
  id: number;
  name: string;
  email: string;
  role: string;
  parentId: number | null;
  isActive: boolean;
  emailVerifiedAt: Date | null;
  deletedAt: Date | null;
}

const toState = (r: StateRow): UserState => ({
  id: r.id,
  name: r.name,
  email: r.email,
  role: r.role as RoleName,
  parent_id: r.parentId,
  is_active: r.isActive,
  verified: r.emailVerifiedAt !== null,
  deleted: r.deletedAt !== null,
});

export interface Change {
  before: UserState;
  after: UserState;
}

/**
 * The user `id` in the caller's scope, locked for the rest of the transaction; 404 for none (another tenant's
 * user included), 422 for the caller themselves, 403 for an Admin when the caller is not one.
 */
async function lockTarget(tx: Tx, auth: AuthContext, id: number): Promise<UserState> {
  if (id > INT4_MAX) throw notFound(USERS_MSG.userNotFound);
  const [row] = await tx
    .select(stateColumns)
    .from(users)
    .where(and(eq(users.id, id), userScopeFilter(auth.scope)))
    .for('update');
  if (!row) throw notFound(USERS_MSG.userNotFound);
  if (row.id === auth.user.id) throw unprocessable(USERS_MSG.notSelf);
  if (row.role === 'Admin' && auth.user.role !== 'Admin') throw forbidden(USERS_MSG.onlyAdminTouchesAdmin);
  return toState(row);
}

/** The conditional write of a locked user: still in scope and not deleted, or nothing. */
async function updateUser(tx: Tx, auth: AuthContext, id: number, set: PgUpdateSetSource<typeof users>) {
  const [row] = await tx
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(users.id, id), userScopeFilter(auth.scope)))
    .returning(stateColumns);
  if (!row) throw notFound(USERS_MSG.userNotFound);
  return toState(row);
}

/** Runs a change of role, status or deletion under the role-administration lock and its final check. */
function roleAdministration(deps: Deps, change: (tx: Tx) => Promise<Change>): Promise<Change> {
  return deps.db.transaction(async (tx) => {
    await lockRoleAdministration(tx);
    const done = await change(tx);
    await assertSomeoneCanEditRoles(tx);
    return done;
  });
}

/** Activates or deactivates a verified user; deactivation ends the user's sessions in the same transaction. */
export function changeStatus(
  deps: Deps,
  auth: AuthContext,
  id: number,
  active: boolean,
  signIn: SignInHooks,
): Promise<Change> {
  return roleAdministration(deps, async (tx) => {
    const before = await lockTarget(tx, auth, id);
    if (!before.verified) throw unprocessable(USERS_MSG.notVerified);
    const after = await updateUser(tx, auth, id, { isActive: active });
    if (!active) await signIn.endSessions(tx, id);
    return { before, after };
  });
}

/** Moves a user to another role of its own set (section 6): merchant-side stays merchant-side, staff stays staff. */
export function updateRole(deps: Deps, auth: AuthContext, id: number, role: RoleName): Promise<Change> {
  return roleAdministration(deps, async (tx) => {
    const before = await lockTarget(tx, auth, id);
    const changeable =
      before.role === 'Admin' || [...MERCHANT_SIDE_ROLES, ...STAFF_ASSIGNABLE_ROLES].includes(before.role);
    if (!changeable) throw unprocessable(USERS_MSG.roleNotChangeable);
    if (!manageableRoles(before.role).includes(role)) throw unprocessable(USERS_MSG.roleNotAllowed, 'role_name');
    const after = await updateUser(tx, auth, id, { roleId: sql`${rolesNamed([role])}` });
    return { before, after };
  });
}

/**
 * Deletes a user softly (docs/decisions/002-users-administration.md): the row stays for the batches, ledger and
 * activity records that name it; deleted_at hides it from every list and from sign-in, its sessions end, and its
 * e-mail may be invited again. A merchant with users or brands left is refused.
 */
export function deleteUser(deps: Deps, auth: AuthContext, id: number, signIn: SignInHooks): Promise<Change> {
  return roleAdministration(deps, async (tx) => {
    const before = await lockTarget(tx, auth, id);
    const [child] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.parentId, id), isNull(users.deletedAt)))
      .limit(1);
    if (child) throw unprocessable(USERS_MSG.hasUsers);
    const after = await updateUser(tx, auth, id, { deletedAt: new Date(), isActive: false });
    await signIn.endSessions(tx, id);
    return { before, after };
  });
}

/**
 * A new invitation mail for a user not yet verified (else 422); the new link voids the old. The mail goes out
 * after the commit.
 */
export async function resendInvitation(
  deps: Deps,
  auth: AuthContext,
  id: number,
  signIn: SignInHooks,
): Promise<UserState> {
  const { user, mail } = await deps.db.transaction(async (tx) => {
    const user = await lockTarget(tx, auth, id);
    if (user.verified) throw unprocessable(USERS_MSG.alreadyVerified);
    return { user, mail: await signIn.newInvitation(tx, deps, user, auth.user.name) };
  });
  await deps.mailer.send(mail);
  return user;
}

/** Where an invited user belongs: its merchant (merchant-side roles) or nobody (staff). */
async function parentFor(
  deps: Deps,
  auth: AuthContext,
  role: RoleName,
  parentId: number | null | undefined,
): Promise<number | null> {
  const merchantSide = MERCHANT_SIDE_ROLES.includes(role);
  if (auth.scope.kind === 'merchant') {
    if (!merchantSide) throw unprocessable(USERS_MSG.roleNotAllowed, 'rolename');
    // a merchant's side invites into its own team; another merchant is not there to be named
    if (parentId != null && parentId !== auth.scope.merchantId) throw notFound(USERS_MSG.parentNotMerchant);
    return auth.scope.merchantId;
  }
  if (auth.scope.kind !== 'all') throw forbidden();
  if (STAFF_ASSIGNABLE_ROLES.includes(role)) {
    if (parentId != null)
      throw new ApiError(400, [USERS_MSG.parentNotAllowed], { parent_id: [USERS_MSG.parentNotAllowed] });
    return null;
  }
  if (!merchantSide) throw unprocessable(USERS_MSG.roleNotAllowed, 'rolename');
  if (parentId == null) throw new ApiError(400, [USERS_MSG.parentRequired], { parent_id: [USERS_MSG.parentRequired] });
  const [merchant] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, parentId), isNull(users.deletedAt), sql`${users.roleId} IN ${rolesNamed(['Merchant'])}`));
  if (!merchant) throw new ApiError(400, [USERS_MSG.parentNotMerchant], { parent_id: [USERS_MSG.parentNotMerchant] });
  return merchant.id;
}

export interface Invitation {
  name: string;
  email: string;
  role: RoleName;
  parentId?: number | null;
}

/**
 * Creates the invited user (not verified, no password) and its invitation link in one transaction, then mails
 * the link. An e-mail that belongs to a user (not deleted) is refused by the database's unique index: 409 on
 * `email`. Answers the new user and whether the mail went out.
 */
export async function inviteUser(
  deps: Deps,
  auth: AuthContext,
  inv: Invitation,
  signIn: SignInHooks,
): Promise<{ user: UserState; mailed: boolean }> {
  const parentId = await parentFor(deps, auth, inv.role, inv.parentId);
  let created: { user: UserState; mail: MailMessage };
  try {
    created = await deps.db.transaction(async (tx) => {
      // the merchant is held (FOR SHARE) until the new user is in: a deletion of it at the same moment either
      // waits and then sees this user (refused: it has users), or goes first and this invitation finds no merchant
      if (parentId !== null) {
        const [held] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, parentId), isNull(users.deletedAt)))
          .for('share');
        if (!held) throw new ApiError(400, [USERS_MSG.parentNotMerchant], { parent_id: [USERS_MSG.parentNotMerchant] });
      }
      const [row] = await tx
        .insert(users)
        .values({
          name: inv.name,
          email: inv.email,
          roleId: sql`${rolesNamed([inv.role])}`,
          parentId,
        })
        .returning(stateColumns);
      const user = toState(row);
      return { user, mail: await signIn.newInvitation(tx, deps, user, auth.user.name) };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_key'))
      throw new ApiError(409, [USERS_MSG.emailTaken], { email: [USERS_MSG.emailTaken] });
    throw err;
  }
  try {
    await deps.mailer.send(created.mail);
    return { user: created.user, mailed: true };
  } catch (err) {
    deps.log.error({ err, userId: created.user.id }, 'invitation mail not sent');
    return { user: created.user, mailed: false };
  }
}
