import { feeCents, MAX_AMOUNT_CENTS } from '@obol/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Tx } from '../../platform/db.ts';
import { unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { platformAccountId, type AccountRow } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry } from '../ledger/service.ts';
import { returnFromBatch } from '../batches/returns.ts';
import { payouts } from './tables.ts';

export type PayoutRow = typeof payouts.$inferSelect;

export interface NewPayout {
  merchantId: number;
  behalfOfId: number;
  account: Pick<AccountRow, 'id' | 'kind'>;
  createdBy: number;
  feeBps: number;
  batchId?: string;
  payoutType?: 'manual' | 'batch';
  merchantTransactionId: string;
  beneficiaryName: string;
  brand: string;
  obolId: string;
  reference: string;
  amount: number;
  /** one per payout; the provider sees it too, so a retry never pays twice */
  idempotencyKey: string;
}

/**
 * Creates a payout in Processing and reserves amount + fee from the payout account in one ledger entry, in
 * the caller's transaction, and enqueues its submission to the provider in the same transaction.
 */
export async function createPayout(tx: Tx, jobs: Pick<Jobs, 'send'>, p: NewPayout): Promise<PayoutRow> {
  if (!Number.isSafeInteger(p.amount) || p.amount <= 0 || p.amount > MAX_AMOUNT_CENTS) {
    throw unprocessable('Amount must be a whole number of cents above 0', 'amount');
  }
  if (p.account.kind !== 'payout' && p.account.kind !== 'fee')
    throw unprocessable('Payouts are made from a payout account', 'account_reference');
  const fee = feeCents(p.amount, p.feeBps);
  const [row] = await tx
    .insert(payouts)
    .values({
      merchantId: p.merchantId,
      behalfOfId: p.behalfOfId,
      accountId: p.account.id,
      createdBy: p.createdBy,
      batchId: p.batchId,
      payoutType: p.payoutType ?? 'manual',
      merchantTransactionId: p.merchantTransactionId,
      beneficiaryName: p.beneficiaryName,
      brand: p.brand,
      obolId: p.obolId,
      reference: p.reference,
      amount: p.amount,
      fee,
      feeBps: p.feeBps,
      status: 'Processing',
      idempotencyKey: p.idempotencyKey,
    })
    .returning();
  await reservePayout(tx, row);
  await jobs.send('payout.submit', { payoutId: row.id }, { tx });
  return row;
}

/** The reserve entry: payout account -(amount+fee), payouts in flight +amount, Fee Account +fee. */
export async function reservePayout(tx: Tx, row: PayoutRow) {
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const feeAccount = await platformAccountId(tx, 'fee');
  const lines = [
    { accountId: row.accountId, amount: -(row.amount + row.fee) },
    { accountId: clearing, amount: row.amount },
  ];
  if (row.fee > 0) lines.push({ accountId: feeAccount, amount: row.fee });
  return postEntry(tx, {
    idempotencyKey: `payout:${row.id}:reserve`,
    kind: 'payout.reserve',
    businessType: 'payout',
    businessId: row.id,
    createdBy: row.createdBy,
    postings: lines,
  });
}

/** Sends a Processing payout to the provider with its own idempotency key. Safe to run again. */
export async function submitPayout(deps: Deps, provider: ProviderClient, payoutId: number): Promise<void> {
  const [p] = await deps.db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (!p || p.status !== 'Processing' || p.providerId) return;
  try {
    const r = await provider.createPayout({
      idempotency_key: p.idempotencyKey,
      reference: p.reference,
      obol_id: p.obolId,
      amount: p.amount,
      currency: 'EUR',
      beneficiary_name: p.beneficiaryName,
      brand: p.brand,
    });
    await deps.db
      .update(payouts)
      .set({ providerId: r.id, submittedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(payouts.id, p.id), isNull(payouts.providerId)));
  } catch (err) {
    if (err instanceof ProviderRejected) {
      await settlePayout(deps, { idempotencyKey: p.idempotencyKey, status: 'Failed', message: err.messages[0] });
      return;
    }
    throw err; // unavailable: the job is retried with the same key
  }
}

/**
 * Settles a payout exactly once: only a Processing payout moves, to Completed (payouts in flight -> provider)
 * or Failed (the reserve is reversed: amount and fee return to the payout account). Duplicate or late
 * events find it settled and change nothing.
 */
export async function settlePayout(
  deps: Pick<Deps, 'db'>,
  ev: { idempotencyKey?: string; providerId?: string; status: 'Completed' | 'Failed'; message?: string },
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => {
    const where = ev.idempotencyKey
      ? eq(payouts.idempotencyKey, ev.idempotencyKey)
      : eq(payouts.providerId, ev.providerId!);
    const [row] = await t
      .update(payouts)
      .set({
        status: ev.status,
        failureMessage: ev.status === 'Failed' ? (ev.message ?? 'Brand does not match') : null,
        settledAt: new Date(),
        updatedAt: new Date(),
        ...(ev.providerId ? { providerId: sql`COALESCE(${payouts.providerId}, ${ev.providerId})` } : {}),
      })
      .where(and(where, inArray(payouts.status, ['Processing'])))
      .returning();
    if (!row) return 'ignored' as const;
    if (ev.status === 'Completed') {
      const clearing = await platformAccountId(t, 'payout_clearing');
      const provider = await platformAccountId(t, 'provider');
      await postEntry(t, {
        idempotencyKey: `payout:${row.id}:complete`,
        kind: 'payout.complete',
        businessType: 'payout',
        businessId: row.id,
        postings: [
          { accountId: clearing, amount: -row.amount },
          { accountId: provider, amount: row.amount },
        ],
      });
    } else if (row.payoutType === 'batch') {
      await returnBatchPayout(t, row);
    } else {
      // a manual payout was reserved on its own: the exact opposite of that entry returns amount and fee
      const reserve = await entryIdByKey(t, `payout:${row.id}:reserve`);
      if (reserve === undefined) throw new Error(`payout ${row.id} has no reserve entry`);
      await reverseEntry(t, reserve, { kind: 'payout.reversal', memo: row.failureMessage ?? undefined });
    }
    return 'applied' as const;
  };
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * Returns a failed payout of an executed batch: its amount from payouts in flight, and its share of the batch
 * fee (batches' returnFromBatch says how much, the batch row locked) from the Fee Account, to the account it
 * was paid from, in the caller's transaction.
 */
export async function returnBatchPayout(tx: Tx, row: PayoutRow) {
  if (!row.batchId) throw new Error(`payout ${row.id} belongs to no batch`);
  const share = await returnFromBatch(tx, row.batchId, row.amount);
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const lines = [
    { accountId: clearing, amount: -row.amount },
    { accountId: row.accountId, amount: row.amount + share },
  ];
  if (share > 0) lines.push({ accountId: await platformAccountId(tx, 'fee'), amount: -share });
  await postEntry(tx, {
    idempotencyKey: `payout:${row.id}:refund`,
    kind: 'payout.reversal',
    memo: row.failureMessage ?? undefined,
    businessType: 'payout',
    businessId: row.id,
    postings: lines,
  });
  return { amount: row.amount, fee: share };
}
