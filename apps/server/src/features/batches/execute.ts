import { PAYMENT_MSG, PENDING_APPROVAL } from '@obol/contract';
import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { rowsOf, type Tx } from '../../platform/db.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { holdForApproval, needsApproval, thresholdOf } from '../approvals/service.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { accountById } from '../ledger/accounts.ts';
import { entryIdByKey, InsufficientFunds, reverseEntry } from '../ledger/service.ts';
import type { PayoutRow } from '../payouts/service.ts';
import { postReserve } from '../engine/reserve.ts';
import { submitMovements } from '../engine/submit.ts';
import { returnBatchPayout } from '../payouts/settle.ts';
import { PROVIDER_BATCH_MAX } from '../../platform/provider.ts';
import { payouts } from '../payouts/tables.ts';
import { findHolderInScope } from '../merchants/holders.ts';
import { assertPending, batchAmount, batchScopeFilter, findBatchInScope, STAGE_CHUNK } from './service.ts';
import { STAGED_ID_STRIDE, stagedIdOf } from './staged-ids.ts';
import { payoutMovement } from './payout-movement.ts';
import { returnsFromBatch } from './returns.ts';
import { batches } from './tables.ts';
import { yieldToRequests } from '../../platform/turns.ts';

const executeBinding = (batchId: string, amount: number) => ({ op: 'execute_batch', batch_id: batchId, amount });

/** The checks that give a clear answer before a code is sent or used; the transaction repeats what matters. */
async function executable(deps: Deps, auth: AuthContext, batchId: string) {
  const b = await findBatchInScope(deps.db, auth.scope, batchId);
  assertPending(b);
  const { amount, fee, counts } = await batchAmount(deps.db, b);
  assertRunnable(counts);
  const acct = await accountById(deps.db, b.accountId);
  // a batch the Admin paid from the Fee Account on a merchant's behalf is in the merchant's lists, never its to run
  if (acct?.kind === 'fee' && auth.user.role !== 'Admin') throw notFound('Account not registered');
  if (!acct || acct.balance < amount + fee) throw unprocessable('Insufficient balance');
  return { b, amount, fee };
}

function assertRunnable(counts: { pending: number; missing: number }) {
  if (counts.pending === 0) throw unprocessable('The batch has no executable transactions');
  if (counts.missing > 0) throw unprocessable('Some transactions miss required fields: fix or delete them first');
}

/** Checks the batch can run and sends the code that approves exactly this batch and total. */
export async function requestExecution(deps: Deps, auth: AuthContext, batchId: string, clientAmount?: number) {
  const { b, amount, fee } = await executable(deps, auth, batchId);
  if (clientAmount !== undefined && clientAmount !== amount) {
    throw conflict(`The batch total is now ${amount} cents; review the batch again`);
  }
  return issueApprovalCode(
    deps,
    auth.user,
    'execute_batch',
    executeBinding(b.batchId, amount),
    `batch ${b.batchId} of ${(amount / 100).toFixed(2)} EUR plus ${(fee / 100).toFixed(2)} EUR fee`,
  );
}

/** Written in the transaction of the command, so a committed reserve always has its activity record. */
export type RecordInTx = (tx: Tx, after: Record<string, unknown>) => Promise<void>;

/**
 * Confirms with the code: in one transaction the batch moves Pending -> Processing (once), its total is
 * summed again after that flip and must be the total the code approved (an edit that committed first is
 * seen here; one that comes later finds the batch no longer Pending), and total plus fee is reserved from
 * the payout account in one ledger entry. The payouts are then created and sent by jobs.
 */
export async function confirmExecution(
  deps: Deps,
  auth: AuthContext,
  batchId: string,
  code: string,
  record?: RecordInTx,
) {
  const { b, amount: approved } = await executable(deps, auth, batchId);
  await consumeApprovalCode(deps, auth.user, 'execute_batch', executeBinding(b.batchId, approved), code);
  try {
    return await deps.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(batches)
        .set({ status: 'Processing', executedAt: new Date(), updatedAt: new Date() })
        .where(and(batchScopeFilter(auth.scope), eq(batches.batchId, b.batchId), eq(batches.status, 'Pending')))
        .returning();
      if (!moved) throw conflict('The batch has already been executed');
      const { amount, fee, feeBps, counts } = await batchAmount(tx, moved);
      if (amount !== approved)
        throw conflict(
          `The batch total changed to ${amount} cents after the code was sent; review the batch and request a new code`,
        );
      assertRunnable(counts);
      await tx.update(batches).set({ amount, fee, feeBps }).where(eq(batches.batchId, b.batchId));
      await postReserve(tx, {
        kind: 'batch',
        id: b.batchId,
        clearing: 'payout_clearing',
        source: b.accountId,
        amount,
        fee,
        createdBy: auth.user.id,
      });
      // four eyes at or above the merchant's threshold: reserved, and nothing made or sent until approved
      const holder = await findHolderInScope(tx, { kind: 'all' }, b.behalfOfId);
      if (holder && needsApproval(await thresholdOf(tx, 'merchant', b.merchantId), amount)) {
        await tx.update(batches).set({ status: PENDING_APPROVAL }).where(eq(batches.batchId, b.batchId));
        const approvalId = await holdForApproval(tx, {
          kind: 'batch',
          objectId: b.batchId,
          merchantId: b.merchantId,
          holderId: holder.id,
          holderName: holder.name,
          amount,
          description: `batch ${b.batchId} (${b.fileName}), ${counts.pending} payouts`,
          makerId: auth.user.id,
          makerName: auth.user.name,
        });
        await record?.(tx, { amount, fee, status: PENDING_APPROVAL, approval_id: approvalId });
        return { amount, fee, approval_id: approvalId };
      }
      await deps.jobs.send('batch.execute', { batchId: b.batchId }, { tx });
      await record?.(tx, { amount, fee });
      return { amount, fee };
    });
  } catch (err) {
    if (err instanceof InsufficientFunds) throw unprocessable('Insufficient balance');
    throw err;
  }
}

const PAYOUT_COLUMNS = sql.raw(`merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type,
  merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key`);

/**
 * The execution job: creates the batch's payouts from its executable rows, a chunk per transaction, each
 * with its own idempotency key (a rerun creates nothing twice). A row whose merchant transaction id an
 * earlier payout of the merchant holds (the database's unique index says so, whatever raced) becomes a
 * Failed payout whose money returns in the same transaction. The payouts must sum to the reserve before
 * anything is sent; then the batch is Completed and its submission queued.
 */
export async function executeBatch(deps: Deps, batchId: string): Promise<void> {
  const [b] = await deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b || b.status !== 'Processing' || !b.executedAt) return;
  const values = (status: 'in_flight' | 'failed') => sql`
    ${b.merchantId}, ${b.behalfOfId}, ${b.accountId}, ${b.uploadedBy}, ${batchId}, 'batch',
    c.merchant_transaction_id, c.beneficiary_name, c.brand, c.obol_id, c.reference, c.amount, 0, ${b.feeBps},
    ${status}, 'batch:' || ${batchId} || ':row:' || c.row_number`;
  // the batch's rows in the file's order: its range of staged ids, which alone selects them (stagedRangeOf)
  let after = stagedIdOf(b.seq, 0);
  const end = stagedIdOf(b.seq, STAGED_ID_STRIDE - 1);
  for (;;) {
    const last = await deps.db.transaction(async (tx) => {
      const [range] = rowsOf<{ last: number | string | null }>(
        await tx.execute(sql`
          WITH chunk AS (
            SELECT * FROM staged_transactions
            WHERE id > ${after} AND id <= ${end} AND status = 'Pending'
            ORDER BY id LIMIT ${STAGE_CHUNK}
          ), ins AS (
            INSERT INTO payouts (${PAYOUT_COLUMNS}) SELECT ${values('in_flight')} FROM chunk c
            ON CONFLICT DO NOTHING
          )
          SELECT max(id) AS last FROM chunk`),
      );
      if (range?.last === null || range?.last === undefined) return null;
      const upTo = Number(range.last);
      // the rows the unique index refused: recorded as Failed duplicates, their money returned now
      const dups = rowsOf<{ id: number | string }>(
        await tx.execute(sql`
          INSERT INTO payouts (${PAYOUT_COLUMNS}, duplicate_mtid, failure_message, settled_at)
          SELECT ${values('failed')}, true, ${PAYMENT_MSG.duplicateMtid}, now()
          FROM staged_transactions c
          WHERE c.id > ${after} AND c.id <= ${upTo} AND c.status = 'Pending'
            AND NOT EXISTS (SELECT 1 FROM payouts p WHERE p.idempotency_key = 'batch:' || ${batchId} || ':row:' || c.row_number)
          ON CONFLICT (idempotency_key) DO NOTHING
          RETURNING id`),
      );
      for (const d of dups) {
        const [row] = await tx
          .select()
          .from(payouts)
          .where(eq(payouts.id, Number(d.id)));
        await returnBatchPayout(tx, row as PayoutRow, returnsFromBatch);
      }
      return upTo;
    });
    if (last === null) break;
    after = last;
    await yieldToRequests();
  }
  const [sum] = rowsOf<{ total: number | string }>(
    await deps.db.execute(sql`SELECT coalesce(sum(amount), 0) AS total FROM payouts WHERE batch_id = ${batchId}`),
  );
  if (Number(sum.total) !== b.amount) {
    // never happens while edits are guarded; if it does, nothing is sent and the batch says why
    const error = `Its payouts sum to ${sum.total} cents but ${b.amount} cents were reserved: held, nothing sent`;
    deps.log.error(
      { batchId, reserved: b.amount, payouts: Number(sum.total) },
      'batch payouts do not match its reserve',
    );
    await deps.db.update(batches).set({ error }).where(eq(batches.batchId, batchId));
    return;
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(batches)
      .set({ status: 'Completed', updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, 'Processing')));
    await deps.jobs.send('batch.submit', { batchId }, { tx, singletonKey: batchId });
  });
}

/** batch calls in flight at once (disjoint payouts: their rows never wait on each other) */
const CALLS_AT_ONCE = 4;

/**
 * Sends the batch's unsent payouts to the provider in batch calls of up to PROVIDER_BATCH_MAX, CALLS_AT_ONCE
 * at a time, each payout under its own idempotency key (so a rerun, or a retry after a lost answer, pays none
 * twice); safe to rerun.
 */
export async function submitBatch(deps: Deps, batchId: string): Promise<void> {
  let afterId = 0;
  for (;;) {
    const unsent = await deps.db
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          eq(payouts.batchId, batchId),
          eq(payouts.status, 'in_flight'),
          isNull(payouts.providerId),
          gt(payouts.id, afterId),
        ),
      )
      .orderBy(asc(payouts.id))
      .limit(PROVIDER_BATCH_MAX * CALLS_AT_ONCE);
    if (!unsent.length) return;
    afterId = unsent[unsent.length - 1].id;
    // a few calls at once: each waits mostly on the provider and the database, not on this process
    const calls: number[][] = [];
    for (let i = 0; i < unsent.length; i += PROVIDER_BATCH_MAX)
      calls.push(unsent.slice(i, i + PROVIDER_BATCH_MAX).map((p) => p.id));
    await Promise.all(calls.map((ids) => submitMovements(deps, payoutMovement, ids)));
  }
}

/**
 * A batch decided by a second person (approvals/): approved, it runs as an executed one does (Processing, its
 * payouts made and sent by the execution job); rejected, it is Declined and its reserve of total and fee returns.
 */
export const batchApproval = (deps: Pick<Deps, 'jobs'>) => ({
  async release(tx: Tx, batchId: string) {
    const [b] = await tx
      .update(batches)
      .set({ status: 'Processing', updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, PENDING_APPROVAL)))
      .returning({ batchId: batches.batchId });
    if (b) await deps.jobs.send('batch.execute', { batchId }, { tx });
  },
  async reject(tx: Tx, batchId: string, reason: string) {
    const [b] = await tx
      .update(batches)
      .set({ status: 'Declined', error: reason, updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, PENDING_APPROVAL)))
      .returning({ batchId: batches.batchId });
    if (!b) return;
    const reserve = await entryIdByKey(tx, `batch:${batchId}:reserve`);
    if (reserve === undefined) throw new Error(`batch ${batchId} has no reserve entry`);
    await reverseEntry(tx, reserve, { kind: 'batch.reversal', memo: reason });
  },
});
