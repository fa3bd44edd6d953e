import { MSG, ROLE_MESSAGES, roleScreens, rolesOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { permissionsOfRoleNamed, replaceRolePermissions, type EditorCheck } from './service.ts';

/**
 * The users holding each role are listed by users/routes.ts; `editorCheck` comes from users (a feature above roles),
 * handed in by the app.
 */
export function rolesRoutes(app: FastifyInstance, deps: Deps, editorCheck: EditorCheck) {
  route(app, rolesOps.roleAgainstUsers, async ({ input }) => {
    const held = await permissionsOfRoleNamed(deps.db, input.role);
    return { name: input.role, data: roleScreens(held) };
  });

  route(app, rolesOps.updatePermission, async ({ input, auth, req }) => {
    req.audit.targetType = 'role';
    req.audit.targetId = input.role_name;
    // roles are shared by every merchant: only staff change them
    if (auth.scope.kind !== 'all') throw forbidden(ROLE_MESSAGES.staffOnly);
    const { before, after } = await replaceRolePermissions(
      deps.db,
      input.role_name,
      input.permission_name,
      editorCheck,
    );
    req.audit.before = { permissions: before };
    req.audit.after = { permissions: after };
    return { message: [MSG.roleUpdated], name: input.role_name, data: roleScreens(after) };
  });
}
