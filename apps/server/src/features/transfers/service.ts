import {
  TRANSFER_ACCOUNT_TYPES,
  TRANSFER_MSG,
  type AmountTransferResponse,
  type MerchantAccountChoice,
  type ParsedInputOf,
  type TransferRow,
  type transferOps,
} from '@obol/contract';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../platform/deps.ts';
import { rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { withIdempotency } from '../../platform/idempotency.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { Scope } from '../../platform/scope.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { findAccountInScope, holderAccountsOf, platformAccountId, type AccountRow } from '../ledger/accounts.ts';
import { entryIdByKey, InsufficientFunds, postEntry, reverseEntry } from '../ledger/service.ts';
import { findHolderInScope, searchHolders } from '../payments/holders.ts';
import { userNameOf } from '../users/repo.ts';
import { transfers } from './tables.ts';

type TransferDb = typeof transfers.$inferSelect;
type SendOtp = ParsedInputOf<typeof transferOps.sendOtp>;
type AmountTransfer = ParsedInputOf<typeof transferOps.amountTransfer>;

const KIND_LABEL: Record<string, string> = { payout: 'Payout', payin: 'Payin', clp: 'CLP', fee: 'Fee Account' };

/** The approval code of a transfer is bound to where the money goes, how much, and from which account. */
export const transferBinding = (t: { amount: number; iban: string; bic: string; account_id: string }) => ({
  op: 'amount_transfer',
  amount: t.amount,
  iban: t.iban,
  bic: t.bic,
  account_id: t.account_id,
});

/**
 * The account a transfer is made from, in the caller's scope: a merchant's or brand's payout, pay-in or CLP
 * account (its holder active), or the Fee Account for the Admin. Anything else answers 404, as for none.
 */
export async function transferAccount(
  deps: Deps,
  auth: AuthContext,
  accountId: string,
): Promise<{ account: AccountRow; holderId: number | null; merchantId: number | null; holderName: string }> {
  const account = await findAccountInScope(deps.db, auth.scope, { accountId });
  if (!account) throw notFound(TRANSFER_MSG.accountNotRegistered);
  if (account.kind === 'fee') {
    if (auth.user.role !== 'Admin') throw notFound(TRANSFER_MSG.accountNotRegistered);
    return { account, holderId: null, merchantId: null, holderName: 'Fee Account' };
  }
  if (!TRANSFER_ACCOUNT_TYPES.some((t) => t.kind === account.kind)) throw notFound(TRANSFER_MSG.accountNotRegistered);
  const holder = await findHolderInScope(deps.db, auth.scope, account.ownerId!);
  if (!holder || !holder.isActive) throw notFound("Merchant/Brand doesn't exist");
  return { account, holderId: holder.id, merchantId: holder.merchantId, holderName: holder.name };
}

/**
 * The spec's "request transfer code": the form is checked (the schema checked the IBAN's checksum and the BIC),
 * the account must be the caller's and hold the amount, then a code bound to this transfer is sent. The balance
 * is checked again, under the ledger's guard, when the transfer is made.
 */
export async function requestTransferCode(deps: Deps, auth: AuthContext, input: SendOtp) {
  const { account } = await transferAccount(deps, auth, input.account_id);
  if (account.balance <= 0) throw unprocessable(TRANSFER_MSG.selectAccount, 'account_id');
  if (input.amount > account.balance) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
  return issueApprovalCode(
    deps,
    auth.user,
    'amount_transfer',
    transferBinding(input),
    `a transfer of ${(input.amount / 100).toFixed(2)} EUR from account ${account.accountId} to IBAN ${input.iban}`,
  );
}

const accountUsedKind = (v: AmountTransfer['account_used']): string | undefined => {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
  return TRANSFER_ACCOUNT_TYPES.find((t) => (n !== undefined ? t.value === n : t.label === v))?.kind;
};

export interface NewTransfer {
  merchantId: number | null;
  holderId: number | null;
  account: AccountRow;
  holderName: string;
  createdBy: number;
  createdByName: string;
  beneficiaryName: string;
  iban: string;
  bic: string;
  amount: number;
  message: string;
  idempotencyKey: string;
}

/**
 * The money part of a transfer, inside the caller's transaction: the row (Pending), the reserve entry (account
 * -amount, transfers in flight +amount; the ledger's guarded debit throws InsufficientFunds beyond the balance)
 * and the job that sends it to the provider. The approval code and the caller's scope are checked before.
 */
export async function recordTransfer(tx: Tx, deps: Pick<Deps, 'jobs'>, t: NewTransfer): Promise<TransferDb> {
  const [row] = await tx
    .insert(transfers)
    .values({
      merchantId: t.merchantId,
      holderId: t.holderId,
      accountId: t.account.id,
      accountKind: t.account.kind,
      accountCode: t.account.accountId,
      holderName: t.holderName,
      createdBy: t.createdBy,
      createdByName: t.createdByName,
      beneficiaryName: t.beneficiaryName,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      message: t.message,
      status: 'Pending',
      idempotencyKey: t.idempotencyKey,
    })
    .returning();
  const clearing = await platformAccountId(tx, 'transfer_clearing');
  await postEntry(tx, {
    idempotencyKey: `transfer:${row.id}:reserve`,
    kind: 'transfer.reserve',
    businessType: 'transfer',
    businessId: row.id,
    createdBy: t.createdBy,
    postings: [
      { accountId: t.account.id, amount: -row.amount },
      { accountId: clearing, amount: row.amount },
    ],
  });
  await deps.jobs.send('transfer.submit', { transferId: row.id }, { tx });
  return row;
}

/**
 * A transfer approved by its code: once per idempotency key, the code is used up, then recordTransfer writes the
 * row, the reserve entry and the submission job in one transaction with the stored answer and activity record.
 */
export async function createTransfer(
  deps: Deps,
  auth: AuthContext,
  input: AmountTransfer,
  record?: (tx: Tx, transfer: TransferRow) => Promise<void>,
): Promise<AmountTransferResponse> {
  const { code, idempotency_key, ...payload } = input;
  const key = idempotency_key ?? randomUUID();
  return withIdempotency(deps.db, auth.user.id, key, 'amount-transfer', payload, async (complete) => {
    const { account, holderId, merchantId, holderName } = await transferAccount(deps, auth, input.account_id);
    const kind = accountUsedKind(input.account_used);
    if (kind !== undefined && kind !== account.kind)
      throw unprocessable(TRANSFER_MSG.accountTypeMismatch, 'account_used');
    if (input.amount > account.balance) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
    await consumeApprovalCode(deps, auth.user, 'amount_transfer', transferBinding(input), code);
    try {
      return await deps.db.transaction(async (tx) => {
        const row = await recordTransfer(tx, deps, {
          merchantId,
          holderId,
          account,
          holderName,
          createdBy: auth.user.id,
          createdByName: auth.user.name,
          beneficiaryName: input.beneficiary_name,
          iban: input.iban,
          bic: input.bic,
          amount: input.amount,
          message: input.message,
          idempotencyKey: `transfer:${auth.user.id}:${key}`,
        });
        const [shown] = await listRows(tx, sql`t.id = ${row.id}`, 'DESC', 1, 0);
        const result: AmountTransferResponse = { message: [TRANSFER_MSG.transferred], transfer: shown };
        // the answer and the activity record commit with the money, or not at all
        await complete(tx, result);
        await record?.(tx, shown);
        return result;
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw unprocessable(TRANSFER_MSG.amountExceeds, 'amount');
      throw err;
    }
  });
}

/** Sends a Pending transfer to the provider with its own idempotency key. Safe to run again. */
export async function submitTransfer(deps: Deps, provider: ProviderClient, transferId: number): Promise<void> {
  const [t] = await deps.db.select().from(transfers).where(eq(transfers.id, transferId));
  if (!t || t.status !== 'Pending' || t.providerId) return;
  try {
    const r = await provider.createTransfer({
      idempotency_key: t.idempotencyKey,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      beneficiary_name: t.beneficiaryName,
      reference: `TR${t.id}`,
    });
    await deps.db
      .update(transfers)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(transfers.id, t.id), isNull(transfers.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settleTransfer(deps, { idempotencyKey: t.idempotencyKey, status: 'Failed', message: err.messages[0] });
      return;
    }
    throw err; // unavailable: the job is retried with the same key
  }
}

/**
 * Settles a transfer exactly once: only a Pending transfer moves, to Completed (transfers in flight -> provider)
 * or Declined (the reserve is reversed: the amount returns to the account). Late or repeated events change nothing.
 */
export async function settleTransfer(
  deps: Pick<Deps, 'db'>,
  ev: { idempotencyKey: string; providerId?: string; status: 'Completed' | 'Failed'; message?: string },
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => {
    const [row] = await t
      .update(transfers)
      .set({
        status: ev.status === 'Completed' ? 'Completed' : 'Declined',
        detail: ev.status === 'Failed' ? (ev.message ?? 'Declined by the bank') : null,
        settledAt: new Date(),
        updatedAt: new Date(),
        ...(ev.providerId ? { providerId: sql`COALESCE(${transfers.providerId}, ${ev.providerId})` } : {}),
      })
      .where(and(eq(transfers.idempotencyKey, ev.idempotencyKey), eq(transfers.status, 'Pending')))
      .returning();
    if (!row) return 'ignored' as const;
    if (ev.status === 'Completed') {
      await postEntry(t, {
        idempotencyKey: `transfer:${row.id}:complete`,
        kind: 'transfer.complete',
        businessType: 'transfer',
        businessId: row.id,
        postings: [
          { accountId: await platformAccountId(t, 'transfer_clearing'), amount: -row.amount },
          { accountId: await platformAccountId(t, 'provider'), amount: row.amount },
        ],
      });
    } else {
      const reserve = await entryIdByKey(t, `transfer:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`transfer ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: 'transfer.reversal', memo: row.detail ?? undefined });
    }
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/** Whether a transfer is still waiting for the provider (the webhook then asks the provider for its state). */
export async function transferStatusByKey(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db.select({ status: transfers.status }).from(transfers).where(eq(transfers.idempotencyKey, key));
  return row?.status;
}

/** Transfers still Pending after `olderThanMs`: the recovery asks the provider what became of them. */
export async function pendingTransfers(db: Executor, olderThanMs: number, limit = 200): Promise<TransferDb[]> {
  return db
    .select()
    .from(transfers)
    .where(
      and(
        eq(transfers.status, 'Pending'),
        sql`${transfers.createdAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .orderBy(transfers.createdAt, transfers.id)
    .limit(limit);
}

/**
 * Transfers a dead process, a lost answer or a lost webhook left Pending: one never sent is sent again (same
 * key), one the provider settled is settled from the provider's own answer.
 */
export async function recoverTransfers(deps: Deps, olderThanMs = 30_000): Promise<number> {
  let settled = 0;
  for (const t of await pendingTransfers(deps.db, olderThanMs)) {
    const item = await deps.provider.transferByKey(t.idempotencyKey);
    if (!item) {
      await submitTransfer(deps, deps.provider, t.id);
      continue;
    }
    if (item.status === 'Completed' || item.status === 'Failed') {
      if (item.amount !== t.amount) {
        deps.log.error({ transfer: t.id, ours: t.amount, theirs: item.amount }, 'transfer amount differs at provider');
        continue;
      }
      const r = await settleTransfer(deps, {
        idempotencyKey: t.idempotencyKey,
        providerId: item.id,
        status: item.status,
        message: item.message,
      });
      if (r === 'applied') settled += 1;
    }
  }
  return settled;
}

// ---- the list ----

/** Transfers a scope may see: staff all; a merchant (team) its own and its brands'; a brand its own. */
export function transferScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`t.merchant_id = ${scope.merchantId}`;
    case 'brand':
      return sql`t.holder_id = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

export function transferWhere(scope: Scope, f: { status: string }): SQL {
  const terms = [transferScope(scope)];
  if (f.status) terms.push(sql`t.status = ${f.status}`);
  return sql.join(terms, sql` AND `);
}

/** One page (or chunk) of transfers, newest or oldest first (names and account ids are kept with each transfer). */
export function listSql(where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number, after?: SQL): SQL {
  const order = dir === 'ASC' ? sql`t.created_at ASC, t.id ASC` : sql`t.created_at DESC, t.id DESC`;
  return sql`SELECT t.id, t.beneficiary_name, t.iban, t.bic, t.amount, t.currency, t.status, t.detail, t.message,
      t.account_kind, t.account_code, t.holder_name, t.created_by_name, t.created_at, t.updated_at,
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM transfers t
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

export interface TransferDbRow {
  id: number | string;
  beneficiary_name: string;
  iban: string;
  bic: string;
  amount: number | string;
  currency: string;
  status: TransferRow['status'];
  detail: string | null;
  message: string;
  account_kind: string;
  account_code: string;
  holder_name: string;
  created_by_name: string;
  created_at: string | Date;
  updated_at: string | Date;
  created_key: string;
}

const iso = (v: string | Date) => new Date(v).toISOString();
export const toTransferRow = (r: TransferDbRow): TransferRow => ({
  id: Number(r.id),
  beneficiary_name: r.beneficiary_name,
  iban: r.iban,
  bic: r.bic,
  amount: Number(r.amount),
  currency: r.currency,
  transfer_by: r.created_by_name,
  account_used: KIND_LABEL[r.account_kind] ?? r.account_kind,
  account_id: r.account_code,
  merchant_name: r.holder_name,
  status: r.status,
  detail: r.detail,
  message: r.message,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

async function listRows(db: Executor, where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number) {
  return rowsOf<TransferDbRow>(await db.execute(listSql(where, dir, limit, offset))).map(toTransferRow);
}

export async function listTransfers(
  db: Executor,
  scope: Scope,
  q: { status: string; sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const where = transferWhere(scope, q);
  const [data, [{ total }]] = await Promise.all([
    listRows(db, where, q.sortby, q.per_page, (q.page - 1) * q.per_page),
    db
      .execute(sql`SELECT count(*) AS total FROM transfers t WHERE ${where}`)
      .then((r) => rowsOf<{ total: number | string }>(r)),
  ]);
  return { data, total: Number(total) };
}

// ---- Merchants Payout's chooser ----

/** The active merchants and brands in scope matching the search, with their account ids (the payments picker's). */
export async function merchantsWithAccounts(
  db: Executor,
  scope: Scope,
  search: string,
): Promise<MerchantAccountChoice[]> {
  const holders: { id: number; name: string; role: string; parent: string | null }[] = [];
  for (const m of await searchHolders(db, scope, search)) {
    const role = m.roles[0]?.name ?? 'Merchant';
    // a brand that matched on its own: its merchant's name, asked of the users feature
    const parent = role === 'Brand' && m.parent_id ? ((await userNameOf(db, m.parent_id))?.name ?? null) : null;
    holders.push({ id: m.id, name: m.name, role, parent });
    for (const b of m.active_brands) holders.push({ id: b.id, name: b.name, role: 'Brand', parent: m.name });
  }
  const accountsBy = await holderAccountsOf(
    db,
    holders.map((h) => h.id),
  );
  const out: MerchantAccountChoice[] = [];
  for (const h of holders) {
    const list = accountsBy.get(h.id) ?? [];
    const payout = list.find((a) => a.kind === 'payout') ?? list[0];
    if (!payout) continue;
    out.push({
      id: h.id,
      merchant_name: h.name,
      role: h.role,
      parent_name: h.parent,
      account_id: payout.accountId,
      account_reference: payout.accountReference,
      accounts: list.map((a) => ({ kind: a.kind, account_id: a.accountId })),
    });
  }
  return out;
}
