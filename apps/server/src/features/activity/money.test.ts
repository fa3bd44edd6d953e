import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../platform/db.ts';
import { activityLog } from '../../platform/tables.ts';
import { engine, type TestApp } from '../../test/harness.ts';
import { startOutboxApp, transferByHand, type HandRows } from '../../test/outbox.ts';
import { verifyChain } from './chain.ts';
import { movedWithin } from '../engine/events.ts';
import { MONEY_EVENTS_ACTOR, recordMoneyEvents } from './money.ts';
import { listLogs } from './repo.ts';

// The activity log reads the outbox: each committed money event becomes one record, once, after its commit.
let t: TestApp;
let on: HandRows;

beforeAll(async () => {
  ({ t, ...on } = await startOutboxApp());
});
afterAll(async () => {
  await t?.close();
});

const transfer = (tx: Executor) => transferByHand(tx, on);

const recordsOf = (id: string) =>
  t.deps.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.targetType, 'transfer'), eq(activityLog.targetId, id)))
    .orderBy(asc(activityLog.seq));

/** Records until nothing is left to read (on PostgreSQL another test file's open transaction may hold events back). */
async function recordAll(until: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    await recordMoneyEvents(t.deps);
    if (await until()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the activity log of money movements', () => {
  it('records each committed event once, as links of the chain, from the outbox', async () => {
    const id = await t.deps.db.transaction((tx) => transfer(tx));
    // the command's transaction wrote the events; nothing in the log yet: it is read after the commit
    expect(await recordsOf(id)).toEqual([]);
    await recordAll(async () => (await recordsOf(id)).length >= 2);
    const records = await recordsOf(id);
    expect(records.map((r) => [r.action, r.userName, r.userId, r.before, r.detail])).toEqual([
      ['transfer.created', MONEY_EVENTS_ACTOR, null, null, 'new -> Pending'],
      ['transfer.completed', MONEY_EVENTS_ACTOR, null, { status: 'Pending' }, 'Pending -> Completed'],
    ]);
    expect(records[1].after).toMatchObject({ status: 'Completed', amount: 700, merchant_id: on.merchant });
    expect(records[1].seq).toBe(records[0].seq + 1);
    // read again: nothing new, nothing twice
    expect(await recordMoneyEvents(t.deps)).toBe(0);
    expect(await recordsOf(id)).toHaveLength(2);
    expect(await verifyChain(t.deps.db)).toMatchObject({ intact: true });
  });

  it('tells that money is moving while the newest event is young', async () => {
    // the recorder then keeps to a page a tick (workers.ts)
    await t.deps.db.transaction((tx) => transfer(tx));
    expect(await movedWithin(t.deps.db, 60_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(await movedWithin(t.deps.db, 10)).toBe(false);
  });

  it('records nothing of a rolled-back transaction', async () => {
    let rolledBack = '';
    await expect(
      t.deps.db.transaction(async (tx) => {
        rolledBack = await transfer(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await t.deps.db.transaction((tx) => transfer(tx));
    await recordAll(async () => (await recordsOf(after)).length >= 2);
    expect(await recordsOf(rolledBack)).toEqual([]);
  });

  it("shows the records to staff; a merchant's log stays its own users' records", async () => {
    const id = await t.deps.db.transaction((tx) => transfer(tx));
    await recordAll(async () => (await recordsOf(id)).length >= 2);
    const staff = await listLogs(t.deps.db, { kind: 'all' }, { page: 1, perPage: 100 });
    expect(staff.data.filter((r) => r.target?.id === id).map((r) => r.activity)).toEqual([
      'Transfer: completed',
      'Transfer: created',
    ]);
    const own = await listLogs(t.deps.db, { kind: 'merchant', merchantId: on.merchant }, { page: 1, perPage: 100 });
    expect(own.data.some((r) => r.user_name === MONEY_EVENTS_ACTOR)).toBe(false);
  });

  // two connections at once: PostgreSQL only (PGlite is one connection)
  it.skipIf(engine !== 'postgres')(
    'waits for an open transaction, and two recorders at once record each event once',
    async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let wrote!: () => void;
      const written = new Promise<void>((r) => (wrote = r));
      const open = t.deps.db.transaction(async (tx) => {
        const id = await transfer(tx);
        wrote();
        await held;
        return id;
      });
      await written;
      const later = await t.deps.db.transaction((tx) => transfer(tx));
      await recordMoneyEvents(t.deps);
      // the later commit waits behind the open transaction's events, which are not told before their commit
      expect(await recordsOf(later)).toEqual([]);
      release();
      const first = await open;
      const more = await Promise.all([...Array(4)].map(() => t.deps.db.transaction((tx) => transfer(tx))));
      const ids = [first, later, ...more];
      for (let i = 0; i < 100; i++) {
        await Promise.all([recordMoneyEvents(t.deps, 3), recordMoneyEvents(t.deps, 3)]);
        const counts = await Promise.all(ids.map(async (id) => (await recordsOf(id)).length));
        if (counts.every((n) => n >= 2)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const id of ids)
        expect((await recordsOf(id)).map((r) => r.action)).toEqual(['transfer.created', 'transfer.completed']);
      expect(await verifyChain(t.deps.db)).toMatchObject({ intact: true });
    },
  );
});
