import { inArray, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../platform/db.ts';
import { conflict } from '../../platform/errors.ts';
import { entryRequestHash, moveBalances, netMovements, validateEntry, type EntryCommand } from './service.ts';
import { journalEntries, postings } from './tables.ts';

/**
 * Locks these accounts in id order, for a transaction about to post several entries: each entry moves its own
 * accounts in id order, but one after another they may not, and two such transactions could then wait on each
 * other. Once locked here, the entries only move rows already held. The lock is FOR NO KEY UPDATE, the one a
 * balance UPDATE takes: FOR UPDATE would also wait for the KEY SHARE lock a new payout's foreign key holds on
 * its account, while that payout's reserve waits for us (a deadlock the two-process test found).
 */
export async function lockAccounts(tx: Tx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  await tx.execute(
    sql`SELECT id FROM accounts WHERE id = ANY(${sql.param(sorted)}::int[]) ORDER BY id FOR NO KEY UPDATE`,
  );
}

/** Postings per INSERT (three parameters each: well under PostgreSQL's 65,535). */
const POSTINGS_PER_INSERT = 5000;

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
 */
export async function postEntries(tx: Tx, cmds: EntryCommand[]): Promise<{ entryId: number; replayed: boolean }[]> {
  if (!cmds.length) return [];
  for (const c of cmds) validateEntry(c);
  const keys = cmds.map((c) => c.idempotencyKey);
  if (new Set(keys).size !== keys.length) throw new Error('an idempotency key appears twice in one call');
  const hashes = cmds.map(entryRequestHash);
  const col = <T>(f: (c: EntryCommand, i: number) => T) => sql.param(cmds.map(f));
  const inserted = rowsOf<{ id: number | string; idempotency_key: string }>(
    await tx.execute(sql`
    INSERT INTO journal_entries (idempotency_key, request_hash, kind, memo, business_type, business_id, reverses_id, created_by)
    SELECT * FROM unnest(
      ${col((c) => c.idempotencyKey)}::text[], ${col((_c, i) => hashes[i])}::text[], ${col((c) => c.kind)}::text[],
      ${col((c) => c.memo ?? null)}::text[], ${col((c) => c.businessType ?? null)}::text[],
      ${col((c) => (c.businessId === undefined ? null : String(c.businessId)))}::text[],
      ${col((c) => c.reversesId ?? null)}::bigint[], ${col((c) => c.createdBy ?? null)}::int[]
    )
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id, idempotency_key`),
  );
  const fresh = new Map(inserted.map((r) => [r.idempotency_key, Number(r.id)]));

  // keys used before: a replay of the same command, or a conflict
  const results: { entryId: number; replayed: boolean }[] = new Array(cmds.length);
  const used = cmds.map((c, i) => i).filter((i) => !fresh.has(keys[i]));
  if (used.length) {
    const prior = await tx
      .select({ id: journalEntries.id, key: journalEntries.idempotencyKey, requestHash: journalEntries.requestHash })
      .from(journalEntries)
      .where(
        inArray(
          journalEntries.idempotencyKey,
          used.map((i) => keys[i]),
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

  // every account moves once, by its net over the new entries (one statement, rows locked in account order)
  const lines: { entryId: number; accountId: number; amount: number }[] = [];
  const moving: EntryCommand['postings'][] = [];
  cmds.forEach((c, i) => {
    const entryId = fresh.get(keys[i]);
    if (entryId === undefined) return;
    results[i] = { entryId, replayed: false };
    moving.push(c.postings);
    for (const p of c.postings) lines.push({ entryId, accountId: p.accountId, amount: p.amount });
  });
  await moveBalances(tx, netMovements(moving));
  for (let i = 0; i < lines.length; i += POSTINGS_PER_INSERT)
    await tx.insert(postings).values(lines.slice(i, i + POSTINGS_PER_INSERT));
  return results;
}
