import type { CurrentBatch } from '@obol/contract';
import { and, desc, eq, isNull, or } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import { accountById } from '../ledger/accounts.ts';
import { userNameOf } from '../users/repo.ts';
import { batches } from './tables.ts';

/**
 * The batch the user was working on: the newest one they uploaded that is staged and awaiting review
 * (Pending) or still being staged (Processing, not executed), so a new sign-in resumes it.
 */
export async function currentBatchOf(db: Executor, userId: number): Promise<CurrentBatch | null> {
  const [b] = await db
    .select({
      batchId: batches.batchId,
      fileName: batches.fileName,
      status: batches.status,
      behalfOfId: batches.behalfOfId,
      accountId: batches.accountId,
    })
    .from(batches)
    .where(
      and(
        eq(batches.uploadedBy, userId),
        eq(batches.payoutType, 'Batch Payout'),
        or(eq(batches.status, 'Pending'), and(eq(batches.status, 'Processing'), isNull(batches.executedAt))),
      ),
    )
    .orderBy(desc(batches.createdAt))
    .limit(1);
  if (!b) return null;
  const behalf = await userNameOf(db, b.behalfOfId);
  const account = await accountById(db, b.accountId);
  if (!behalf || !account) return null;
  return {
    batch_id: b.batchId,
    merchant_name: behalf.name,
    file_name: b.fileName,
    account_reference: account.accountReference,
    batch_status: b.status,
  };
}
