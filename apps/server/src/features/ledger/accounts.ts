import { and, eq, getTableColumns, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { accountCreditShards, accounts } from './tables.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** An account's balance: its row's, plus its credit shards' when its credits are sharded (tables.ts). */
export const accountBalance = sql<number>`(${accounts.balance} + CASE WHEN ${accounts.shardCredits}
    THEN COALESCE((SELECT SUM(s.amount) FROM ${accountCreditShards} s WHERE s.account_id = ${accounts.id}), 0)
    ELSE 0 END)`.mapWith(Number);

/** The columns of an account row, its balance as accountBalance: select(accountFields) wherever a balance is read. */
export const accountFields = { ...getTableColumns(accounts), balance: accountBalance };
export const HOLDER_KINDS = ['payout', 'payin', 'clp'] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];

export const FEE_ACCOUNT_REFERENCE = 'Fee Account';

/**
 * The platform's own accounts: the Fee Account, the clearing accounts (payouts, refunds, rewards and transfers on
 * their way to the provider), the provider.
 */
export const PLATFORM_ACCOUNTS = [
  {
    kind: 'fee',
    accountId: 'FEE-000001',
    name: 'Fee Account',
    accountReference: FEE_ACCOUNT_REFERENCE,
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'payout_clearing',
    accountId: 'CLR-PAYOUT',
    name: 'Payouts in flight',
    accountReference: 'Platform',
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'refund_clearing',
    accountId: 'CLR-REFUND',
    name: 'Refunds in flight',
    accountReference: 'Platform',
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'reward_clearing',
    accountId: 'CLR-REWARD',
    name: 'Rewards in flight',
    accountReference: 'Platform',
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'transfer_clearing',
    accountId: 'CLR-TRANSFER',
    name: 'Transfers in flight',
    accountReference: 'Platform',
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'accounting_clearing',
    accountId: 'CLR-2D',
    name: '2D transfers in flight',
    accountReference: 'Platform',
    allowOverdraft: false,
    shardCredits: true,
  },
  {
    kind: 'provider',
    accountId: 'PRV-000001',
    name: 'Provider settlement',
    accountReference: 'Platform',
    allowOverdraft: true,
    shardCredits: true,
  },
] as const;
export type PlatformKind = (typeof PLATFORM_ACCOUNTS)[number]['kind'];

export async function ensurePlatformAccounts(db: Executor) {
  await db
    .insert(accounts)
    .values(PLATFORM_ACCOUNTS.map((a) => ({ ...a })))
    .onConflictDoNothing({ target: accounts.accountId });
}

const platformCache = new WeakMap<object, Map<string, number>>();
/** Id of a platform account (cached per database handle). */
export async function platformAccountId(db: Executor, kind: PlatformKind): Promise<number> {
  let cache = platformCache.get(db);
  if (!cache) platformCache.set(db, (cache = new Map()));
  const hit = cache.get(kind);
  if (hit) return hit;
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.kind, kind), sql`${accounts.ownerId} IS NULL`));
  if (!row) throw new Error(`platform account ${kind} is missing`);
  cache.set(kind, row.id);
  return row.id;
}

const PREFIX: Record<HolderKind, string> = { payout: 'PO', payin: 'PI', clp: 'CL' };

export function holderReference(userId: number) {
  return `OBL${String(userId).padStart(7, '0')}`;
}

/** Opens the payout, pay-in and CLP accounts of a merchant or brand (once). */
export async function openHolderAccounts(tx: Tx, holder: { id: number; name: string }): Promise<AccountRow[]> {
  await tx
    .insert(accounts)
    .values(
      HOLDER_KINDS.map((kind) => ({
        kind,
        accountId: `${PREFIX[kind]}${String(holder.id).padStart(8, '0')}`,
        accountReference: holderReference(holder.id),
        name: `${holder.name} ${kind === 'clp' ? 'CLP' : kind === 'payin' ? 'Pay-in' : 'Payout'}`,
        ownerId: holder.id,
        allowOverdraft: false,
      })),
    )
    .onConflictDoNothing();
  return tx.select(accountFields).from(accounts).where(eq(accounts.ownerId, holder.id));
}

/**
 * The ids of the holders under a merchant (its brands and team), as a subquery: users' usersUnder, handed in by
 * the caller, as the ledger imports no feature.
 */
export type HoldersUnder = (merchantId: number) => SQL;

/** Accounts a scope may see: staff all; a merchant (and its team) its own and its brands'; a brand its own. */
export function accountScopeFilter(scope: Scope, under: HoldersUnder): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return or(eq(accounts.ownerId, scope.merchantId), inArray(accounts.ownerId, under(scope.merchantId)))!;
    case 'brand':
      return eq(accounts.ownerId, scope.brandId);
    default:
      return sql`false`;
  }
}

/** The Fee Account. */
export async function feeAccount(db: Executor): Promise<AccountRow> {
  const [fee] = await db
    .select(accountFields)
    .from(accounts)
    .where(eq(accounts.id, await platformAccountId(db, 'fee')));
  return fee;
}

/**
 * The account id and reference of the holder `ownerId` (a column of another query) of one kind, as columns of that
 * query: null when it has none (one at most: unique per owner and kind).
 */
export const holderAccountColumns = (ownerId: SQLWrapper, kind: HolderKind) => {
  const ofHolder = sql`${accounts} WHERE ${accounts.ownerId} = ${ownerId} AND ${accounts.kind} = ${kind}`;
  return {
    accountId: sql<string | null>`(SELECT ${accounts.accountId} FROM ${ofHolder})`,
    accountReference: sql<string | null>`(SELECT ${accounts.accountReference} FROM ${ofHolder})`,
  };
};

/** The name and reference of the account `id` (a column of another query), as columns of that query. */
export const accountNameColumns = (id: SQLWrapper) => ({
  name: sql<string>`(SELECT ${accounts.name} FROM ${accounts} WHERE ${accounts.id} = ${id})`,
  reference: sql<string>`(SELECT ${accounts.accountReference} FROM ${accounts} WHERE ${accounts.id} = ${id})`,
});

/** The payout accounts of a merchant or brand. */
export async function payoutAccountsOf(db: Executor, ownerId: number): Promise<AccountRow[]> {
  return db
    .select(accountFields)
    .from(accounts)
    .where(and(eq(accounts.ownerId, ownerId), eq(accounts.kind, 'payout')));
}

/**
 * Opens the ledger account of a company's bank account (accounting, 2D): no holder user, never overdrawn, and
 * addressed only through the accounting module (findAccountInScope never answers it).
 */
export async function openCompanyAccount(
  tx: Tx,
  a: { companyId: number; n: number; name: string; currency: string },
): Promise<AccountRow> {
  const [row] = await tx
    .insert(accounts)
    .values({
      kind: 'company',
      accountId: `CMP${String(a.companyId).padStart(6, '0')}-${a.n}`,
      accountReference: `COMPANY-${a.companyId}`,
      name: a.name,
      currency: a.currency,
      allowOverdraft: false,
    })
    .returning();
  return row;
}

/** Accounts by their internal ids, by id. */
export async function accountsByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AccountRow>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select(accountFields)
    .from(accounts)
    .where(inArray(accounts.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** An account's balance, its row locked until the caller's transaction ends (a check and the move it guards). */
export async function lockedBalance(tx: Tx, id: number): Promise<number> {
  const [row] = await tx.select({ balance: accountBalance }).from(accounts).where(eq(accounts.id, id)).for('update');
  if (!row) throw new Error(`account ${id} is missing`);
  return Number(row.balance);
}

/** An account by its internal id; undefined when there is none. */
export async function accountById(db: Executor, id: number): Promise<AccountRow | undefined> {
  const [row] = await db.select(accountFields).from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function holderAccounts(db: Executor, ownerId: number): Promise<Partial<Record<HolderKind, AccountRow>>> {
  const rows = await db.select(accountFields).from(accounts).where(eq(accounts.ownerId, ownerId));
  return Object.fromEntries(rows.map((r) => [r.kind, r]));
}

/** The payout, pay-in and CLP accounts of many holders at once, by holder. */
export async function holderAccountsOf(
  db: Executor,
  ownerIds: readonly number[],
): Promise<Map<number, { kind: HolderKind; accountId: string; accountReference: string }[]>> {
  const out = new Map<number, { kind: HolderKind; accountId: string; accountReference: string }[]>();
  if (!ownerIds.length) return out;
  const rows = await db
    .select({
      ownerId: accounts.ownerId,
      kind: accounts.kind,
      accountId: accounts.accountId,
      ref: accounts.accountReference,
    })
    .from(accounts)
    .where(and(inArray(accounts.ownerId, [...ownerIds]), inArray(accounts.kind, [...HOLDER_KINDS])))
    .orderBy(accounts.id);
  for (const r of rows) {
    const list = out.get(r.ownerId!) ?? [];
    list.push({ kind: r.kind as HolderKind, accountId: r.accountId, accountReference: r.ref });
    out.set(r.ownerId!, list);
  }
  return out;
}

/** An account by reference (and account id), inside the scope; the Fee Account only for staff. */
export async function findAccountInScope(
  db: Executor,
  scope: Scope,
  ref: { accountReference?: string; accountId?: string; kind?: string },
  under: HoldersUnder,
): Promise<AccountRow | undefined> {
  const filters: SQL[] = [accountScopeFilter(scope, under)];
  if (ref.accountId) filters.push(eq(accounts.accountId, ref.accountId));
  if (ref.accountReference) filters.push(eq(accounts.accountReference, ref.accountReference));
  if (!ref.accountId) {
    filters.push(
      ref.accountReference === FEE_ACCOUNT_REFERENCE
        ? eq(accounts.kind, 'fee')
        : eq(accounts.kind, ref.kind ?? 'payout'),
    );
  }
  // platform clearing accounts are never addressed from outside
  filters.push(
    sql`${accounts.kind} NOT IN ('payout_clearing', 'refund_clearing', 'reward_clearing', 'transfer_clearing',
      'accounting_clearing', 'provider', 'company')`,
  );
  const [row] = await db
    .select(accountFields)
    .from(accounts)
    .where(and(...filters))
    .limit(1);
  return row;
}
