import { feeCents } from '@obol/contract';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db.ts';
import { batches } from './tables.ts';

/**
 * Records that `amount` of an executed batch came back (a failed payout of it), in the caller's transaction,
 * and returns the share of the batch fee that goes back with it. The batch row is locked while its returned
 * totals move, so the fee kept always equals the fee on the amount still paid (fee(total - returned)): the
 * shares of any set of failures, in any order, add up to exactly the difference.
 */
export async function returnFromBatch(tx: Tx, batchId: string, amount: number): Promise<number> {
  const [b] = await tx
    .select({
      amount: batches.amount,
      fee: batches.fee,
      feeBps: batches.feeBps,
      amountReturned: batches.amountReturned,
      feeReturned: batches.feeReturned,
    })
    .from(batches)
    .where(eq(batches.batchId, batchId))
    .for('update');
  const amountReturned = b.amountReturned + amount;
  if (amountReturned > b.amount) throw new Error(`batch ${batchId} would return more than it reserved`);
  const feeKept = b.fee - b.feeReturned;
  const share = feeKept - Math.min(feeKept, feeCents(b.amount - amountReturned, b.feeBps));
  await tx
    .update(batches)
    .set({ amountReturned, feeReturned: b.feeReturned + share })
    .where(eq(batches.batchId, batchId));
  return share;
}
