import { isPermission, type Permission } from '@obol/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import { permissions, rolePermissions } from './tables.ts';

/** The permission names a role holds, in the order of the groups. */
export async function permissionsOfRole(db: Executor, roleId: number): Promise<Permission[]> {
  const rows = await db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(rolePermissions.roleId, roleId))
    .orderBy(permissions.position);
  return rows.map((r) => r.name).filter(isPermission);
}
