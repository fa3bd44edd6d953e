import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AccountChoice, HolderChoice, HolderOption, MerchantAccountsResponse } from '@obol/contract';
import { escapeLike, type Executor } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { Deps } from '../../platform/deps.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import {
  FEE_ACCOUNT_REFERENCE,
  feeAccount,
  findAccountInScope,
  holderAccountColumns,
  payoutAccountsOf,
  type AccountRow,
} from '../ledger/accounts.ts';
import { roleName, rolesNamed } from '../roles/repo.ts';
import { usersUnder } from '../users/repo.ts';
import { users } from '../users/tables.ts';

/** A merchant or brand that payouts are made on behalf of. */
export interface Holder {
  id: number;
  parentId: number | null;
  name: string;
  email: string;
  role: 'Merchant' | 'Brand';
  isActive: boolean;
  verified: boolean;
  feeBps: number;
  /** the merchant (tenant) it belongs to: itself for a merchant, the parent for a brand */
  merchantId: number;
}

/** Merchants and brands a scope may act for: staff all; a merchant (team) itself and its brands; a brand itself. */
export function holderScopeFilter(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return or(eq(users.id, scope.merchantId), eq(users.parentId, scope.merchantId))!;
    case 'brand':
      return eq(users.id, scope.brandId);
    default:
      return sql`false`;
  }
}

/** The roles of merchants and brands, as a subquery of their ids. */
const HOLDER_ROLES = rolesNamed(['Merchant', 'Brand']);

const holderColumns = {
  id: users.id,
  parentId: users.parentId,
  name: users.name,
  email: users.email,
  role: roleName(users.roleId),
  isActive: users.isActive,
  verifiedAt: users.emailVerifiedAt,
  feeBps: users.feeBps,
};

type HolderRow = {
  id: number;
  parentId: number | null;
  name: string;
  email: string;
  role: string;
  isActive: boolean;
  verifiedAt: Date | null;
  feeBps: number | null;
};
const toHolder = (r: HolderRow): Holder => ({
  id: r.id,
  parentId: r.parentId,
  name: r.name,
  email: r.email,
  role: r.role as Holder['role'],
  isActive: r.isActive,
  verified: !!r.verifiedAt,
  feeBps: r.feeBps ?? 0,
  merchantId: r.role === 'Brand' ? r.parentId! : r.id,
});

export async function findHolderInScope(db: Executor, scope: Scope, id: number): Promise<Holder | undefined> {
  const [r] = await db
    .select(holderColumns)
    .from(users)
    .where(and(holderScopeFilter(scope), eq(users.id, id), inArray(users.roleId, HOLDER_ROLES)))
    .limit(1);
  return r ? toHolder(r) : undefined;
}

/**
 * The merchant/brand picker: merchants (or, for a brand, itself) matching the search, each with its active
 * brands and its payout account.
 */
export async function searchHolders(db: Executor, scope: Scope, search: string): Promise<HolderOption[]> {
  const filters: SQL[] = [holderScopeFilter(scope), eq(users.isActive, true)];
  if (search) filters.push(ilike(users.name, `%${escapeLike(search)}%`));
  const rows = await db
    .select({ ...holderColumns, ...holderAccountColumns(users.id, 'payout') })
    .from(users)
    .where(and(...filters, inArray(users.roleId, HOLDER_ROLES)))
    .orderBy(asc(users.name))
    .limit(200);
  const shape = (r: (typeof rows)[number]): HolderChoice => ({
    id: r.id,
    parent_id: r.parentId,
    name: r.name,
    email: r.email,
    roles: [{ name: r.role }],
    remember_token_status: r.verifiedAt ? 1 : 0,
    fee: (r.feeBps ?? 0) / 100,
    accounts: { account_reference: r.accountReference, account_id: r.accountId },
  });
  const merchants = rows.filter((r) => r.role === 'Merchant');
  const brands = rows.filter((r) => r.role === 'Brand');
  if (scope.kind === 'brand') return brands.map((b) => ({ ...shape(b), active_brands: [] }));
  // brands also appear under their merchant, even when only the brand matched the search
  const out: HolderOption[] = merchants.map((m) => ({
    ...shape(m),
    active_brands: brands.filter((b) => b.parentId === m.id).map(shape),
  }));
  for (const b of brands) if (!merchants.some((m) => m.id === b.parentId)) out.push({ ...shape(b), active_brands: [] });
  return out;
}

/** The accounts a payout may be made from for a holder, and its fee; holder 0 is the Fee Account, for the Admin. */
export async function accountChoices(
  db: Executor,
  auth: AuthContext,
  holderId: number,
): Promise<MerchantAccountsResponse> {
  if (holderId === 0) {
    if (auth.user.role !== 'Admin') throw notFound("Merchant/Brand doesn't exist");
    const fee = await feeAccount(db);
    const data: AccountChoice[] = [
      {
        merchant_name: 'Fee Account',
        account_id: fee.accountId,
        account_reference: FEE_ACCOUNT_REFERENCE,
        balance: fee.balance,
      },
    ];
    return { data };
  }
  const holder = await findHolderInScope(db, auth.scope, holderId);
  if (!holder) throw notFound("Merchant/Brand doesn't exist");
  const data = (await payoutAccountsOf(db, holder.id)).map((a) => ({
    merchant_name: holder.name,
    account_id: a.accountId,
    account_reference: a.accountReference,
    balance: a.balance,
  }));
  return { data, fee: holder.feeBps / 100 };
}

/**
 * The account to pay from, in the caller's scope, with the merchant or brand it belongs to. The Admin's Fee Account
 * pays on behalf of the merchant or brand chosen (`behalfOf`: its brands, its merchant transaction ids, no fee: the
 * platform does not charge itself), or of the platform itself when none is.
 */
export async function payingAccount(
  deps: Deps,
  auth: AuthContext,
  accountReference: string,
  behalfOf = 0,
): Promise<{ account: AccountRow; holder: Holder | null; merchantId: number; feeBps: number }> {
  if (accountReference === FEE_ACCOUNT_REFERENCE && auth.user.role !== 'Admin')
    throw notFound('Account not registered');
  const account = await findAccountInScope(deps.db, auth.scope, { accountReference }, usersUnder);
  if (!account) throw notFound('Account not registered');
  if (account.kind === 'fee') {
    if (!behalfOf) return { account, holder: null, merchantId: auth.user.id, feeBps: 0 };
    const holder = await findHolderInScope(deps.db, auth.scope, behalfOf);
    if (!holder || !holder.isActive) throw notFound("Merchant/Brand doesn't exist");
    return { account, holder, merchantId: holder.merchantId, feeBps: 0 };
  }
  const holder = await findHolderInScope(deps.db, auth.scope, account.ownerId!);
  if (!holder || !holder.isActive) throw notFound("Merchant/Brand doesn't exist");
  return { account, holder, merchantId: holder.merchantId, feeBps: holder.feeBps };
}

/** Names of the active brands a merchant's payouts may carry (its brands; a brand only itself). */
export async function brandNamesOf(db: Executor, merchantId: number, holder: Holder | null): Promise<Set<string>> {
  if (holder?.role === 'Brand') return new Set([holder.name.toLowerCase()]);
  const rows = await db
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.parentId, merchantId), inArray(users.roleId, rolesNamed(['Brand'])), eq(users.isActive, true)));
  return new Set(rows.map((r) => r.name.toLowerCase()));
}
