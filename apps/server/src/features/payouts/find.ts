import { and, eq, inArray, isNotNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { anyOf, type Executor } from '../../platform/db.ts';
import type { PayoutRow } from './service.ts';
import { payouts } from './tables.ts';

/** The payouts with these idempotency keys (the others are not ours). */
export async function payoutsByKeys(db: Executor, idempotencyKeys: string[]): Promise<PayoutRow[]> {
  if (!idempotencyKeys.length) return [];
  return db
    .select()
    .from(payouts)
    .where(anyOf(payouts.idempotencyKey, idempotencyKeys, 'text'));
}

/** Every payout settled here as Completed: its key, the provider's id, its status and reference. */
/**
 * The merchant transaction ids among `mtids` that a payout of the merchant already carries (a payout marked as a
 * duplicate does not count), by the unique index (merchant_id, merchant_transaction_id).
 */
export async function paidMtids(db: Executor, merchantId: number, mtids: readonly string[]): Promise<Set<string>> {
  if (!mtids.length) return new Set();
  const rows = await db
    .select({ m: payouts.merchantTransactionId })
    .from(payouts)
    .where(
      and(
        eq(payouts.merchantId, merchantId),
        inArray(payouts.merchantTransactionId, [...mtids]),
        eq(payouts.duplicateMtid, false),
      ),
    );
  return new Set(rows.map((r) => r.m));
}

export async function completedPayouts(db: Executor) {
  return db
    .select({
      key: payouts.idempotencyKey,
      providerId: payouts.providerId,
      status: payouts.status,
      reference: payouts.reference,
    })
    .from(payouts)
    .where(and(inArray(payouts.status, ['completed']), isNotNull(payouts.settledAt)));
}

const countWhere = (cond: SQL) => sql<number>`count(*) FILTER (WHERE ${cond})`.mapWith(Number);
/**
 * A subquery counting the payouts of the batch `batchId` names by outcome, for a list to join LATERAL in its own
 * statement (no round trip per row): one index range of payouts_batch_idx per batch.
 */
export function batchOutcomes(db: Executor, batchId: AnyColumn) {
  return db
    .select({
      completed: countWhere(sql`${payouts.status} = 'completed'`).as('completed'),
      failed: countWhere(sql`${payouts.status} = 'failed'`).as('failed'),
      inFlight: countWhere(sql`${payouts.status} IN ('in_flight', 'pending')`).as('in_flight'),
    })
    .from(payouts)
    .where(eq(payouts.batchId, batchId))
    .as('outcome');
}
