import { MSG, usersOps } from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { assertSomeoneCanEditRoles, lockRoleAdministration } from './guard.ts';
import { findUserInScope, listUsers, userScopeFilter } from './repo.ts';
import { users } from './tables.ts';

export function usersRoutes(app: FastifyInstance, deps: Deps) {
  route(app, usersOps.users, async ({ input, auth }) => {
    if (auth.scope.kind === 'brand' || auth.scope.kind === 'none') throw forbidden();
    const role = input.roles === '' || input.roles === 'All Roles' ? null : input.roles;
    return listUsers(deps.db, auth.scope, { page: input.page, perPage: input.per_page, search: input.search, role });
  });

  route(app, usersOps.getUserDetail, async ({ input, auth }) => {
    // ids are 32-bit in the database: a larger one is a user that does not exist, not a database error
    const user = input.id <= 2_147_483_647 ? await findUserInScope(deps.db, auth.scope, input.id) : undefined;
    if (!user) throw notFound('User not found');
    return { user };
  });

  // w-roles placeholder: replaced by w-users at merge
  route(app, usersOps.deleteUser, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = input.id;
    if (input.id === auth.user.id) throw unprocessable('You cannot delete yourself');
    const before = input.id <= 2_147_483_647 ? await findUserInScope(deps.db, auth.scope, input.id) : undefined;
    if (!before) throw notFound('User not found');
    try {
      await deps.db.transaction(async (tx) => {
        await lockRoleAdministration(tx);
        const gone = await tx
          .delete(users)
          .where(and(userScopeFilter(auth.scope), eq(users.id, input.id)))
          .returning({ id: users.id });
        if (!gone.length) throw notFound('User not found');
        await assertSomeoneCanEditRoles(tx);
      });
    } catch (err) {
      if (
        (err as { code?: string; cause?: { code?: string } }).code === '23503' ||
        (err as { cause?: { code?: string } }).cause?.code === '23503'
      )
        throw conflict('The user has a history and cannot be deleted');
      throw err;
    }
    req.audit.before = before;
    req.audit.after = null;
    return { message: [MSG.userDeleted] };
  });
}
