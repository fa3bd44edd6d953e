import { isPermission, type Permission } from '@obol/contract';
import { eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import { permissions, rolePermissions, roles } from './tables.ts';

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

/** The permission names the role `roleId` (a column of another query) holds, in the order of the groups, as a column. */
export const permissionNames = (roleId: SQLWrapper) =>
  sql<
    string[]
  >`(SELECT coalesce(array_agg(${permissions.name} ORDER BY ${permissions.position}), '{}') FROM ${rolePermissions} INNER JOIN ${permissions} ON ${permissions.id} = ${rolePermissions.permissionId} WHERE ${rolePermissions.roleId} = ${roleId})`;

/** The name of the role `roleId` (a column of another query) refers to, as a column of that query. */
export const roleName = (roleId: SQLWrapper) =>
  sql<string>`(SELECT ${roles.name} FROM ${roles} WHERE ${roles.id} = ${roleId})`;

/** The ids of the roles named, as a subquery (for `inArray(users.roleId, rolesNamed([...]))`). */
export const rolesNamed = (names: readonly string[]) =>
  sql`(SELECT ${roles.id} FROM ${roles} WHERE ${inArray(roles.name, [...names])})`;

/** The ids of the roles that hold `permission`, as a subquery. */
export const rolesHolding = (permission: string) =>
  sql`(SELECT ${rolePermissions.roleId} FROM ${rolePermissions} INNER JOIN ${permissions} ON ${permissions.id} = ${rolePermissions.permissionId} WHERE ${permissions.name} = ${permission})`;
