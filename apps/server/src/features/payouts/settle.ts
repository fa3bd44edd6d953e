import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { anyOf, rowsOf, type Tx } from '../../platform/db.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { entryIdByKey, postEntry, reverseEntry, type EntryCommand } from '../ledger/service.ts';
import { postEntries, writeEntries } from '../ledger/batch.ts';
import { returnsFromBatch } from '../batches/returns.ts';
import type { PayoutRow } from './service.ts';
import { payouts } from './tables.ts';

/** What the provider said became of a payout, by its idempotency key. */
export interface PayoutSettlement {
  idempotencyKey: string;
  providerId?: string;
  status: 'Completed' | 'Failed';
  message?: string;
}

/**
 * Settles a payout exactly once: only a Processing payout moves, to Completed (payouts in flight -> provider)
 * or Failed (the reserve is reversed: amount and fee return to the payout account). Duplicate or late
 * events find it settled and change nothing.
 */
export async function settlePayout(
  deps: Pick<Deps, 'db'>,
  ev: PayoutSettlement,
  tx?: Tx,
): Promise<'applied' | 'ignored'> {
  const run = async (t: Tx) => ((await settlePayouts(t, [ev])).has(ev.idempotencyKey) ? 'applied' : 'ignored');
  return tx ? run(tx) : deps.db.transaction(run);
}

/**
 * Settles many payouts in the caller's transaction, each exactly once, and answers the keys it applied. One
 * conditional UPDATE moves the Processing ones among them (rows locked in id order, so two settlers of
 * overlapping sets never deadlock; a payout another transaction settled first is no longer Processing and is
 * left alone). Each Completed payout gets its own entry (`payout:<id>:complete`: payouts in flight -> provider),
 * posted together so the two platform accounts move once per call (ledger postEntries); each Failed one
 * returns its money as settlePayout always did. A key twice counts once (the first).
 */
export async function settlePayouts(tx: Tx, evs: PayoutSettlement[]): Promise<Set<string>> {
  const byKey = new Map<string, PayoutSettlement>();
  for (const e of evs) if (!byKey.has(e.idempotencyKey)) byKey.set(e.idempotencyKey, e);
  const list = [...byKey.values()];
  if (!list.length) return new Set();
  const col = <T>(f: (e: PayoutSettlement) => T) => sql.param(list.map(f));
  const moved = rowsOf<{ id: number | string; key: string; status: string; amount: number | string }>(
    await tx.execute(sql`
      WITH v AS (
        SELECT * FROM unnest(${col((e) => e.idempotencyKey)}::text[], ${col((e) => e.status)}::text[],
          ${col((e) => e.message ?? null)}::text[], ${col((e) => e.providerId ?? null)}::text[])
          AS v(key, status, message, provider_id)
      ), locked AS (
        SELECT p.id FROM payouts p JOIN v ON v.key = p.idempotency_key
        WHERE p.status = 'Processing' ORDER BY p.id FOR UPDATE OF p
      )
      UPDATE payouts p SET
        status = v.status,
        failure_message = CASE WHEN v.status = 'Failed' THEN coalesce(v.message, 'Brand does not match') END,
        settled_at = now(), updated_at = now(),
        provider_id = coalesce(p.provider_id, v.provider_id)
      FROM v
      WHERE p.idempotency_key = v.key AND p.status = 'Processing' AND p.id IN (SELECT id FROM locked)
      RETURNING p.id, p.idempotency_key AS key, p.status, p.amount`),
  );
  if (!moved.length) return new Set();
  const completed = moved.filter((r) => r.status === 'Completed');
  const failedIds = moved.filter((r) => r.status === 'Failed').map((r) => Number(r.id));
  const failed = failedIds.length
    ? await tx
        .select()
        .from(payouts)
        .where(anyOf(payouts.id, failedIds, 'bigint'))
        .orderBy(payouts.id)
    : [];
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
      businessId: Number(r.id),
      postings: [
        { accountId: clearing, amount: -Number(r.amount) },
        { accountId: provider, amount: Number(r.amount) },
      ],
    })),
  );
  const returns = await batchReturnEntries(
    tx,
    failed.filter((r) => r.payoutType === 'batch'),
  );
  await postEntries(tx, returns, { alsoLock: [...touched], alsoMove: completions.moving });
  for (const row of failed) {
    if (row.payoutType === 'batch') continue;
    // a manual payout was reserved on its own: the exact opposite of that entry returns amount and fee
    const reserve = await entryIdByKey(tx, `payout:${row.id}:reserve`);
    if (reserve === undefined) throw new Error(`payout ${row.id} has no reserve entry`);
    await reverseEntry(tx, reserve, { kind: 'payout.reversal', memo: row.failureMessage ?? undefined });
  }
  return new Set(moved.map((r) => r.key));
}

/**
 * Returns a failed payout of an executed batch: its amount from payouts in flight, and its share of the batch
 * fee (batches' returnFromBatch says how much, the batch row locked) from the Fee Account, to the account it
 * was paid from, in the caller's transaction.
 */
export async function returnBatchPayout(tx: Tx, row: PayoutRow) {
  const [entry] = await batchReturnEntries(tx, [row]);
  await postEntry(tx, entry);
  return { amount: row.amount, fee: entry.fee };
}

/**
 * The entries returning failed payouts of executed batches (returnBatchPayout's, for many at once): each batch
 * row locked once, in batch id order, and each payout's share of its batch fee as if they came back one by one
 * in payout id order. The caller posts them.
 */
async function batchReturnEntries(tx: Tx, rows: PayoutRow[]): Promise<(EntryCommand & { fee: number })[]> {
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
    const shares = await returnsFromBatch(
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
