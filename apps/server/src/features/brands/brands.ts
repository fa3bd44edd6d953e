import type { BrandRow, BrandsListResponse } from '@obol/contract';
import { and, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { escapeLike, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { holderReference } from '../ledger/accounts.ts';
import { rolesNamed } from '../roles/repo.ts';
import { activeCounters, usersPage } from '../users/repo.ts';
import { users } from '../users/tables.ts';

const merchant = alias(users, 'merchant');

/** The brands a scope may see: staff every brand, a merchant's side its merchant's brands; never the deleted. */
export function brandScopeFilter(scope: Scope): SQL {
  const brands = and(isNull(users.deletedAt), inArray(users.roleId, rolesNamed(['Brand'])))!;
  switch (scope.kind) {
    case 'all':
      return brands;
    case 'merchant':
      return and(brands, eq(users.parentId, scope.merchantId))!;
    default:
      return sql`false`;
  }
}

export interface BrandListQuery {
  page: number;
  perPage: number;
  name: string;
}

/** A page of brands (newest first) matching the name, with the counters of every brand in the scope. */
export async function listBrands(db: Executor, scope: Scope, q: BrandListQuery): Promise<BrandsListResponse> {
  const inScope = brandScopeFilter(scope);
  const where = q.name ? and(inScope, ilike(users.name, `%${escapeLike(q.name)}%`))! : inScope;
  const select = db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      parentId: merchant.id,
      parentName: merchant.name,
      verifiedAt: users.emailVerifiedAt,
      isActive: users.isActive,
      createdAt: users.createdAt,
    })
    .from(users)
    .innerJoin(merchant, eq(merchant.id, users.parentId));
  const { rows, total } = await usersPage(db, select.$dynamic(), where, q);
  const data: BrandRow[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    parent: { id: r.parentId, name: r.parentName },
    account_reference: holderReference(r.id),
    remember_token_status: r.verifiedAt ? 'Verified' : 'Not verified',
    is_active: r.isActive ? '1' : '0',
    created_at: r.createdAt.toISOString(),
  }));
  return { brands: { data, total }, ...(await activeCounters(db, inScope)) };
}
