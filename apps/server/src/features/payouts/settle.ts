import type { Tx } from '../../platform/db.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry, type EntryCommand } from '../ledger/service.ts';
import { postEntries, writeEntries } from '../ledger/batch.ts';
import type { PayoutRow } from './service.ts';

/**
 * Records that these amounts of an executed batch came back (failed payouts of it), in the caller's transaction, and
 * answers each one's share of the batch fee: batches' returnsFromBatch. Batches sit above payouts (they create them),
 * so it is handed in (batches/payout-movement.ts).
 */
export type BatchReturns = (tx: Tx, batchId: string, amounts: number[]) => Promise<number[]>;

/**
 * The ledger of payouts the engine settled together (payoutMovement's postSettled), in its transaction. Each
 * Completed payout gets its own entry (`payout:<id>:complete`: payouts in flight -> provider), written together so
 * the two platform accounts move once per call (ledger postEntries); a Failed payout of a batch returns its amount
 * and its share of the batch fee (`payout:<id>:refund`), a failed manual payout the exact opposite of its reserve.
 */
export async function payoutSettlementEntries(
  tx: Tx,
  settled: { row: PayoutRow; state: 'completed' | 'failed' }[],
  batchReturns: BatchReturns,
) {
  if (!settled.length) return;
  const completed = settled.filter((s) => s.state === 'completed').map((s) => s.row);
  const failed = settled.filter((s) => s.state === 'failed').map((s) => s.row);
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const provider = await platformAccountId(tx, 'provider');
  // Several entries in one transaction: every account they move, the manual payouts' reversals below included,
  // is locked at once, in id order (each entry alone moves its accounts in that order, but one after another they
  // would not, and could deadlock with a payout's reserve taking the same accounts). postEntries takes that lock
  // as late as it can, once the entries and their postings are written, so the platform's rows are held only from
  // there to the commit.
  const touched = new Set<number>([clearing]);
  if (completed.length) touched.add(provider);
  if (failed.length) touched.add(await platformAccountId(tx, 'fee'));
  for (const row of failed) touched.add(row.accountId);
  // one entry per payout (each traceable to its own), every account moved once by their net. The completions
  // are written first (writeEntries), before a failed payout's batch row is locked (batchReturnEntries): the
  // settlements of one batch's webhooks, several at once, each wait for that row, and now hold it only for their
  // few returns, the move and the commit, not for the writing of hundreds of entries.
  const completions = await writeEntries(
    tx,
    completed.map((r) => ({
      idempotencyKey: `payout:${r.id}:complete`,
      kind: 'payout.complete',
      businessType: 'payout',
      businessId: r.id,
      postings: [
        { accountId: clearing, amount: -r.amount },
        { accountId: provider, amount: r.amount },
      ],
    })),
  );
  const returns = await batchReturnEntries(
    tx,
    failed.filter((r) => r.payoutType === 'batch'),
    batchReturns,
  );
  await postEntries(tx, returns, { alsoLock: [...touched], alsoMove: completions.moving });
  for (const row of failed) {
    if (row.payoutType === 'batch') continue;
    // a manual payout was reserved on its own: the exact opposite of that entry returns amount and fee
    const reserve = await entryIdByKey(tx, `payout:${row.id}:reserve`);
    if (reserve === undefined) throw new Error(`payout ${row.id} has no reserve entry`);
    await reverseEntry(tx, reserve, { kind: 'payout.reversal', memo: row.failureMessage ?? undefined });
  }
}

/**
 * Returns a failed payout of an executed batch: its amount from payouts in flight, and its share of the batch
 * fee (batches' returnsFromBatch says how much, the batch row locked) from the Fee Account, to the account it
 * was paid from, in the caller's transaction.
 */
export async function returnBatchPayout(tx: Tx, row: PayoutRow, batchReturns: BatchReturns) {
  const [entry] = await batchReturnEntries(tx, [row], batchReturns);
  await postEntry(tx, entry);
  return { amount: row.amount, fee: entry.fee };
}

/**
 * The entries returning failed payouts of executed batches (returnBatchPayout's, for many at once): each batch
 * row locked once, in batch id order, and each payout's share of its batch fee as if they came back one by one
 * in payout id order. The caller posts them.
 */
async function batchReturnEntries(
  tx: Tx,
  rows: PayoutRow[],
  batchReturns: BatchReturns,
): Promise<(EntryCommand & { fee: number })[]> {
  if (!rows.length) return [];
  const byBatch = new Map<string, PayoutRow[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    if (!row.batchId) throw new Error(`payout ${row.id} belongs to no batch`);
    byBatch.set(row.batchId, [...(byBatch.get(row.batchId) ?? []), row]);
  }
  const clearing = await platformAccountId(tx, 'payout_clearing');
  const entries: (EntryCommand & { fee: number })[] = [];
  for (const batchId of [...byBatch.keys()].sort()) {
    const list = byBatch.get(batchId)!;
    const shares = await batchReturns(
      tx,
      batchId,
      list.map((r) => r.amount),
    );
    for (const [i, row] of list.entries()) {
      const share = shares[i];
      const lines = [
        { accountId: clearing, amount: -row.amount },
        { accountId: row.accountId, amount: row.amount + share },
      ];
      if (share > 0) lines.push({ accountId: await platformAccountId(tx, 'fee'), amount: -share });
      entries.push({
        idempotencyKey: `payout:${row.id}:refund`,
        kind: 'payout.reversal',
        memo: row.failureMessage ?? undefined,
        businessType: 'payout',
        businessId: row.id,
        postings: lines,
        fee: share,
      });
    }
  }
  return entries;
}
