import { sql } from 'drizzle-orm';
import { anyOf, type Tx } from '../../platform/db.ts';
import { executeNamed } from '../../platform/statements.ts';
import { conflict } from '../../platform/errors.ts';
import {
  entryRequestHash,
  moveBalances,
  netMovements,
  unknownAccount,
  validateEntry,
  type EntryCommand,
} from './service.ts';
import { journalEntries } from './tables.ts';

/**
 * Locks these accounts in id order, for a transaction about to post several entries: each entry moves its own
 * accounts in id order, but one after another they may not, and two such transactions could then wait on each
 * other. Once locked here, the entries only move rows already held. The lock is FOR NO KEY UPDATE, the one a
 * balance UPDATE takes: FOR UPDATE would also wait for the KEY SHARE lock a new payout's foreign key holds on
 * its account, while that payout's reserve waits for us (a deadlock the two-process test found).
 */
async function lockAccounts(tx: Tx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await tx.execute(
    sql`SELECT id FROM accounts WHERE id = ANY(${sql.param(sorted)}::int[]) ORDER BY id FOR NO KEY UPDATE`,
  );
}

/**
 * Writes many balanced journal entries at once, in the caller's transaction: each entry exactly as postEntry
 * would write it (its own key, kind, postings and business reference, so each business row stays traceable to
 * its own entry), but every account's balance moves once, by the net of all the new entries. That is what
 * takes the platform's hot rows (the clearing and provider accounts every settlement touches) out of the path:
 * a job run settling a thousand payouts updates each of them once, not a thousand times.
 *
 * Same guarantees as postEntry: a key used before by the same command is a replay that moves nothing (its
 * entry id answered, `replayed: true`); by another command a 409; an account that may not overdraw is moved by a
 * guarded UPDATE, here checked on the account's net movement over all the entries (they commit together, so no
 * one ever sees a state in between); accounts are updated in id order, so two callers never wait in a cycle.
 * A key twice in one call is an error (the caller's bug). Answers one result per command, in order.
 *
 * The entries and their postings are written first and the balances moved last, so the accounts' rows are
 * held only from the move to the commit. `alsoLock`: accounts the caller moves after this call in the same
 * transaction; they are locked with this call's own, in id order, just before the move (and locked alone when
 * there is nothing to post). `alsoMove`: the movements of entries written earlier in the same transaction by
 * `writeEntries`, moved with this call's own.
 */
export async function postEntries(
  tx: Tx,
  cmds: EntryCommand[],
  opts: { alsoLock?: number[]; alsoMove?: Written['moving'] } = {},
): Promise<{ entryId: number; replayed: boolean }[]> {
  const { results, moving } = await writeEntries(tx, cmds);
  // every account moves once, by its net over the new entries (one statement, rows locked in account order),
  // last, so that the rows are held from here to the commit only
  const net = netMovements([...moving, ...(opts.alsoMove ?? [])]);
  if (opts.alsoLock?.length) await lockAccounts(tx, [...net.ids, ...opts.alsoLock]);
  await moveBalances(tx, net);
  return results;
}

type Written = { results: { entryId: number; replayed: boolean }[]; moving: EntryCommand['postings'][] };

/**
 * postEntries' first half: the entries and their postings written (replays and conflicts found as it says), no
 * balance moved and no account locked. Answers the results and the postings of the new entries, which the same
 * transaction must then move: `postEntries(tx, more, { alsoMove: moving })`. For a caller that has a contended row
 * to lock between the two (a batch's row, payoutSettlementEntries), so that it is held for as little as the second
 * half.
 */
export async function writeEntries(tx: Tx, cmds: EntryCommand[]): Promise<Written> {
  if (!cmds.length) return { results: [], moving: [] };
  for (const c of cmds) validateEntry(c);
  const keys = cmds.map((c) => c.idempotencyKey);
  if (new Set(keys).size !== keys.length) throw new Error('an idempotency key appears twice in one call');
  const hashes = cmds.map(entryRequestHash);
  const col = <T>(f: (c: EntryCommand, i: number) => T) => sql.param(cmds.map(f));
  const lines = cmds.flatMap((c) => c.postings.map((p) => ({ key: c.idempotencyKey, ...p })));
  const line = <T>(f: (l: (typeof lines)[number]) => T) => sql.param(lines.map(f));
  // the entries and the postings of those new (a key used before inserts neither) in one statement
  const inserted = await executeNamed<{ id: number | string; idempotency_key: string }>(
    tx,
    'obol_ledger_post_entries',
    sql`
    WITH entry AS (
      INSERT INTO journal_entries
        (idempotency_key, request_hash, kind, memo, business_type, business_id, reverses_id, created_by)
      SELECT * FROM unnest(
        ${col((c) => c.idempotencyKey)}::text[], ${col((_c, i) => hashes[i])}::text[], ${col((c) => c.kind)}::text[],
        ${col((c) => c.memo ?? null)}::text[], ${col((c) => c.businessType ?? null)}::text[],
        ${col((c) => (c.businessId === undefined ? null : String(c.businessId)))}::text[],
        ${col((c) => c.reversesId ?? null)}::bigint[], ${col((c) => c.createdBy ?? null)}::int[]
      )
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id, idempotency_key),
    lines AS (
      INSERT INTO postings (entry_id, account_id, amount)
      SELECT entry.id, l.account_id, l.amount
      FROM unnest(${line((l) => l.key)}::text[], ${line((l) => l.accountId)}::int[], ${line((l) => l.amount)}::bigint[])
        WITH ORDINALITY AS l(key, account_id, amount, n)
      JOIN entry ON entry.idempotency_key = l.key
      ORDER BY l.n)
    SELECT id, idempotency_key FROM entry`,
  ).catch(unknownAccount);
  const fresh = new Map(inserted.map((r) => [r.idempotency_key, Number(r.id)]));

  // keys used before: a replay of the same command, or a conflict
  const results: { entryId: number; replayed: boolean }[] = new Array(cmds.length);
  const used = cmds.map((c, i) => i).filter((i) => !fresh.has(keys[i]));
  if (used.length) {
    const prior = await tx
      .select({ id: journalEntries.id, key: journalEntries.idempotencyKey, requestHash: journalEntries.requestHash })
      .from(journalEntries)
      .where(
        anyOf(
          journalEntries.idempotencyKey,
          used.map((i) => keys[i]),
          'text',
        ),
      );
    const byKey = new Map(prior.map((p) => [p.key, p]));
    for (const i of used) {
      const p = byKey.get(keys[i]);
      if (!p) throw new Error('idempotency key vanished');
      if (p.requestHash !== hashes[i]) throw conflict('This idempotency key was used for a different request');
      results[i] = { entryId: p.id, replayed: true };
    }
  }

  const moving: EntryCommand['postings'][] = [];
  cmds.forEach((c, i) => {
    const entryId = fresh.get(keys[i]);
    if (entryId === undefined) return;
    results[i] = { entryId, replayed: false };
    moving.push(c.postings);
  });
  return { results, moving };
}
