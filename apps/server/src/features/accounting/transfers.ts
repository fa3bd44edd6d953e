import {
  ACCOUNTING_MSG,
  APPROVAL_MSG,
  type AccountingTransaction,
  type accountingOps,
  type ParsedInputOf,
} from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../platform/deps.ts';
import type { Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { withIdempotency } from '../../platform/idempotency.ts';
import { holdForApproval, needsApproval, thresholdOf } from '../approvals/service.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, InsufficientFunds, postEntry, reverseEntry } from '../ledger/service.ts';
import { lockActiveCompany, resolveTransfer, type CompanyAccountRow } from './accounts.ts';
import { listRows } from './list.ts';
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
  /** external, at or above the company's approval threshold: reserved, PENDING_APPROVAL, sent once approved */
  held?: boolean;
}

/**
 * The money of a 2D transaction, inside the caller's transaction: an external one is reserved (company account ->
 * 2D transfers in flight; the ledger's guarded debit throws InsufficientFunds beyond the balance) and a job sends
 * it to the provider (in_flight); an internal one moves between the company's two accounts (completed).
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
      status: internal ? 'completed' : t.held ? 'held' : 'in_flight',
      description: t.description,
      idempotencyKey: t.idempotencyKey,
      settledAt: internal ? new Date() : null,
    })
    .returning();
  // internal: straight to the company's other account; external: reserved in 2D in flight until the provider settles
  const step = internal ? 'internal' : 'reserve';
  const to = internal ? t.target!.ledgerAccountId : await platformAccountId(tx, 'accounting_clearing');
  await postEntry(tx, {
    idempotencyKey: `2d:${row.id}:${step}`,
    kind: `accounting.${step}`,
    businessType: 'accounting_transaction',
    businessId: row.id,
    createdBy: t.createdBy ?? undefined,
    memo: t.description,
    postings: [
      { accountId: t.source.ledgerAccountId, amount: -row.amount },
      { accountId: to, amount: row.amount },
    ],
  });
  if (!internal && !t.held) await deps.jobs.send('accounting.submit', { transactionId: row.id }, { tx });
  return row;
}

/**
 * A 2D transfer decided by a second 2D admin (approvals/): released, held -> in_flight once with its
 * submission job; rejected, rejected with the reason and its reserve returned, in the deciding transaction.
 */
export const accountingApproval = (deps: Pick<Deps, 'jobs'>) => ({
  async release(tx: Tx, objectId: string) {
    const [row] = await tx
      .update(accountingTransactions)
      .set({ status: 'in_flight', updatedAt: new Date() })
      .where(and(eq(accountingTransactions.id, Number(objectId)), eq(accountingTransactions.status, 'held')))
      .returning({ id: accountingTransactions.id });
    if (row) await deps.jobs.send('accounting.submit', { transactionId: row.id }, { tx });
  },
  async reject(tx: Tx, objectId: string, reason: string) {
    const [row] = await tx
      .update(accountingTransactions)
      .set({ status: 'rejected', reason, settledAt: new Date(), updatedAt: new Date() })
      .where(and(eq(accountingTransactions.id, Number(objectId)), eq(accountingTransactions.status, 'held')))
      .returning({ id: accountingTransactions.id });
    if (!row) return;
    const reserve = await entryIdByKey(tx, `2d:${row.id}:reserve`);
    if (reserve === undefined) throw new Error(`2D transaction ${row.id} has no reserve entry`);
    await reverseEntry(tx, reserve, { kind: 'accounting.reversal', memo: reason });
  },
});

/**
 * A 2D transfer approved by its code, once per idempotency key: the code is used up, then the row, the money
 * and the submission job commit with the stored answer and the activity record.
 */
export async function createAccountingTransfer(
  deps: Deps,
  auth: AuthContext,
  input: Transfer,
  record?: (tx: Tx, transaction: AccountingTransaction) => Promise<void>,
): Promise<{ message: string[]; transaction: AccountingTransaction; approval_id?: number }> {
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
        // four eyes on an external transfer at or above the company's threshold
        const held =
          input.transfer_type === 'external_transfer' &&
          needsApproval(await thresholdOf(tx, 'company', company.id), input.amount);
        const row = await recordAccountingTransaction(tx, deps, {
          held,
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
        const approvalId = held
          ? await holdForApproval(tx, {
              kind: '2d',
              objectId: String(row.id),
              merchantId: null,
              holderId: company.id,
              holderName: company.name,
              amount: row.amount,
              currency: row.currency,
              description: `${to.name}, IBAN ${to.iban}, ${input.reference}`,
              makerId: auth.user.id,
              makerName: auth.user.name,
            })
          : undefined;
        const result: { message: string[]; transaction: AccountingTransaction; approval_id?: number } = {
          message: [
            approvalId
              ? APPROVAL_MSG.pending
              : input.transfer_type === 'internal_transfer'
                ? ACCOUNTING_MSG.transferred
                : ACCOUNTING_MSG.transferPending,
          ],
          transaction: shown,
          ...(approvalId ? { approval_id: approvalId } : {}),
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
