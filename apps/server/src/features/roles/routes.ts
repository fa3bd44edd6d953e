import { MSG, ROLE_MESSAGES, ROLES, roleScreens, rolesOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { countUsersByRole, usersWithRole } from '../users/by-role.ts';
import { permissionsOfRoleNamed, replaceRolePermissions } from './service.ts';

export function rolesRoutes(app: FastifyInstance, deps: Deps) {
  route(app, rolesOps.userWithCount, async ({ auth }) => {
    const counts = await countUsersByRole(deps.db, auth.scope);
    return { data: ROLES.map((name) => ({ name, count: counts.get(name) ?? 0 })) };
  });

  route(app, rolesOps.roleAgainstUsers, async ({ input }) => {
    const held = await permissionsOfRoleNamed(deps.db, input.role);
    return { name: input.role, data: roleScreens(held) };
  });

  route(app, rolesOps.userRoles, async ({ input, auth }) => {
    const page = await usersWithRole(deps.db, auth.scope, input.role, { page: input.page, perPage: input.per_page });
    return { total: page.total, data: [{ name: input.role, users: page.users }] };
  });

  route(app, rolesOps.updatePermission, async ({ input, auth, req }) => {
    req.audit.targetType = 'role';
    req.audit.targetId = input.role_name;
    // roles are shared by every merchant: only staff change them
    if (auth.scope.kind !== 'all') throw forbidden(ROLE_MESSAGES.staffOnly);
    const { before, after } = await replaceRolePermissions(deps.db, input.role_name, input.permission_name);
    req.audit.before = { permissions: before };
    req.audit.after = { permissions: after };
    return { message: [MSG.roleUpdated], name: input.role_name, data: roleScreens(after) };
  });
}
