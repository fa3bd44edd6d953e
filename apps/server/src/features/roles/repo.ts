import { isPermission, type Permission } from '@obol/contract';
import { eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import { permissions, rolePermissions, roles } from './tables.ts';

/**
 * Every change that could leave nobody able to edit roles (a role's permissions, a user's role, status or
 * deletion) runs in a transaction that first takes this lock, makes its change, then checks that someone can still
 * edit roles (users/guard.ts): two such changes at the same moment are serialised, so neither can pass its check on
 * a state the other is about to change.
 */
export async function lockRoleAdministration(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(727275)`);
}

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

/**
 * The permission names the role `roleId` (a column of another query) holds, in the order of the groups, as a
 * column.
 */
export const permissionNames = (roleId: SQLWrapper) =>
  sql<string[]>`(SELECT coalesce(array_agg(${permissions.name} ORDER BY ${permissions.position}), '{}')
    FROM ${rolePermissions} INNER JOIN ${permissions} ON ${permissions.id} = ${rolePermissions.permissionId}
    WHERE ${rolePermissions.roleId} = ${roleId})`;

/** The name of the role `roleId` (a column of another query) refers to, as a column of that query. */
export const roleName = (roleId: SQLWrapper) =>
  sql<string>`(SELECT ${roles.name} FROM ${roles} WHERE ${roles.id} = ${roleId})`;

/** The ids of the roles named, as a subquery (for `inArray(users.roleId, rolesNamed([...]))`). */
export const rolesNamed = (names: readonly string[]) =>
  sql`(SELECT ${roles.id} FROM ${roles} WHERE ${inArray(roles.name, [...names])})`;

/** The ids of the roles that hold `permission`, as a subquery. */
export const rolesHolding = (permission: string) =>
  sql`(SELECT ${rolePermissions.roleId}
    FROM ${rolePermissions} INNER JOIN ${permissions} ON ${permissions.id} = ${rolePermissions.permissionId}
    WHERE ${permissions.name} = ${permission})`;
