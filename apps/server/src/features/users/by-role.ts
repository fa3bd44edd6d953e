import type { RoleName, RoleUser } from '@obol/contract';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { roleName, rolesNamed } from '../roles/repo.ts';
import { userScopeFilter, usersPage } from './repo.ts';
import { users } from './tables.ts';

const merchant = alias(users, 'merchant');

/** How many users of the caller's scope hold each role (roles nobody holds are absent). */
export async function countUsersByRole(db: Executor, scope: Scope): Promise<Map<string, number>> {
  const rows = await db
    .select({ role: roleName(users.roleId), n: count() })
    .from(users)
    .where(userScopeFilter(scope))
    .groupBy(users.roleId);
  return new Map(rows.map((r) => [r.role, Number(r.n)]));
}

/** A page of the users of the caller's scope holding `role`, by name, with the merchant they belong to. */
export async function usersWithRole(
  db: Executor,
  scope: Scope,
  role: RoleName,
  page: { page: number; perPage: number },
): Promise<{ total: number; users: RoleUser[] }> {
  const where = and(userScopeFilter(scope), inArray(users.roleId, rolesNamed([role])));
  const select = db
    .select({ id: users.id, name: users.name, email: users.email, merchantName: merchant.name })
    .from(users)
    .leftJoin(merchant, eq(merchant.id, users.parentId));
  const { rows, total } = await usersPage(db, select.$dynamic(), where, page, [asc(users.name), asc(users.id)]);
  return {
    total: Number(total),
    users: rows.map((r) => ({ id: r.id, name: r.name, email: r.email, merchant_name: r.merchantName })),
  };
}
