import { usersOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { findUserInScope, listUsers } from './repo.ts';

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
}
