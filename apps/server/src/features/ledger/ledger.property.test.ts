import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.ts';
import { withTestDatabase } from '../../test/database.ts';
import type { Database } from '../../platform/db.ts';
import { ensurePlatformAccounts } from './accounts.ts';
import { InsufficientFunds, postEntry, reverseEntry, trialBalance } from './service.ts';
import { accounts, journalEntries, postings } from './tables.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
  await ensurePlatformAccounts(database.db);
});

async function openAccounts(n: number, overdraftEvery = 3) {
  const rows = await database.db
    .insert(accounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        accountId: `T-${randomUUID()}`,
        accountReference: 'test',
        kind: i % overdraftEvery === 0 ? 'provider_test' : 'customer_test',
        name: `test ${i}`,
        allowOverdraft: i % overdraftEvery === 0,
      })),
    )
    .returning();
  return rows;
}

// a command: an entry over 2-4 distinct accounts (by index), amounts summing to zero, a key from a small pool
const commandArb = fc
  .record({
    accounts: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 2, maxLength: 4 }),
    amounts: fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 3, maxLength: 3 }),
    key: fc.integer({ min: 0, max: 25 }),
    reverse: fc.boolean(),
  })
  .map(({ accounts: idx, amounts, key, reverse }) => {
    // the first account takes the opposite of the sum of the others
    const lines = idx.slice(1).map((a, i) => ({ index: a, amount: amounts[i] * (i % 2 === 0 ? 1 : -1) }));
    const rest = lines.reduce((s, l) => s + l.amount, 0);
    if (rest === 0) lines[0].amount += 1;
    const total = lines.reduce((s, l) => s + l.amount, 0);
    return { lines: [{ index: idx[0], amount: -total }, ...lines], key, reverse };
  });

describe('the ledger under random sequences of commands', () => {
  it('keeps every entry balanced, balances equal to postings, no forbidden overdraft, and replays move nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 5, maxLength: 40 }), async (commands) => {
        const accts = await openAccounts(6);
        const model = new Map(accts.map((a) => [a.id, 0]));
        const byKey = new Map<number, string>(); // key -> payload signature of its first successful use
        const entryOfKey = new Map<number, number>();
        const run = randomUUID();
        for (const c of commands) {
          const lines = c.lines.map((l) => ({ accountId: accts[l.index].id, amount: l.amount }));
          const signature = JSON.stringify([...lines].sort((a, b) => a.accountId - b.accountId));
          const key = `${run}:${c.key}`;
          try {
            const r = await database.db.transaction((tx) =>
              postEntry(tx, { idempotencyKey: key, kind: 'test', postings: lines }),
            );
            if (r.replayed) {
              // a replay is only answered for the very same payload, and moves nothing
              expect(byKey.get(c.key)).toBe(signature);
              expect(r.entryId).toBe(entryOfKey.get(c.key));
            } else {
              expect(byKey.has(c.key)).toBe(false);
              byKey.set(c.key, signature);
              entryOfKey.set(c.key, r.entryId);
              for (const l of lines) model.set(l.accountId, model.get(l.accountId)! + l.amount);
            }
          } catch (err) {
            if (err instanceof InsufficientFunds) {
              // refused only when a non-overdraft account would really go below zero
              const wouldGoNegative = lines.some((l) => {
                const a = accts.find((x) => x.id === l.accountId)!;
                return !a.allowOverdraft && model.get(l.accountId)! + l.amount < 0;
              });
              expect(wouldGoNegative).toBe(true);
              expect(byKey.has(c.key)).toBe(false);
            } else if (err instanceof ApiError && err.status === 409) {
              expect(byKey.has(c.key)).toBe(true);
              expect(byKey.get(c.key)).not.toBe(signature);
            } else throw err;
          }
          if (c.reverse && entryOfKey.has(c.key)) {
            // reversing a prior entry is itself idempotent
            const entryId = entryOfKey.get(c.key)!;
            const lines0 = await database.db.select().from(postings).where(eq(postings.entryId, entryId));
            try {
              const r = await database.db.transaction((tx) => reverseEntry(tx, entryId, { kind: 'test.reversal' }));
              if (!r.replayed) for (const l of lines0) model.set(l.accountId, model.get(l.accountId)! - l.amount);
            } catch (err) {
              if (!(err instanceof InsufficientFunds)) throw err;
            }
          }
        }
        const stored = await database.db
          .select()
          .from(accounts)
          .where(
            inArray(
              accounts.id,
              accts.map((a) => a.id),
            ),
          );
        for (const a of stored) {
          expect(a.balance).toBe(model.get(a.id));
          if (!a.allowOverdraft) expect(a.balance).toBeGreaterThanOrEqual(0);
        }
        const tb = await trialBalance(database.db);
        expect(tb.entries_balanced).toBe(true);
        expect(tb.balances_match_postings).toBe(true);
        expect(tb.no_overdrawn_accounts).toBe(true);
        expect(tb.total).toBe(0);
        expect(tb.balanced).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('refuses unbalanced, single-line, fractional and zero postings before anything is written', async () => {
    const [a, b] = await openAccounts(2, 1);
    const before = await trialBalance(database.db);
    const bad = [
      [
        { accountId: a.id, amount: 100 },
        { accountId: b.id, amount: -99 },
      ],
      [
        { accountId: a.id, amount: 0 },
        { accountId: b.id, amount: 0 },
      ],
      [
        { accountId: a.id, amount: 1.5 },
        { accountId: b.id, amount: -1.5 },
      ],
      [{ accountId: a.id, amount: 100 }],
    ];
    for (const lines of bad) {
      await expect(
        database.db.transaction((tx) => postEntry(tx, { idempotencyKey: randomUUID(), kind: 'test', postings: lines })),
      ).rejects.toThrow();
    }
    const after = await trialBalance(database.db);
    expect(after.entry_count).toBe(before.entry_count);
  });

  it('never lets the application update or delete a posting or an entry', async () => {
    const [a, b] = await openAccounts(2, 1);
    const r = await database.db.transaction((tx) =>
      postEntry(tx, {
        idempotencyKey: randomUUID(),
        kind: 'test',
        postings: [
          { accountId: a.id, amount: 5 },
          { accountId: b.id, amount: -5 },
        ],
      }),
    );
    await expect(
      database.db.update(postings).set({ amount: 6 }).where(eq(postings.entryId, r.entryId)),
    ).rejects.toThrow();
    await expect(database.db.delete(journalEntries).where(eq(journalEntries.id, r.entryId))).rejects.toThrow();
    // the check constraint holds even for a hand-written update of a non-overdraft account
    const [, c] = await openAccounts(2, 2);
    expect(c.allowOverdraft).toBe(false);
    await expect(database.db.execute(sql`UPDATE accounts SET balance = -1 WHERE id = ${c.id}`)).rejects.toThrow();
  });
});
