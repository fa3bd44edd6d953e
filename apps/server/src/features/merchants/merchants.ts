import { MERCHANT_MSG, type HolderRow, type MerchantsListResponse } from '@obol/contract';
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { escapeLike, type Executor } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { Scope } from '../../platform/scope.ts';
import { holderReference } from '../ledger/accounts.ts';
import { rolesNamed } from '../roles/repo.ts';
import { activeCounters, usersPage } from '../users/repo.ts';
import { holderDetails, users } from '../users/tables.ts';

// The Merchants screen: merchants and their brands with their details, as listed (creation: merchant-create.ts;
// edits, status, the direct flag: merchant-edit.ts).

/** The read-only descriptor code of a merchant or brand, derived from its id. */
export const descriptorCode = (id: number) => `DC${String(id).padStart(7, '0')}`;

export const isMerchant = () => inArray(users.roleId, rolesNamed(['Merchant']));
export const isBrand = () => inArray(users.roleId, rolesNamed(['Brand']));

/** The merchants a scope may see: staff every merchant, a merchant's side its own merchant; never the deleted. */
export function merchantScope(scope: Scope): SQL {
  const merchants = and(isNull(users.deletedAt), isMerchant())!;
  if (scope.kind === 'all') return merchants;
  if (scope.kind === 'merchant') return and(merchants, eq(users.id, scope.merchantId))!;
  return sql`false`;
}

const brandCount = sql<number>`(SELECT count(*) FROM users b
  WHERE b.parent_id = "users"."id" AND b.deleted_at IS NULL AND b.role_id IN ${rolesNamed(['Brand'])})`.mapWith(Number);

const rowColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  parentId: users.parentId,
  feeBps: users.feeBps,
  isActive: users.isActive,
  verifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  merchant: sql<boolean>`${users.roleId} IN ${rolesNamed(['Merchant'])}`,
  descriptor: holderDetails.descriptor,
  brandName: holderDetails.brandName,
  obolId: holderDetails.obolId,
  mid: holderDetails.mid,
  registrationNumber: holderDetails.registrationNumber,
  street: holderDetails.street,
  city: holderDetails.city,
  zipCode: holderDetails.zipCode,
  directMerchant: holderDetails.directMerchant,
  totalBrands: brandCount,
};
export const selectRows = (db: Executor) =>
  db.select(rowColumns).from(users).leftJoin(holderDetails, eq(holderDetails.userId, users.id));
type Row = Awaited<ReturnType<typeof selectRows>>[number];

export function toRow(r: Row): HolderRow {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.merchant ? 'Merchant' : 'Brand',
    parent_id: r.parentId,
    payin_name: r.descriptor,
    descriptor_name: r.descriptor,
    descriptor_code: descriptorCode(r.id),
    brand_name: r.brandName,
    obol_id: r.obolId,
    mid: r.mid,
    fee: r.feeBps === null ? null : r.feeBps / 100,
    registration_number: r.registrationNumber,
    street: r.street,
    city: r.city,
    zip_code: r.zipCode,
    account_reference: holderReference(r.id),
    total_brands: r.merchant ? r.totalBrands : 0,
    is_active: r.isActive ? '1' : '0',
    remember_token_status: r.verifiedAt ? 'Verified' : 'Not verified',
    resend_mail: r.verifiedAt ? 0 : 1,
    direct_merchant: r.directMerchant ? 1 : 0,
    created_at: r.createdAt.toISOString(),
  };
}

/**
 * A page of merchants (newest first) whose name or e-mail contains the search (or the one `id`), with the scope's
 * counters.
 */
export async function listMerchants(
  db: Executor,
  scope: Scope,
  q: { page: number; perPage: number; search: string; id?: number },
): Promise<MerchantsListResponse> {
  const inScope = merchantScope(scope);
  const p = `%${escapeLike(q.search)}%`;
  const where = and(
    inScope,
    q.search ? or(ilike(users.name, p), ilike(users.email, p)) : undefined,
    q.id === undefined ? undefined : eq(users.id, q.id),
  )!;
  const { rows, total } = await usersPage(db, selectRows(db).$dynamic(), where, q);
  return { merchants: { data: rows.map(toRow), total }, ...(await activeCounters(db, inScope)) };
}

/** The brands of a merchant in scope (404 otherwise), newest first, those whose name contains `name`. */
export async function merchantBrands(
  db: Executor,
  scope: Scope,
  merchantId: number,
  name: string,
): Promise<HolderRow[]> {
  const [merchant] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, merchantId), merchantScope(scope)));
  if (!merchant) throw notFound(MERCHANT_MSG.notFound);
  const rows = await selectRows(db)
    .where(
      and(
        eq(users.parentId, merchantId),
        isBrand(),
        isNull(users.deletedAt),
        name ? ilike(users.name, `%${escapeLike(name)}%`) : undefined,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(500);
  return rows.map(toRow);
}
