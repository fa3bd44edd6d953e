import { MERCHANT_SIDE_ROLES, type RoleName, type UserRow } from '@obol/contract';
import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import { escapeLike, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { roleName, rolesNamed } from '../roles/repo.ts';
import { users } from './tables.ts';

const parent = alias(users, 'parent');

/** The users a scope may see: staff see everyone; a merchant sees its own team; a brand no one. Never the deleted. */
export function userScopeFilter(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return isNull(users.deletedAt);
    case 'merchant':
      return and(
        isNull(users.deletedAt),
        eq(users.parentId, scope.merchantId),
        inArray(users.roleId, rolesNamed(MERCHANT_SIDE_ROLES)),
      )!;
    default:
      return sql`false`;
  }
}

/** newest first, the id breaking ties: the order of the lists of users, merchants, brands and fees */
export const newestUsersFirst = [desc(users.createdAt), desc(users.id)];

/**
 * A page of a list read from `users`: `rows` (its select, made `$dynamic()`) filtered by `where` in `order`, and
 * how many users match `where` in all.
 */
export async function usersPage<T extends PgSelect>(
  db: Executor,
  rows: T,
  where: SQL | undefined,
  q: { page: number; perPage: number },
  order: SQL[] = newestUsersFirst,
) {
  const page = await rows
    .where(where)
    .orderBy(...order)
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  return { rows: page, total };
}

/** The counters above a list of users: how many `where` matches, and how many of them are active or not. */
export async function activeCounters(db: Executor, where: SQL) {
  const [counters] = await db
    .select({ all: count(), active: sql<number>`count(*) filter (where ${users.isActive})`.mapWith(Number) })
    .from(users)
    .where(where);
  return { count: counters.all, active: counters.active, inactive: counters.all - counters.active };
}

export interface UserListQuery {
  page: number;
  perPage: number;
  search: string;
  role: RoleName | null;
}

const userColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: roleName(users.roleId),
  isActive: users.isActive,
  createdAt: users.createdAt,
  lastLogin: users.lastLogin,
  emailVerifiedAt: users.emailVerifiedAt,
  twoFaAsOtp: users.twoFaAsOtp,
  parentId: parent.id,
  parentName: parent.name,
};

function selectUsers(db: Executor) {
  return db.select(userColumns).from(users).leftJoin(parent, eq(parent.id, users.parentId));
}

type SelectedUser = Awaited<ReturnType<typeof selectUsers>>[number];

function toUserRow(r: SelectedUser): UserRow {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    roles: [{ name: r.role as RoleName }],
    is_active: r.isActive ? '1' : '0',
    created_at: r.createdAt.toISOString(),
    last_login: r.lastLogin?.toISOString() ?? null,
    parent: r.parentId !== null && r.parentName !== null ? { id: r.parentId, name: r.parentName } : null,
    remember_token_status: r.emailVerifiedAt ? 'Verified' : 'Not verified',
    resend_mail: r.emailVerifiedAt ? 0 : 1,
    two_fa_as_otp: r.twoFaAsOtp,
  };
}

export async function listUsers(db: Executor, scope: Scope, q: UserListQuery) {
  const inScope = userScopeFilter(scope);
  const filters: SQL[] = [inScope];
  if (q.search) {
    const pattern = `%${escapeLike(q.search)}%`;
    filters.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
  }
  if (q.role) filters.push(inArray(users.roleId, rolesNamed([q.role])));
  const where = and(...filters);
  const { rows, total } = await usersPage(db, selectUsers(db).$dynamic(), where, q);
  return { users: { data: rows.map(toUserRow), total }, ...(await activeCounters(db, inScope)) };
}

/** One user in the caller's scope, or undefined: another tenant's user is indistinguishable from none. */
export async function findUserInScope(db: Executor, scope: Scope, id: number): Promise<UserRow | undefined> {
  const [row] = await selectUsers(db)
    .where(and(userScopeFilter(scope), eq(users.id, id)))
    .limit(1);
  return row ? toUserRow(row) : undefined;
}

/** A merchant's or brand's fee in basis points (0 for a user without one). */
export async function feeBpsOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ feeBps: users.feeBps }).from(users).where(eq(users.id, userId));
  return row?.feeBps ?? 0;
}

/** The user's id and name; undefined when there is none. */
export async function userNameOf(db: Executor, id: number): Promise<{ id: number; name: string } | undefined> {
  const [u] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, id));
  return u;
}

/** The ids of the users (brands and team) under a merchant, as a subquery. */
/** The name of the user `id` (a column of another query), as a column of that query. */
export const userNameColumn = (id: SQLWrapper) =>
  sql<string>`(SELECT ${users.name} FROM ${users} WHERE ${users.id} = ${id})`;

export const usersUnder = (merchantId: number) =>
  sql`(SELECT ${users.id} FROM ${users} WHERE ${users.parentId} = ${merchantId})`;

/** The ids of every user holding one of these roles (active or not). */
export async function userIdsWithRoles(db: Executor, roles: readonly RoleName[]): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.roleId, rolesNamed(roles)));
  return rows.map((r) => r.id);
}

/** The merchants a scope may choose from (staff all, a merchant's side its own), by name. */
export async function merchantsInScope(db: Executor, scope: Scope): Promise<{ id: number; name: string }[]> {
  const own =
    scope.kind === 'merchant' ? eq(users.id, scope.merchantId) : scope.kind === 'all' ? undefined : sql`false`;
  return db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(isNull(users.deletedAt), inArray(users.roleId, rolesNamed(['Merchant'])), own))
    .orderBy(users.name, users.id);
}
