import { BRAND_NEVER, ROLE_EDITOR_PERMISSION, ROLE_MESSAGES, type Permission, type RoleName } from '@obol/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import { lockRoleAdministration, permissionsOfRole } from './repo.ts';
import { permissions, rolePermissions, roles } from './tables.ts';

/** The id of a role by its name; a 404 when the role is not in the database. */
async function roleIdOf(db: Pick<Db, 'select'>, name: RoleName): Promise<number> {
  const [r] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  if (!r) throw notFound('Role not found');
  return r.id;
}

/** The permissions a role holds, in the order of the groups. */
export async function permissionsOfRoleNamed(db: Db, name: RoleName): Promise<Permission[]> {
  return permissionsOfRole(db, await roleIdOf(db, name));
}

/** The check that someone can still edit roles (users/guard.ts: users sit above roles, so the app hands it in). */
export type EditorCheck = (tx: Tx) => Promise<void>;

/**
 * Replaces the permissions of a role with `wanted` (already checked against the editor rule by the contract).
 * Refuses (422) a Brand given what a Brand never holds and an Admin role without the role editor permission;
 * then, in one transaction under the role-administration lock, replaces the rows and checks that someone can
 * still edit roles (422 and nothing changed when nobody could). Two edits at the same moment run one after the
 * other, so a role never ends up with a mix of both.
 */
export async function replaceRolePermissions(
  db: Db,
  role: RoleName,
  wanted: readonly Permission[],
  assertSomeoneCanEditRoles: EditorCheck,
): Promise<{ before: Permission[]; after: Permission[] }> {
  if (role === 'Admin' && !wanted.includes(ROLE_EDITOR_PERMISSION))
    throw unprocessable(ROLE_MESSAGES.adminKeepsEditor, 'permission_name');
  const barred = role === 'Brand' ? wanted.find((p) => BRAND_NEVER.includes(p)) : undefined;
  if (barred) throw unprocessable(ROLE_MESSAGES.brandNever(barred), 'permission_name');

  return db.transaction(async (tx) => {
    await lockRoleAdministration(tx);
    const roleId = await roleIdOf(tx, role);
    const before = await permissionsOfRole(tx, roleId);
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    if (wanted.length) {
      const ids = await tx
        .select({ id: permissions.id })
        .from(permissions)
        .where(inArray(permissions.name, [...wanted]));
      if (ids.length !== wanted.length) throw new Error('a permission of the contract is missing in the database');
      await tx.insert(rolePermissions).values(ids.map((p) => ({ roleId, permissionId: p.id })));
    }
    await assertSomeoneCanEditRoles(tx);
    const after = await permissionsOfRole(tx, roleId);
    return { before, after };
  });
}
