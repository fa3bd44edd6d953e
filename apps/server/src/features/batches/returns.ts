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
  return (await returnsFromBatch(tx, batchId, [amount]))[0];
}

/**
 * returnFromBatch for several failed payouts of one batch at once: the batch row locked and updated once, and
 * each amount's share of the fee as if they had come back one after another in this order.
 */
export async function returnsFromBatch(tx: Tx, batchId: string, amounts: number[]): Promise<number[]> {
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
  let amountReturned = b.amountReturned;
  let feeReturned = b.feeReturned;
  const shares = amounts.map((amount) => {
    amountReturned += amount;
    if (amountReturned > b.amount) throw new Error(`batch ${batchId} would return more than it reserved`);
    const feeKept = b.fee - feeReturned;
    const share = feeKept - Math.min(feeKept, feeCents(b.amount - amountReturned, b.feeBps));
    feeReturned += share;
    return share;
  });
  await tx.update(batches).set({ amountReturned, feeReturned }).where(eq(batches.batchId, batchId));
  return shares;
}
