import { feeCents, PAYMENT_MSG, type BatchStatus, type BatchView } from '@obol/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { findHolderInScope } from '../merchants/holders.ts';
import { accountById } from '../ledger/accounts.ts';
import { batches, stagedTransactions } from './tables.ts';

/**
 * What every use case of a batch shares: its scope, its lookup, its counts and total, and the one guard of
 * every change to a staged batch (`lockPending`). The use cases live beside: stage.ts (the staging job),
 * review.ts (edits, deletes, rename, clear) and execute.ts (the code, the reserve, the payouts).
 *
 * Lifecycle: Processing (being staged) -> Pending (staged, awaiting execution) -> Processing (executing,
 * `executed_at` set) -> Completed; Pending -> Declined (cleared) and Processing -> Declined (file refused).
 * Each transition is one conditional UPDATE in the transaction of its effect.
 */
export type BatchRow = typeof batches.$inferSelect;
export const STAGE_CHUNK = 1000;

/** Where an upload waits in the file store until its staging job has read it. */
export const uploadKey = (batchId: string, format: string) => `uploads/${batchId}.${format}`;

/** Batches a scope may see: staff all; a merchant (team) its own; a brand those made on its behalf. */
export const batchScopeFilter = (scope: Scope): SQL => tenantFilter(scope, batches.merchantId, batches.behalfOfId);

export async function findBatchInScope(db: Executor, scope: Scope, batchId: string): Promise<BatchRow> {
  const [b] = await db
    .select()
    .from(batches)
    .where(and(batchScopeFilter(scope), eq(batches.batchId, batchId)))
    .limit(1);
  if (!b) throw notFound('Batch not found');
  return b;
}

/** A batch as its review page shows it. */
export async function batchView(db: Executor, batchId: string): Promise<BatchView> {
  const [b] = await db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b) throw notFound('Batch not found');
  return {
    batch_id: b.batchId,
    file_name: b.fileName,
    batch_status: b.status as BatchStatus,
    total_rows: b.totalRows,
    processed_rows: b.processedRows,
  };
}

/** Only a staged batch awaiting execution may be edited, cleared or executed. */
export function assertPending(b: Pick<BatchRow, 'status'>) {
  if (b.status === 'Processing') throw conflict(PAYMENT_MSG.batchProcessing);
  if (b.status !== 'Pending') throw conflict(`The batch is ${b.status} and can no longer be changed`);
}

/**
 * The guard of every change to a staged batch, inside the change's own transaction: a conditional UPDATE
 * of the batch row that only matches while it is Pending. It locks the row until the transaction ends, so
 * an execution confirmed at the same moment either waits for the change (and then sees it) or has already
 * moved the batch on (and the change is refused). A status read earlier would be a race.
 */
export async function lockPending(tx: Tx, scope: Scope, batchId: string): Promise<BatchRow> {
  const [b] = await tx
    .update(batches)
    .set({ updatedAt: new Date() })
    .where(and(batchScopeFilter(scope), eq(batches.batchId, batchId), eq(batches.status, 'Pending')))
    .returning();
  if (b) return b;
  // say why: not in scope (404, as a batch that does not exist) or no longer Pending (409)
  assertPending(await findBatchInScope(tx, scope, batchId));
  throw conflict('The batch can no longer be changed');
}

export async function batchCounts(db: Executor, batchId: string) {
  const [c] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Pending')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Failed')`.mapWith(Number),
      missing: sql<number>`count(*) filter (where ${stagedTransactions.missing} > 0)`.mapWith(Number),
      amount:
        sql<number>`coalesce(sum(${stagedTransactions.amount}) filter (where ${stagedTransactions.status} = 'Pending'), 0)`.mapWith(
          Number,
        ),
    })
    .from(stagedTransactions)
    .where(eq(stagedTransactions.batchId, batchId));
  return c;
}

/** Total and batch fee of the executable rows: the fee is applied on the summed amount. */
export async function batchAmount(db: Executor, b: BatchRow) {
  const c = await batchCounts(db, b.batchId);
  const feeBps = await batchFeeBps(db, b);
  return { amount: c.amount, fee: feeCents(c.amount, feeBps), feeBps, counts: c };
}

async function batchFeeBps(db: Executor, b: BatchRow) {
  const acct = await accountById(db, b.accountId);
  if (acct?.kind === 'fee') return 0;
  const holder = await findHolderInScope(db, { kind: 'all' }, b.behalfOfId);
  return holder?.feeBps ?? 0;
}

/** Non-word characters are stripped; the .csv suffix is dropped for display. */
export const cleanFileName = (name: string) => name.replace(/\.(csv|xlsx)$/i, '').replace(/\W+/g, '');
