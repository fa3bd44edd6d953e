import {
  MERCHANT_SIDE_ROLES,
  ROLES,
  STAFF_ASSIGNABLE_ROLES,
  USERS_MSG,
  isActiveStatus,
  rolesOps,
  usersOps,
} from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import {
  changeStatus,
  deleteUser,
  inviteUser,
  resendInvitation,
  updateRole,
  type Change,
  type SignInHooks,
} from './admin.ts';
import { countUsersByRole, usersWithRole } from './by-role.ts';
import { findUserInScope, listUsers, merchantsInScope } from './repo.ts';

/** The activity record of a change: the user, before and after. */
function audited(req: FastifyRequest, change: Change) {
  req.audit.targetType = 'user';
  req.audit.targetId = change.after.id;
  req.audit.before = change.before;
  req.audit.after = change.after;
}

/** `signIn` comes from auth (a feature above users), handed in by the app. */
export function usersRoutes(app: FastifyInstance, deps: Deps, signIn: SignInHooks) {
  route(app, usersOps.users, async ({ input, auth }) => {
    if (auth.scope.kind === 'brand' || auth.scope.kind === 'none') throw forbidden();
    const role = input.roles === '' || input.roles === 'All Roles' ? null : input.roles;
    return listUsers(deps.db, auth.scope, { page: input.page, perPage: input.per_page, search: input.search, role });
  });

  route(app, usersOps.getUserDetail, async ({ input, auth }) => {
    // ids are 32-bit in the database: a larger one is a user that does not exist, not a database error
    const user = input.id <= 2_147_483_647 ? await findUserInScope(deps.db, auth.scope, input.id) : undefined;
    if (!user) throw notFound(USERS_MSG.userNotFound);
    return { user };
  });

  route(app, usersOps.inviteUser, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    await throttle(deps, 'invite', auth.user.id);
    const { user, mailed } = await inviteUser(
      deps,
      auth,
      {
        name: input.name,
        email: input.email,
        role: input.rolename,
        parentId: input.parent_id,
      },
      signIn,
    );
    req.audit.targetId = user.id;
    req.audit.before = null;
    req.audit.after = user;
    if (!mailed) req.audit.detail = 'invitation mail not sent';
    return {
      message: [mailed ? USERS_MSG.invited : USERS_MSG.invitedMailFailed],
      id: user.id,
    };
  });

  route(app, usersOps.changeUserStatus, async ({ input, auth, req }) => {
    audited(req, await changeStatus(deps, auth, input.id, isActiveStatus(input.status), signIn));
    return { message: [USERS_MSG.statusUpdated] };
  });

  route(app, usersOps.updateRole, async ({ input, auth, req }) => {
    audited(req, await updateRole(deps, auth, input.id, input.role_name));
    return { message: [USERS_MSG.userUpdated] };
  });

  route(app, usersOps.deleteUser, async ({ input, auth, req }) => {
    audited(req, await deleteUser(deps, auth, input.id, signIn));
    return { message: [USERS_MSG.userDeleted] };
  });

  route(app, usersOps.resendInvitation, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = input.id;
    // only for a user the caller may touch; then at most a few mails per invited user an hour
    const seen = input.id <= 2_147_483_647 ? await findUserInScope(deps.db, auth.scope, input.id) : undefined;
    if (!seen) throw notFound(USERS_MSG.userNotFound);
    await throttle(deps, 'resendInvitation', input.id);
    const user = await resendInvitation(deps, auth, input.id, signIn);
    // the user is unchanged; the new link replaced the old one
    req.audit.before = { ...user, invitation: 'previous link' };
    req.audit.after = { ...user, invitation: 'new link mailed' };
    return { message: [USERS_MSG.invitationResent] };
  });

  route(app, usersOps.allUserRoles, async ({ auth }) => {
    if (auth.scope.kind === 'merchant') return { roles: [...MERCHANT_SIDE_ROLES] };
    if (auth.scope.kind === 'all') return { roles: [...STAFF_ASSIGNABLE_ROLES, ...MERCHANT_SIDE_ROLES] };
    throw forbidden();
  });

  route(app, usersOps.allMerchants, async ({ auth }) => {
    if (auth.scope.kind !== 'all' && auth.scope.kind !== 'merchant') throw forbidden();
    return { data: await merchantsInScope(deps.db, auth.scope) };
  });

  // the Roles screen's counts and lists of the users holding a role (read here: users sit above roles)
  route(app, rolesOps.userWithCount, async ({ auth }) => {
    const counts = await countUsersByRole(deps.db, auth.scope);
    return { data: ROLES.map((name) => ({ name, count: counts.get(name) ?? 0 })) };
  });

  route(app, rolesOps.userRoles, async ({ input, auth }) => {
    const page = await usersWithRole(deps.db, auth.scope, input.role, { page: input.page, perPage: input.per_page });
    return { total: page.total, data: [{ name: input.role, users: page.users }] };
  });
}
