import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.ts';
import type { Database } from '../../platform/db.ts';
import { rowsOf } from '../../platform/db.ts';
import { engine } from '../../test/harness.ts';
import { withTestDatabase } from '../../test/database.ts';
import { InsufficientFunds, postEntry, trialBalance, type EntryCommand } from './service.ts';
import { postEntries, writeEntries } from './batch.ts';
import { accounts } from './tables.ts';

// postEntries: many entries in one statement, each with its own idempotency key, the balances moved by their
// net per account under locks taken in id order.
let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

async function open(funding: number[]) {
  const rows = await database.db
    .insert(accounts)
    .values([
      { accountId: `B-${randomUUID()}`, accountReference: 't', kind: 'bank_test', name: 'bank', allowOverdraft: true },
      ...funding.map((_, i) => ({
        accountId: `C-${randomUUID()}`,
        accountReference: 't',
        kind: 'customer_test',
        name: `c${i}`,
        allowOverdraft: false,
      })),
    ])
    .returning();
  const [bank, ...customers] = rows;
  await database.db.transaction((tx) =>
    postEntries(
      tx,
      customers.map((c, i) => ({
        idempotencyKey: randomUUID(),
        kind: 'fund',
        postings: [
          { accountId: bank.id, amount: -funding[i] },
          { accountId: c.id, amount: funding[i] },
        ],
      })),
    ),
  );
  return { bank: bank.id, customers: customers.map((c) => c.id) };
}

const pay = (from: number, to: number, amount: number, key = randomUUID()): EntryCommand => ({
  idempotencyKey: key,
  kind: 'test.pay',
  businessType: 'test',
  businessId: key,
  postings: [
    { accountId: from, amount: -amount },
    { accountId: to, amount },
  ],
});

async function balances(ids: number[]) {
  const rows = await database.db.select().from(accounts).where(inArray(accounts.id, ids));
  return new Map(rows.map((r) => [r.id, r.balance]));
}
const entriesWithKeys = async (keys: string[]) =>
  Number(
    rowsOf<{ n: number | string }>(
      await database.db.execute(
        sql`SELECT count(*) AS n FROM journal_entries WHERE idempotency_key = ANY(${sql.param(keys)}::text[])`,
      ),
    )[0].n,
  );

describe(`postEntries (${engine})`, () => {
  it('writes every entry, answers in the order given and moves the net per account', async () => {
    const {
      bank,
      customers: [a, b],
    } = await open([1_000, 500]);
    const cmds = [pay(a, bank, 300), pay(b, a, 200), pay(a, b, 50), pay(bank, b, 10)];
    const results = await database.db.transaction((tx) => postEntries(tx, cmds));
    expect(results.map((r) => r.replayed)).toEqual([false, false, false, false]);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(4);
    // each result is the entry of its own key
    for (const [i, r] of results.entries()) {
      const [row] = rowsOf<{ key: string; n: number | string }>(
        await database.db.execute(
          sql`SELECT e.idempotency_key AS key, count(p.id) AS n
            FROM journal_entries e JOIN postings p ON p.entry_id = e.id
            WHERE e.id = ${r.entryId} GROUP BY e.id`,
        ),
      );
      expect(row.key).toBe(cmds[i].idempotencyKey);
      expect(Number(row.n)).toBe(2);
    }
    const after = await balances([a, b]);
    expect(after.get(a)).toBe(1_000 - 300 + 200 - 50);
    expect(after.get(b)).toBe(500 - 200 + 50 + 10);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('replays entries already written, per key, and writes the new ones', async () => {
    const {
      bank,
      customers: [a],
    } = await open([1_000]);
    const first = [pay(a, bank, 100), pay(a, bank, 200)];
    const r1 = await database.db.transaction((tx) => postEntries(tx, first));
    // one written by postEntry alone is replayed by postEntries too, and the other way round
    const single = pay(a, bank, 50);
    const r0 = await database.db.transaction((tx) => postEntry(tx, single));
    const next = [first[1], pay(a, bank, 400), single, first[0]];
    const r2 = await database.db.transaction((tx) => postEntries(tx, next));
    expect(r2.map((r) => r.replayed)).toEqual([true, false, true, true]);
    expect(r2[0].entryId).toBe(r1[1].entryId);
    expect(r2[2].entryId).toBe(r0.entryId);
    expect(r2[3].entryId).toBe(r1[0].entryId);
    expect((await balances([a])).get(a)).toBe(1_000 - 100 - 200 - 50 - 400);
    // every one of them again: nothing moves
    const r3 = await database.db.transaction((tx) => postEntries(tx, next));
    expect(r3.every((r) => r.replayed)).toBe(true);
    expect((await database.db.transaction((tx) => postEntry(tx, next[1]))).replayed).toBe(true);
    expect((await balances([a])).get(a)).toBe(250);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('writeEntries writes entries and moves nothing; postEntries moves them with its own (alsoMove), once', async () => {
    const {
      bank,
      customers: [a],
    } = await open([1_000]);
    const early = [pay(a, bank, 100), pay(a, bank, 200)];
    const later = [pay(a, bank, 300)];
    await database.db.transaction(async (tx) => {
      const written = await writeEntries(tx, early);
      expect(written.results.map((r) => r.replayed)).toEqual([false, false]);
      const [row] = await tx
        .select({ balance: accounts.balance })
        .from(accounts)
        .where(inArray(accounts.id, [a]));
      expect(row.balance).toBe(1_000); // written, not moved
      await postEntries(tx, later, { alsoMove: written.moving });
    });
    expect((await balances([a])).get(a)).toBe(400);
    expect(await entriesWithKeys([...early, ...later].map((c) => c.idempotencyKey))).toBe(3);
    // written again: replays, nothing to move
    await database.db.transaction(async (tx) => {
      const written = await writeEntries(tx, early);
      expect(written.results.every((r) => r.replayed)).toBe(true);
      expect(written.moving).toEqual([]);
      await postEntries(tx, [], { alsoMove: written.moving });
    });
    expect((await balances([a])).get(a)).toBe(400);
    // the non-overdraft check is on the net of both halves: 300 + 200 of 400 is refused, and leaves nothing
    const first = pay(a, bank, 300);
    const second = pay(a, bank, 200);
    const err = await database.db
      .transaction(async (tx) => {
        const written = await writeEntries(tx, [first]);
        await postEntries(tx, [second], { alsoMove: written.moving });
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect(await entriesWithKeys([first.idempotencyKey, second.idempotencyKey])).toBe(0);
    expect((await balances([a])).get(a)).toBe(400);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('answers 409 for a key used by a different request, and the call leaves nothing', async () => {
    const {
      bank,
      customers: [a],
    } = await open([1_000]);
    const used = pay(a, bank, 100);
    await database.db.transaction((tx) => postEntry(tx, used));
    const fresh = pay(a, bank, 10);
    const err = await database.db
      .transaction((tx) => postEntries(tx, [fresh, { ...used, postings: pay(a, bank, 101).postings }]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).messages).toEqual(['This idempotency key was used for a different request']);
    expect(await entriesWithKeys([fresh.idempotencyKey])).toBe(0);
    expect((await balances([a])).get(a)).toBe(900);
  });

  it('refuses the whole call when an account may not go below zero on the net, naming the lowest such account', async () => {
    const {
      bank,
      customers: [a, b],
    } = await open([100, 100]);
    const cmds = [pay(a, bank, 60), pay(b, bank, 150), pay(a, bank, 60)];
    const err = await database.db.transaction((tx) => postEntries(tx, cmds)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect((err as InsufficientFunds).accountId).toBe(Math.min(a, b));
    expect(await entriesWithKeys(cmds.map((c) => c.idempotencyKey))).toBe(0);
    const after = await balances([a, b]);
    expect(after.get(a)).toBe(100);
    expect(after.get(b)).toBe(100);
    // within one call the order does not matter: a debit beyond the balance met by a credit of the same call
    await database.db.transaction((tx) => postEntries(tx, [pay(a, bank, 150), pay(bank, a, 50)]));
    expect((await balances([a])).get(a)).toBe(0);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('refuses one key twice in a call, an unknown account and an unbalanced entry before the books change', async () => {
    const {
      bank,
      customers: [a],
    } = await open([1_000]);
    const twice = pay(a, bank, 10);
    await expect(database.db.transaction((tx) => postEntries(tx, [twice, twice]))).rejects.toThrow(/twice/);
    const ghost = 2_000_000_000;
    await expect(
      database.db.transaction((tx) => postEntries(tx, [pay(a, bank, 10), pay(a, ghost, 10)])),
    ).rejects.toThrow(`account ${ghost} does not exist`);
    // postEntry says the same (its postings' foreign key refuses the posting inside its one statement)
    await expect(database.db.transaction((tx) => postEntry(tx, pay(a, ghost, 10)))).rejects.toThrow(
      `account ${ghost} does not exist`,
    );
    await expect(
      database.db.transaction((tx) =>
        postEntries(tx, [
          pay(a, bank, 10),
          {
            idempotencyKey: randomUUID(),
            kind: 'bad',
            postings: [
              { accountId: a, amount: -10 },
              { accountId: bank, amount: 9 },
            ],
          },
        ]),
      ),
    ).rejects.toThrow(/sum/);
    expect((await balances([a])).get(a)).toBe(1_000);
    expect(await database.db.transaction((tx) => postEntries(tx, []))).toEqual([]);
  });

  it('never deadlocks nor overdraws when calls over the same accounts race', async () => {
    const { bank, customers } = await open([5_000, 5_000, 5_000, 5_000]);
    // each call: 6 entries between random customers and the bank, in a different order each time
    const calls = Array.from({ length: 40 }, (_, n) =>
      Array.from({ length: 6 }, (_, j) => {
        const x = customers[(n * 7 + j * 3) % customers.length];
        const y = customers[(n * 5 + j) % customers.length];
        const amount = 50 + ((n * 31 + j * 17) % 400);
        return j % 3 === 2 ? pay(bank, x, amount) : pay(x, x === y ? bank : y, amount);
      }),
    );
    const results = await Promise.allSettled(calls.map((c) => database.db.transaction((tx) => postEntries(tx, c))));
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientFunds);
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    const after = await balances(customers);
    for (const id of customers) expect(after.get(id)).toBeGreaterThanOrEqual(0);
    // the money moved is exactly that of the calls that succeeded
    const moved = new Map(customers.map((id) => [id, 5_000]));
    results.forEach((r, n) => {
      if (r.status !== 'fulfilled') return;
      for (const c of calls[n])
        for (const p of c.postings)
          if (moved.has(p.accountId)) moved.set(p.accountId, moved.get(p.accountId)! + p.amount);
    });
    for (const id of customers) expect(after.get(id)).toBe(moved.get(id));
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });
});
