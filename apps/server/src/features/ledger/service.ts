import type { TrialBalance } from '@obol/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import { rowsOf } from '../../platform/db.ts';
import { executeNamed } from '../../platform/statements.ts';
import { ApiError, conflict } from '../../platform/errors.ts';
import { hashPayload } from '../../platform/hash.ts';
import { accountBalance } from './accounts.ts';
import { accounts, journalEntries, postings } from './tables.ts';

export interface Posting {
  accountId: number;
  /** signed cents: positive raises the account's balance, negative lowers it */
  amount: number;
}

export interface EntryCommand {
  /** one per user action or work item: a replay moves nothing */
  idempotencyKey: string;
  kind: string;
  postings: Posting[];
  memo?: string;
  businessType?: string;
  businessId?: string | number;
  reversesId?: number;
  createdBy?: number;
}

export interface EntryResult {
  entryId: number;
  /** true when the key had been used by the same command before: nothing moved now */
  replayed: boolean;
}

/** Refused because an account that may not overdraw would go below zero. */
export class InsufficientFunds extends ApiError {
  readonly accountId: number;
  constructor(accountId: number) {
    super(422, ['Insufficient balance']);
    this.accountId = accountId;
  }
}

/** Refuses a malformed command: no key, under two postings, an amount not whole non-zero cents, a non-zero sum. */
export function validateEntry(cmd: EntryCommand) {
  if (!cmd.idempotencyKey || cmd.idempotencyKey.length > 200) throw new Error('an idempotency key is required');
  if (cmd.postings.length < 2) throw new Error('an entry needs at least two postings');
  let sum = 0n;
  for (const p of cmd.postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0)
      throw new Error(`posting amount ${p.amount} is not whole non-zero cents`);
    sum += BigInt(p.amount);
  }
  if (sum !== 0n) throw new Error(`postings sum to ${sum}, not zero`);
}

/** The request hash of an entry command: postEntry's and postEntries', so either may replay the other's key. */
export function entryRequestHash(cmd: EntryCommand): string {
  return hashPayload({
    kind: cmd.kind,
    postings: [...cmd.postings].sort((a, b) => a.accountId - b.accountId || a.amount - b.amount),
    businessType: cmd.businessType ?? null,
    businessId: cmd.businessId === undefined ? null : String(cmd.businessId),
  });
}

/** Each account's net movement over some postings, without the zeros, in account id order. */
export function netMovements(postingLists: Iterable<Posting[]>): { ids: number[]; deltas: number[] } {
  const net = new Map<number, number>();
  for (const list of postingLists) for (const p of list) net.set(p.accountId, (net.get(p.accountId) ?? 0) + p.amount);
  const ids = [...net.keys()].filter((id) => net.get(id) !== 0).sort((x, y) => x - y);
  const deltas = ids.map((id) => net.get(id)!);
  for (let i = 0; i < ids.length; i++)
    if (!Number.isSafeInteger(deltas[i]))
      throw new Error(`account ${ids[i]} would move by ${deltas[i]}: not safe cents`);
  return { ids, deltas };
}

/** The accounts that did not move: an error when one does not exist, else InsufficientFunds for the first. */
async function refused(tx: Tx, ids: number[], moved: (number | string)[]): Promise<never> {
  const done = new Set(moved.map(Number));
  const missing = ids.filter((id) => !done.has(id));
  const found = new Set(
    (await tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, missing))).map((r) => r.id),
  );
  const gone = missing.find((id) => !found.has(id));
  if (gone !== undefined) throw new Error(`account ${gone} does not exist`);
  throw new InsufficientFunds(missing[0]);
}

/**
 * A posting to an account that does not exist fails on the postings' foreign key (inside the statement that
 * writes them): said as the ledger says it. Any other error is thrown on as it is.
 */
export function unknownAccount(e: unknown): never {
  const err = e as { cause?: { code?: string; detail?: string } } & { code?: string; detail?: string };
  const db = err?.cause?.code ? err.cause : err;
  const id = db?.code === '23503' ? /\(account_id\)=\((\d+)\)/.exec(db.detail ?? '')?.[1] : undefined;
  if (id) throw new Error(`account ${id} does not exist`);
  throw e;
}

/**
 * Moves accounts' balances by their net movements (netMovements) in one call of ledger_move_balances (migration
 * 0022): the accounts' own rows first, in account id order (every debit, guarded: an account that may not
 * overdraw is refused with InsufficientFunds; a credit of an account whose credits are not sharded), then the
 * platform accounts' credits, each to this connection's credit shard (tables.ts). Each of its statements has
 * its own snapshot, as separate statements would.
 */
export async function moveBalances(tx: Tx, net: { ids: number[]; deltas: number[] }): Promise<void> {
  if (!net.ids.length) return;
  const [row] = await executeNamed<{ moved: (number | string)[] }>(
    tx,
    'obol_ledger_move_balances',
    sql`SELECT ledger_move_balances(${sql.param(net.ids)}::int[], ${sql.param(net.deltas)}::bigint[]) AS moved`,
  );
  if (row.moved.length !== net.ids.length) await refused(tx, net.ids, row.moved);
}

/**
 * Writes one balanced journal entry and moves the balances, inside the caller's transaction (so it commits
 * or rolls back with the business row it belongs to), in one statement: the entry, its postings and every
 * account's net movement (as moveBalances: guarded debits, rows in account id order, platform credits to their
 * shards). A key used before moves nothing: the same command is a replay, another a 409.
 */
export async function postEntry(tx: Tx, cmd: EntryCommand): Promise<EntryResult> {
  validateEntry(cmd);
  const requestHash = entryRequestHash(cmd);
  const net = netMovements([cmd.postings]);
  const accountIds = sql.param(cmd.postings.map((p) => p.accountId));
  const amounts = sql.param(cmd.postings.map((p) => p.amount));
  const [row] = await executeNamed<{ id: number | string; moved: (number | string)[] }>(
    tx,
    'obol_ledger_post_entry',
    sql`
    WITH entry AS (
      INSERT INTO journal_entries
        (idempotency_key, request_hash, kind, memo, business_type, business_id, reverses_id, created_by)
      VALUES (${cmd.idempotencyKey}, ${requestHash}, ${cmd.kind}, ${cmd.memo ?? null}, ${cmd.businessType ?? null},
        ${cmd.businessId === undefined ? null : String(cmd.businessId)}, ${cmd.reversesId ?? null}::bigint,
        ${cmd.createdBy ?? null}::int)
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id),
    lines AS (
      INSERT INTO postings (entry_id, account_id, amount)
      SELECT entry.id, l.account_id, l.amount
      FROM entry, unnest(${accountIds}::int[], ${amounts}::bigint[]) AS l(account_id, amount))
    SELECT id, ledger_move_balances(${sql.param(net.ids)}::int[], ${sql.param(net.deltas)}::bigint[]) AS moved
    FROM entry`,
  ).catch(unknownAccount);
  if (!row) {
    const [prior] = await tx
      .select({ id: journalEntries.id, requestHash: journalEntries.requestHash })
      .from(journalEntries)
      .where(eq(journalEntries.idempotencyKey, cmd.idempotencyKey));
    if (!prior) throw new Error('idempotency key vanished');
    if (prior.requestHash !== requestHash) throw conflict('This idempotency key was used for a different request');
    return { entryId: prior.id, replayed: true };
  }
  if (row.moved.length !== net.ids.length) await refused(tx, net.ids, row.moved);
  return { entryId: Number(row.id), replayed: false };
}

/** The id of the entry posted under an idempotency key; undefined when none was. */
export async function entryIdByKey(db: Executor, idempotencyKey: string): Promise<number | undefined> {
  const [entry] = await db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.idempotencyKey, idempotencyKey));
  return entry?.id;
}

/** Posts the exact opposite of an entry, once (its key derives from the original's). */
export async function reverseEntry(
  tx: Tx,
  entryId: number,
  opts: { kind: string; memo?: string; createdBy?: number },
): Promise<EntryResult> {
  const [entry] = await tx.select().from(journalEntries).where(eq(journalEntries.id, entryId));
  if (!entry) throw new Error(`entry ${entryId} does not exist`);
  const lines = await tx.select().from(postings).where(eq(postings.entryId, entryId));
  return postEntry(tx, {
    idempotencyKey: `reversal:${entryId}`,
    kind: opts.kind,
    memo: opts.memo,
    businessType: entry.businessType ?? undefined,
    businessId: entry.businessId ?? undefined,
    reversesId: entryId,
    createdBy: opts.createdBy,
    postings: lines.map((l) => ({ accountId: l.accountId, amount: -l.amount })),
  });
}

export async function balancesOf(db: Executor, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: accounts.id, balance: accountBalance })
    .from(accounts)
    .where(inArray(accounts.id, ids));
  return new Map(rows.map((r) => [r.id, r.balance]));
}

/** Every account with its balance (its row's plus its credit shards'), for the trial balance's checks. */
const BALANCES = sql`
  SELECT a.id, a.account_id, a.kind, a.allow_overdraft, a.balance + COALESCE(c.total, 0) AS balance
  FROM accounts a LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM account_credit_shards GROUP BY account_id) c
    ON c.account_id = a.id`;

/** Checks the books: every entry sums to zero, every stored balance equals its postings, totals per kind. */
export async function trialBalance(db: Executor): Promise<TrialBalance> {
  const unbalanced = rowsOf<{ entry_id: number | string; sum: number | string }>(
    await db.execute(sql`
      SELECT e.id AS entry_id, COALESCE(SUM(p.amount), 0) AS sum
      FROM journal_entries e LEFT JOIN postings p ON p.entry_id = e.id
      GROUP BY e.id HAVING COALESCE(SUM(p.amount), 0) <> 0 OR COUNT(p.id) < 2
      LIMIT 100`),
  );
  const mismatched = rowsOf<{
    account_id: string;
    kind: string;
    balance: number | string;
    postings_sum: number | string;
  }>(
    await db.execute(sql`
      SELECT a.account_id, a.kind, a.balance, COALESCE(s.total, 0) AS postings_sum
      FROM (${BALANCES}) a LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM postings GROUP BY account_id) s
        ON s.account_id = a.id
      WHERE a.balance <> COALESCE(s.total, 0)
      LIMIT 100`),
  );
  const overdrawn = rowsOf<{ account_id: string; kind: string; balance: number | string }>(
    await db.execute(
      sql`SELECT account_id, kind, balance FROM (${BALANCES}) a WHERE NOT allow_overdraft AND balance < 0 LIMIT 100`,
    ),
  );
  const byKind = rowsOf<{ kind: string; accounts: number | string; balance: number | string }>(
    await db.execute(
      sql`SELECT kind, COUNT(*) AS accounts, COALESCE(SUM(balance), 0) AS balance
        FROM (${BALANCES}) a GROUP BY kind ORDER BY kind`,
    ),
  );
  const [counts] = rowsOf<{ entries: number | string; postings: number | string }>(
    await db.execute(
      sql`SELECT (SELECT COUNT(*) FROM journal_entries) AS entries, (SELECT COUNT(*) FROM postings) AS postings`,
    ),
  );
  const totals = byKind.map((r) => ({ kind: r.kind, accounts: Number(r.accounts), balance: Number(r.balance) }));
  const total = totals.reduce((s, r) => s + r.balance, 0);
  const result: TrialBalance = {
    balanced: false,
    entries_balanced: unbalanced.length === 0,
    balances_match_postings: mismatched.length === 0,
    no_overdrawn_accounts: overdrawn.length === 0,
    entry_count: Number(counts.entries),
    posting_count: Number(counts.postings),
    totals_by_kind: totals,
    total,
    unbalanced_entries: unbalanced.map((r) => ({ entry_id: Number(r.entry_id), sum: Number(r.sum) })),
    mismatched_accounts: mismatched.map((r) => ({
      ...r,
      balance: Number(r.balance),
      postings_sum: Number(r.postings_sum),
    })),
    overdrawn_accounts: overdrawn.map((r) => ({ ...r, balance: Number(r.balance) })),
  };
  result.balanced =
    result.entries_balanced && result.balances_match_postings && result.no_overdrawn_accounts && total === 0;
  return result;
}
