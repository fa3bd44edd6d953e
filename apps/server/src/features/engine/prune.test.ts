import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Executor } from '../../platform/db.ts';
import type { TestApp } from '../../test/harness.ts';
import { startOutboxApp, transferByHand, type HandRows } from '../../test/outbox.ts';
import { pruneOutbox } from '../../workers.ts';
import { recordMoneyEvents } from '../activity/money.ts';
import { dispatchWebhooks } from '../webhooks/dispatch.ts';
import { eventsAfter } from './events.ts';
import { KEEP_EVENTS_DAYS } from './prune.ts';

// The outbox is pruned of what every reader has read: the webhooks' dispatch and the activity log by their
// cursors, open screens by age.
let t: TestApp;
let on: HandRows;

beforeAll(async () => {
  ({ t, ...on } = await startOutboxApp());
});
afterAll(async () => {
  await t?.close();
});

const transfer = (tx: Executor) => transferByHand(tx, on);

const eventIds = async () =>
  rowsOf<{ id: string | number }>(await t.deps.db.execute(sql`SELECT id FROM money_events ORDER BY tx, id`)).map((r) =>
    Number(r.id),
  );
const eventsOf = async (id: string) =>
  rowsOf<{ id: string | number }>(
    await t.deps.db.execute(sql`SELECT id FROM money_events WHERE kind = 'transfer' AND object_id = ${id} ORDER BY id`),
  ).map((r) => Number(r.id));
const cursors = async () => {
  const [w] = rowsOf<{ id: string }>(await t.deps.db.execute(sql`SELECT last_event_id AS id FROM webhook_cursor`));
  const [a] = rowsOf<{ id: string }>(await t.deps.db.execute(sql`SELECT last_event_id AS id FROM activity_cursor`));
  return { webhooks: Number(w.id), activity: Number(a.id) };
};
/** Both readers read to the end of the outbox. */
async function readAll() {
  const last = (await eventIds()).at(-1)!;
  for (let i = 0; i < 400; i++) {
    const c = await cursors();
    if (c.webhooks === last && c.activity === last) return;
    await dispatchWebhooks(t.deps);
    await recordMoneyEvents(t.deps);
  }
  throw new Error('the readers did not reach the end of the outbox');
}
const age = (days: number) =>
  t.deps.db.execute(sql`UPDATE money_events SET at = now() - make_interval(days => ${days})`);

describe('pruning the outbox', () => {
  it('keeps what a reader has not read, the event its cursor is at, and anything recent', async () => {
    const a = await t.deps.db.transaction((tx) => transfer(tx));
    const b = await t.deps.db.transaction((tx) => transfer(tx));
    const c = await t.deps.db.transaction((tx) => transfer(tx));
    await readAll();
    // all read, but recent: an open screen may still ask for them
    expect((await pruneOutbox(t.deps)).moneyEvents).toBe(0);
    await age(KEEP_EVENTS_DAYS + 1);

    // the activity log is behind, at b's first event: b and c stay, and it reads on from there as before
    const [bFirst, bSecond] = await eventsOf(b);
    await t.deps.db.execute(sql`UPDATE activity_cursor SET last_event_id = ${bFirst}`);
    expect((await pruneOutbox(t.deps)).moneyEvents).toBeGreaterThan(0);
    expect(await eventsOf(a)).toEqual([]);
    expect(await eventsOf(b)).toEqual([bFirst, bSecond]);
    const unread = await eventsAfter(t.deps.db, bFirst, { kind: 'all' });
    expect(unread.map((e) => e.id)).toEqual([bSecond, ...(await eventsOf(c))]);

    // every reader at the end: only the cursors' own event is left, and what comes next is read from it
    await readAll();
    await pruneOutbox(t.deps);
    const { webhooks, activity } = await cursors();
    expect(await eventIds()).toEqual([activity]);
    expect(webhooks).toBe(activity);
    const d = await t.deps.db.transaction((tx) => transfer(tx));
    expect((await eventsAfter(t.deps.db, activity, { kind: 'all' })).map((e) => e.objectId)).toEqual([d, d]);
    await readAll();
    expect(await recordMoneyEvents(t.deps)).toBe(0);
  });

  it('keeps everything while a reader has read nothing', async () => {
    await t.deps.db.transaction((tx) => transfer(tx));
    await readAll();
    await age(KEEP_EVENTS_DAYS + 1);
    const before = await eventIds();
    await t.deps.db.execute(sql`UPDATE webhook_cursor SET last_event_id = 0`);
    expect((await pruneOutbox(t.deps)).moneyEvents).toBe(0);
    expect(await eventIds()).toEqual(before);
    await t.deps.db.execute(sql`UPDATE webhook_cursor SET last_event_id = ${before.at(-1)!}`);
  });

  it("reads on from what is kept when a screen's last event was pruned", async () => {
    const gone = await t.deps.db.transaction((tx) => transfer(tx));
    const [goneId] = await eventsOf(gone);
    await t.deps.db.transaction((tx) => transfer(tx));
    await readAll();
    await age(KEEP_EVENTS_DAYS + 1);
    await pruneOutbox(t.deps);
    expect(await eventsOf(gone)).toEqual([]);
    const kept = await t.deps.db.transaction((tx) => transfer(tx));
    // a reconnect with the pruned Last-Event-ID hears what is kept, not nothing for ever
    const heard = await eventsAfter(t.deps.db, goneId, { kind: 'merchant', merchantId: on.merchant });
    expect(heard.map((e) => e.objectId)).toContain(kept);
    // an id no event ever had reads nothing, as before
    expect(await eventsAfter(t.deps.db, 10 ** 12, { kind: 'all' })).toEqual([]);
  });
});
