import { feeCents, MAX_AMOUNT_CENTS } from '@obol/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { anyOf, type Tx } from '../../platform/db.ts';
import { unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, type ProviderClient } from '../../platform/provider.ts';
import type { Jobs } from '../../platform/jobs.ts';
import { platformAccountId, type AccountRow } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { settlePayout, settlePayouts } from './settle.ts';
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
    const r = await provider.createPayout(providerBody(p));
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

const providerBody = (p: PayoutRow) => ({
  idempotency_key: p.idempotencyKey,
  reference: p.reference,
  obol_id: p.obolId,
  amount: p.amount,
  currency: 'EUR' as const,
  beneficiary_name: p.beneficiaryName,
  brand: p.brand,
});

/**
 * Sends these payouts (those still Processing and unsent) to the provider in batch calls, each under its own
 * idempotency key: the accepted ones get their provider id in one UPDATE, the rejected ones are settled Failed
 * with the provider's message in one transaction, as submitPayout does one at a time. Safe to run again: a
 * payout sent before is answered as the provider first took it.
 */
export async function submitPayouts(deps: Deps, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const rows = await deps.db
    .select()
    .from(payouts)
    .where(and(anyOf(payouts.id, ids, 'bigint'), eq(payouts.status, 'Processing'), isNull(payouts.providerId)))
    .orderBy(payouts.id);
  if (!rows.length) return;
  // unavailable: thrown, and the job is retried with the same keys
  const results = await deps.provider.createPayouts(rows.map(providerBody));
  const accepted = results.filter((r) => r.outcome === 'accepted');
  if (accepted.length)
    await deps.db.execute(sql`
      WITH v AS (
        SELECT * FROM unnest(${sql.param(accepted.map((r) => r.idempotency_key))}::text[],
          ${sql.param(accepted.map((r) => r.id))}::text[]) AS v(key, provider_id)
      ), locked AS (
        -- in id order, as settlePayouts locks them: the two never wait on each other in a cycle
        SELECT p.id FROM payouts p JOIN v ON v.key = p.idempotency_key
        WHERE p.provider_id IS NULL ORDER BY p.id FOR UPDATE OF p
      )
      UPDATE payouts p SET provider_id = v.provider_id, submitted_at = now(), updated_at = now()
      FROM v
      WHERE p.idempotency_key = v.key AND p.provider_id IS NULL AND p.id IN (SELECT id FROM locked)`);
  const rejected = results.flatMap((r) => (r.outcome === 'rejected' ? [r] : []));
  if (rejected.length)
    await deps.db.transaction((tx) =>
      settlePayouts(
        tx,
        rejected.map((r) => ({ idempotencyKey: r.idempotency_key, status: 'Failed' as const, message: r.messages[0] })),
      ),
    );
}
