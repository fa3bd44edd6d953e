import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engine } from '../../test/harness.ts';
import { withTestDatabase } from '../../test/database.ts';
import type { Database } from '../../platform/db.ts';
import { balancesOf, InsufficientFunds, postEntry, trialBalance } from './service.ts';
import { accountCreditShards, accounts } from './tables.ts';

// On PostgreSQL (TEST_DATABASE_URL) these run over a pool of 20 real connections; on PGlite the same
// commands are interleaved on its one connection.
let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

/** A source and a sink that may not overdraw; `sharded`: their credits go to shard rows, as a platform account's. */
async function pair(funding: number, sharded = false) {
  const [source, sink, bank] = await database.db
    .insert(accounts)
    .values([
      {
        accountId: `S-${randomUUID()}`,
        accountReference: 't',
        kind: 'customer_test',
        name: 'source',
        allowOverdraft: false,
        shardCredits: sharded,
      },
      {
        accountId: `K-${randomUUID()}`,
        accountReference: 't',
        kind: 'customer_test',
        name: 'sink',
        allowOverdraft: false,
        shardCredits: sharded,
      },
      { accountId: `B-${randomUUID()}`, accountReference: 't', kind: 'bank_test', name: 'bank', allowOverdraft: true },
    ])
    .returning();
  await database.db.transaction((tx) =>
    postEntry(tx, {
      idempotencyKey: randomUUID(),
      kind: 'fund',
      postings: [
        { accountId: bank.id, amount: -funding },
        { accountId: source.id, amount: funding },
      ],
    }),
  );
  return { source, sink };
}

const debit = (from: number, to: number, amount: number, key = randomUUID()) =>
  database.db.transaction((tx) =>
    postEntry(tx, {
      idempotencyKey: key,
      kind: 'debit',
      postings: [
        { accountId: from, amount: -amount },
        { accountId: to, amount },
      ],
    }),
  );

const balance = async (id: number) => (await balancesOf(database.db, [id])).get(id)!;

describe.each([
  ['', false],
  [', credits sharded', true],
])(`concurrent debits racing for one balance (${engine}%s)`, (_label, sharded) => {
  it('succeed exactly as often as the money allows', async () => {
    const { source, sink } = await pair(10_000, sharded);
    const results = await Promise.allSettled(Array.from({ length: 300 }, () => debit(source.id, sink.id, 100)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientFunds).length;
    expect(ok).toBe(100);
    expect(refused).toBe(200);
    expect(await balance(source.id)).toBe(0);
    expect(await balance(sink.id)).toBe(10_000);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('never overdraw with random amounts in both directions', async () => {
    const { source, sink } = await pair(50_000, sharded);
    const amounts = Array.from({ length: 400 }, (_, i) => 1 + ((i * 7919) % 997));
    const results = await Promise.allSettled(
      amounts.map((a, i) => (i % 4 === 3 ? debit(sink.id, source.id, a) : debit(source.id, sink.id, a))),
    );
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientFunds);
    const s = { balance: await balance(source.id) };
    const k = { balance: await balance(sink.id) };
    expect(s.balance).toBeGreaterThanOrEqual(0);
    expect(k.balance).toBeGreaterThanOrEqual(0);
    expect(s.balance + k.balance).toBe(50_000);
    const moved = results.reduce(
      (sum, r, i) => (r.status === 'fulfilled' ? sum + (i % 4 === 3 ? -amounts[i] : amounts[i]) : sum),
      0,
    );
    expect(k.balance).toBe(moved);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });

  it('moves money once when the same command races with itself', async () => {
    const { source, sink } = await pair(1_000, sharded);
    const key = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => debit(source.id, sink.id, 700, key)));
    const fulfilled = results.filter((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{
      replayed: boolean;
      entryId: number;
    }>[];
    expect(fulfilled.length).toBe(50);
    expect(fulfilled.filter((r) => !r.value.replayed).length).toBe(1);
    expect(new Set(fulfilled.map((r) => r.value.entryId)).size).toBe(1);
    expect(await balance(source.id)).toBe(300);
  });

  it('moves money once when an edited command races under the same key: the others are replays or 409s', async () => {
    const { source, sink } = await pair(1_000, sharded);
    const key = randomUUID();
    const amounts = Array.from({ length: 40 }, (_, i) => (i % 2 ? 200 : 300));
    const results = await Promise.allSettled(amounts.map((a) => debit(source.id, sink.id, a, key)));
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' && !r.value.replayed ? [amounts[i]] : []));
    expect(won.length).toBe(1);
    for (const [i, r] of results.entries()) {
      if (r.status === 'fulfilled') expect(amounts[i]).toBe(won[0]);
      else expect((r.reason as { status?: number }).status).toBe(409);
    }
    expect(await balance(source.id)).toBe(1_000 - won[0]);
    expect(await balance(sink.id)).toBe(won[0]);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });
});

describe(`credits of a sharded account (${engine})`, () => {
  it("spread over the connections' shard rows, and its balance is its row plus its shards", async () => {
    const { source, sink } = await pair(100_000, true);
    await Promise.all(Array.from({ length: 200 }, () => debit(source.id, sink.id, 10)));
    const shards = await database.db
      .select()
      .from(accountCreditShards)
      .where(eq(accountCreditShards.accountId, sink.id));
    // PGlite has one connection, so one shard; a pool spreads them
    if (engine === 'postgres') expect(shards.length).toBeGreaterThan(1);
    else expect(shards.length).toBe(1);
    expect(shards.reduce((s, r) => s + r.amount, 0)).toBe(2_000);
    const [row] = await database.db.select().from(accounts).where(eq(accounts.id, sink.id));
    expect(row.balance).toBe(0);
    expect(await balance(sink.id)).toBe(2_000);
    // a debit of the sink is made on its row, against what its shards hold
    await debit(sink.id, source.id, 2_000);
    await expect(debit(sink.id, source.id, 1)).rejects.toBeInstanceOf(InsufficientFunds);
    const [after] = await database.db.select().from(accounts).where(eq(accounts.id, sink.id));
    expect(after.balance).toBe(-2_000);
    expect(await balance(sink.id)).toBe(0);
    expect((await trialBalance(database.db)).balanced).toBe(true);
  });
});
