import { PENDING_APPROVAL } from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db.ts';
import { batches } from './tables.ts';

/** A manual payout's batch row (a batch of one), inserted in the payout's transaction by the payments stepper. */
export async function insertManualBatch(
  tx: Tx,
  row: Omit<typeof batches.$inferInsert, 'payoutType' | 'totalRows' | 'processedRows'>,
): Promise<void> {
  await tx.insert(batches).values({ ...row, payoutType: 'Manual Payout', totalRows: 1, processedRows: 1 });
}

/** A held manual payout's batch, decided with its payout: Completed when approved, Declined when rejected. */
export async function settleManualBatch(tx: Tx, batchId: string, status: 'Completed' | 'Declined'): Promise<void> {
  await tx
    .update(batches)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(batches.batchId, batchId), eq(batches.status, PENDING_APPROVAL)));
}
