import { ACCOUNTING_MSG, type AccountingTransaction, type accountingOps, type ParsedInputOf } from '@obol/contract';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../platform/deps.ts';
import { rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { withIdempotency } from '../../platform/idempotency.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, InsufficientFunds, postEntry, reverseEntry } from '../ledger/service.ts';
import { lockActiveCompany, resolveTransfer, type CompanyAccountRow } from './companies.ts';
import { accountingTransactions } from './tables.ts';

type Otp = ParsedInputOf<typeof accountingOps.accountingOtp>;
type Transfer = ParsedInputOf<typeof accountingOps.accountingTransfer>;
type TxnDb = typeof accountingTransactions.$inferSelect;

/** The idempotency keys of 2D transfers at the provider start with this (the webhook tells them from transfers). */
export const ACCOUNTING_KEY_PREFIX = '2d:';

/** The code of a 2D transfer approves this transfer only: company, accounts, beneficiary, amount and reference. */
const binding = (t: Otp) => ({
  op: 'accounting_transfer',
  company_id: t.company_id,
  account_id: t.account_id,
  beneficiary_id: t.beneficiary_id,
  transfer_type: t.transfer_type,
  amount: t.amount,
  reference: t.reference,
});

/** The spec's "Generate accounting OTP": the transfer is checked, then a code bound to it is sent. */
export async function requestAccountingCode(deps: Deps, auth: AuthContext, input: Otp) {
  const { source, to } = await resolveTransfer(deps.db, input);
  if (source.balance <= 0) throw unprocessable(ACCOUNTING_MSG.selectAccount, 'account_id');
  if (input.amount > source.balance) throw unprocessable(ACCOUNTING_MSG.amountExceeds, 'amount');
  return issueApprovalCode(
    deps,
    auth.user,
    'accounting_transfer',
    binding(input),
    `a 2D transfer of ${(input.amount / 100).toFixed(2)} ${source.currency} from ${source.iban} to ${to.name} (${to.iban})`,
  );
}

export interface NewAccountingTransaction {
  companyId: number;
  companyName: string;
  source: CompanyAccountRow;
  /** internal: the company's other account */
  target: CompanyAccountRow | null;
  to: { name: string; iban: string; bic: string };
  transferType: 'external_transfer' | 'internal_transfer';
  amount: number;
  description: string;
  transferBy: string;
  createdBy: number | null;
  idempotencyKey: string;
  rule?: { id: number; name: string; type: 'Amount' | 'Percentage'; period: string };
}

/**
 * The money of a 2D transaction, inside the caller's transaction: an external one is reserved (company account ->
 * 2D transfers in flight; the ledger's guarded debit throws InsufficientFunds beyond the balance) and a job sends
 * it to the provider (PENDING); an internal one moves between the company's two accounts (COMPLETED).
 */
export async function recordAccountingTransaction(
  tx: Tx,
  deps: Pick<Deps, 'jobs'>,
  t: NewAccountingTransaction,
): Promise<TxnDb> {
  const internal = t.transferType === 'internal_transfer';
  const [row] = await tx
    .insert(accountingTransactions)
    .values({
      companyId: t.companyId,
      companyName: t.companyName,
      ruleId: t.rule?.id ?? null,
      ruleName: t.rule?.name ?? null,
      ruleType: t.rule?.type ?? 'Manual',
      period: t.rule?.period ?? null,
      sourceAccountId: t.source.id,
      accountCode: t.source.providerAccountId,
      transferType: t.transferType,
      beneficiaryName: t.to.name,
      iban: t.to.iban,
      bic: t.to.bic,
      amount: t.amount,
      currency: t.source.currency,
      transferBy: t.transferBy,
      createdBy: t.createdBy,
      status: internal ? 'COMPLETED' : 'PENDING',
      description: t.description,
      idempotencyKey: t.idempotencyKey,
      settledAt: internal ? new Date() : null,
    })
    .returning();
  if (internal) {
    await postEntry(tx, {
      idempotencyKey: `2d:${row.id}:internal`,
      kind: 'accounting.internal',
      businessType: 'accounting_transaction',
      businessId: row.id,
      createdBy: t.createdBy ?? undefined,
      memo: t.description,
      postings: [
        { accountId: t.source.ledgerAccountId, amount: -row.amount },
        { accountId: t.target!.ledgerAccountId, amount: row.amount },
      ],
    });
    return row;
  }
  await postEntry(tx, {
    idempotencyKey: `2d:${row.id}:reserve`,
    kind: 'accounting.reserve',
    businessType: 'accounting_transaction',
    businessId: row.id,
    createdBy: t.createdBy ?? undefined,
    memo: t.description,
    postings: [
      { accountId: t.source.ledgerAccountId, amount: -row.amount },
      { accountId: await platformAccountId(tx, 'accounting_clearing'), amount: row.amount },
    ],
  });
  await deps.jobs.send('accounting.submit', { transactionId: row.id }, { tx });
  return row;
}

/**
 * A 2D transfer approved by its code, once per idempotency key: the code is used up, then the row, the money
 * and the submission job commit with the stored answer and the activity record.
 */
export async function createAccountingTransfer(
  deps: Deps,
  auth: AuthContext,
  input: Transfer,
  record?: (tx: Tx, transaction: AccountingTransaction) => Promise<void>,
): Promise<{ message: string[]; transaction: AccountingTransaction }> {
  const { otp, idempotency_key, ...payload } = input;
  const key = idempotency_key ?? randomUUID();
  return withIdempotency(deps.db, auth.user.id, key, 'accounting-transfer', payload, async (complete) => {
    const { company, source, target, to } = await resolveTransfer(deps.db, input);
    if (source.balance <= 0) throw unprocessable(ACCOUNTING_MSG.selectAccount, 'account_id');
    if (input.amount > source.balance) throw unprocessable(ACCOUNTING_MSG.amountExceeds, 'amount');
    await consumeApprovalCode(deps, auth.user, 'accounting_transfer', binding(input), otp);
    try {
      return await deps.db.transaction(async (tx) => {
        // the company checked again where the money moves: a deactivation now waits for this, or stops it
        if (!(await lockActiveCompany(tx, company.id))) throw notFound(ACCOUNTING_MSG.companyNotFound);
        const row = await recordAccountingTransaction(tx, deps, {
          companyId: company.id,
          companyName: company.name,
          source,
          target,
          to,
          transferType: input.transfer_type,
          amount: input.amount,
          description: input.reference,
          transferBy: auth.user.name,
          createdBy: auth.user.id,
          idempotencyKey: `${ACCOUNTING_KEY_PREFIX}${auth.user.id}:${key}`,
        });
        const [shown] = await listRows(tx, sql`t.id = ${row.id}`, 'DESC', 1, 0);
        const result: { message: string[]; transaction: AccountingTransaction } = {
          message: [
            input.transfer_type === 'internal_transfer' ? ACCOUNTING_MSG.transferred : ACCOUNTING_MSG.transferPending,
          ],
          transaction: shown,
        };
        await complete(tx, result);
        await record?.(tx, shown);
        return result;
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw unprocessable(ACCOUNTING_MSG.amountExceeds, 'amount');
      throw err;
    }
  });
}

// ---- the provider ----

/** Sends a PENDING external 2D transaction to the provider under its own key. Safe to run again. */
export async function submitAccountingTransaction(deps: Deps, provider: ProviderClient, id: number): Promise<void> {
  const [t] = await deps.db.select().from(accountingTransactions).where(eq(accountingTransactions.id, id));
  if (!t || t.status !== 'PENDING' || t.providerId) return;
  try {
    const r = await provider.createTransfer({
      idempotency_key: t.idempotencyKey,
      iban: t.iban,
      bic: t.bic,
      amount: t.amount,
      beneficiary_name: t.beneficiaryName,
      reference: `2D${t.id}`,
    });
    await deps.db
      .update(accountingTransactions)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(accountingTransactions.id, t.id), isNull(accountingTransactions.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settleAccountingTransaction(deps, {
        idempotencyKey: t.idempotencyKey,
        status: 'Failed',
        message: err.messages[0],
      });
      return;
    }
    throw err;
  }
}

/**
 * Settles a PENDING 2D transaction exactly once: COMPLETED (in flight -> provider) or FAILED (the reserve is
 * reversed: the money returns to the company account). Late or repeated events change nothing.
 */
export async function settleAccountingTransaction(
  deps: Pick<Deps, 'db'>,
  ev: { idempotencyKey: string; providerId?: string; status: 'Completed' | 'Failed'; message?: string },
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => {
    const [row] = await t
      .update(accountingTransactions)
      .set({
        status: ev.status === 'Completed' ? 'COMPLETED' : 'FAILED',
        reason: ev.status === 'Failed' ? (ev.message ?? 'Declined by the bank') : null,
        settledAt: new Date(),
        updatedAt: new Date(),
        ...(ev.providerId ? { providerId: sql`COALESCE(${accountingTransactions.providerId}, ${ev.providerId})` } : {}),
      })
      .where(
        and(eq(accountingTransactions.idempotencyKey, ev.idempotencyKey), eq(accountingTransactions.status, 'PENDING')),
      )
      .returning();
    if (!row) return 'ignored' as const;
    if (ev.status === 'Completed') {
      await postEntry(t, {
        idempotencyKey: `2d:${row.id}:complete`,
        kind: 'accounting.complete',
        businessType: 'accounting_transaction',
        businessId: row.id,
        postings: [
          { accountId: await platformAccountId(t, 'accounting_clearing'), amount: -row.amount },
          { accountId: await platformAccountId(t, 'provider'), amount: row.amount },
        ],
      });
    } else {
      const reserve = await entryIdByKey(t, `2d:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`2D transaction ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: 'accounting.reversal', memo: row.reason ?? undefined });
    }
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

export async function accountingStatusByKey(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ status: accountingTransactions.status })
    .from(accountingTransactions)
    .where(eq(accountingTransactions.idempotencyKey, key));
  return row?.status;
}

/**
 * 2D transactions a dead process, a lost answer or a lost webhook left PENDING: one never sent is sent again
 * (same key), one the provider settled is settled from the provider's own answer.
 */
export async function recoverAccountingTransactions(deps: Deps, olderThanMs = 30_000): Promise<number> {
  const pending = await deps.db
    .select()
    .from(accountingTransactions)
    .where(
      and(
        eq(accountingTransactions.status, 'PENDING'),
        sql`${accountingTransactions.createdAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    )
    .orderBy(accountingTransactions.createdAt, accountingTransactions.id)
    .limit(200);
  let settled = 0;
  for (const t of pending) {
    const item = await deps.provider.transferByKey(t.idempotencyKey);
    if (!item) {
      await submitAccountingTransaction(deps, deps.provider, t.id);
      continue;
    }
    if (item.status !== 'Completed' && item.status !== 'Failed') continue;
    if (item.amount !== t.amount) {
      deps.log.error({ transaction: t.id, ours: t.amount, theirs: item.amount }, '2D amount differs at provider');
      continue;
    }
    const r = await settleAccountingTransaction(deps, {
      idempotencyKey: t.idempotencyKey,
      providerId: item.id,
      status: item.status,
      message: item.message,
    });
    if (r === 'applied') settled += 1;
  }
  return settled;
}

// ---- the list ----

export function accountingWhere(f: { status: string; rule_type: '' | 0 | 1 }): SQL {
  const terms = [sql`true`];
  if (f.status) terms.push(sql`t.status = ${f.status}`);
  if (f.rule_type !== '') terms.push(sql`t.rule_type = ${f.rule_type === 1 ? 'Percentage' : 'Amount'}`);
  return sql.join(terms, sql` AND `);
}

export function accountingListSql(where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number, after?: SQL): SQL {
  const order = dir === 'ASC' ? sql`t.created_at ASC, t.id ASC` : sql`t.created_at DESC, t.id DESC`;
  return sql`SELECT t.id, t.rule_id, t.rule_name, t.rule_type, t.company_name, t.beneficiary_name, t.iban, t.bic,
      t.amount, t.currency, t.transfer_by, t.account_code, t.status, t.reason, t.transfer_type, t.description,
      t.created_at,
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM accounting_transactions t
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

export interface AccountingDbRow {
  id: number | string;
  rule_id: number | null;
  rule_name: string | null;
  rule_type: string;
  company_name: string;
  beneficiary_name: string;
  iban: string;
  bic: string;
  amount: number | string;
  currency: string;
  transfer_by: string;
  account_code: string;
  status: AccountingTransaction['status'];
  reason: string | null;
  transfer_type: AccountingTransaction['transfer_type'];
  description: string;
  created_at: string | Date;
}

export const toAccountingTransaction = (r: AccountingDbRow): AccountingTransaction => ({
  id: Number(r.id),
  rule_id: r.rule_id === null ? null : Number(r.rule_id),
  rule_name: r.rule_name ?? '-',
  rule_type: r.rule_type,
  company_name: r.company_name,
  beneficiary_name: r.beneficiary_name,
  iban: r.iban,
  bic: r.bic,
  amount: Number(r.amount),
  currency: r.currency,
  transfer_by: r.transfer_by,
  account_id: r.account_code,
  status: r.status,
  reason: r.reason,
  transfer_type: r.transfer_type,
  description: r.description,
  created_at: new Date(r.created_at).toISOString(),
});

async function listRows(db: Executor, where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number) {
  return rowsOf<AccountingDbRow>(await db.execute(accountingListSql(where, dir, limit, offset))).map(
    toAccountingTransaction,
  );
}

export async function listAccountingTransactions(
  db: Executor,
  q: { status: string; rule_type: '' | 0 | 1; sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const where = accountingWhere(q);
  const [transactions, [{ total }]] = await Promise.all([
    listRows(db, where, q.sortby, q.per_page, (q.page - 1) * q.per_page),
    db
      .execute(sql`SELECT count(*) AS total FROM accounting_transactions t WHERE ${where}`)
      .then((r) => rowsOf<{ total: number | string }>(r)),
  ]);
  return { transactions, total: Number(total) };
}
