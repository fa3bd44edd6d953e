import type { TrialBalance } from '@obol/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import { rowsOf } from '../../platform/db.ts';
import { ApiError, conflict } from '../../platform/errors.ts';
import { hashPayload } from '../../platform/hash.ts';
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

/**
 * Moves one account's balance by a non-zero delta of cents. A debit of an account that may not overdraw is a
 * guarded UPDATE (no row back = refused with InsufficientFunds), which is safe under any interleaving of
 * concurrent transactions; an account that does not exist is an error.
 */
export async function moveBalance(tx: Tx, accountId: number, delta: number): Promise<void> {
  const moved = await tx
    .update(accounts)
    .set({ balance: sql`${accounts.balance} + ${delta}` })
    .where(
      delta >= 0
        ? eq(accounts.id, accountId)
        : and(eq(accounts.id, accountId), sql`(${accounts.allowOverdraft} OR ${accounts.balance} + ${delta} >= 0)`),
    )
    .returning({ id: accounts.id });
  if (!moved.length) {
    const [exists] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    if (!exists) throw new Error(`account ${accountId} does not exist`);
    throw new InsufficientFunds(accountId);
  }
}

/**
 * Writes one balanced journal entry and moves the balances, inside the caller's transaction (so it commits
 * or rolls back with the business row it belongs to). An account that may not overdraw is debited with a
 * guarded UPDATE (no row back = refused), which is safe under any interleaving of concurrent transactions.
 * Accounts are updated in id order so two entries never wait on each other in a cycle.
 */
export async function postEntry(tx: Tx, cmd: EntryCommand): Promise<EntryResult> {
  validateEntry(cmd);
  const requestHash = entryRequestHash(cmd);
  const inserted = await tx
    .insert(journalEntries)
    .values({
      idempotencyKey: cmd.idempotencyKey,
      requestHash,
      kind: cmd.kind,
      memo: cmd.memo,
      businessType: cmd.businessType,
      businessId: cmd.businessId === undefined ? undefined : String(cmd.businessId),
      reversesId: cmd.reversesId,
      createdBy: cmd.createdBy,
    })
    .onConflictDoNothing({ target: journalEntries.idempotencyKey })
    .returning({ id: journalEntries.id });
  if (!inserted.length) {
    const [prior] = await tx
      .select({ id: journalEntries.id, requestHash: journalEntries.requestHash })
      .from(journalEntries)
      .where(eq(journalEntries.idempotencyKey, cmd.idempotencyKey));
    if (!prior) throw new Error('idempotency key vanished');
    if (prior.requestHash !== requestHash) throw conflict('This idempotency key was used for a different request');
    return { entryId: prior.id, replayed: true };
  }
  const entryId = inserted[0].id;

  // net the postings per account, then move balances in account order
  const net = new Map<number, number>();
  for (const p of cmd.postings) net.set(p.accountId, (net.get(p.accountId) ?? 0) + p.amount);
  for (const accountId of [...net.keys()].sort((a, b) => a - b)) {
    const delta = net.get(accountId)!;
    if (delta === 0) continue;
    await moveBalance(tx, accountId, delta);
  }
  await tx.insert(postings).values(cmd.postings.map((p) => ({ entryId, accountId: p.accountId, amount: p.amount })));
  return { entryId, replayed: false };
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
    .select({ id: accounts.id, balance: accounts.balance })
    .from(accounts)
    .where(inArray(accounts.id, ids));
  return new Map(rows.map((r) => [r.id, r.balance]));
}

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
      FROM accounts a LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM postings GROUP BY account_id) s
        ON s.account_id = a.id
      WHERE a.balance <> COALESCE(s.total, 0)
      LIMIT 100`),
  );
  const overdrawn = rowsOf<{ account_id: string; kind: string; balance: number | string }>(
    await db.execute(
      sql`SELECT account_id, kind, balance FROM accounts WHERE NOT allow_overdraft AND balance < 0 LIMIT 100`,
    ),
  );
  const byKind = rowsOf<{ kind: string; accounts: number | string; balance: number | string }>(
    await db.execute(
      sql`SELECT kind, COUNT(*) AS accounts, COALESCE(SUM(balance), 0) AS balance FROM accounts GROUP BY kind ORDER BY kind`,
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
