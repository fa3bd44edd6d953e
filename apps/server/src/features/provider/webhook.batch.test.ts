import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signWebhook } from '../../../../provider/src/signature.ts';
import type { Provider } from '../../../../provider/src/app.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { makePayouts } from '../../test/payouts.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderAccounts } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/service.ts';
import { journalEntries } from '../ledger/tables.ts';
import { submitMovements } from '../engine/submit.ts';
import { payoutMovement } from '../batches/payout-movement.ts';
import { payouts } from '../payouts/tables.ts';
import { providerEvents } from './tables.ts';

// Talking to the provider in batches: many payouts per call (POST /payouts/batch), and webhooks that carry many
// events ({"events": [...]}), each payout still sent, settled and booked exactly once, on its own.
let t: TestAppWithProvider;
let provider: Provider;
let merchantId: number;

beforeAll(async () => {
  // the simulator's own webhooks go nowhere: the tests post the batches themselves
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, webhooks: 'lost', provider: { settleMs: 20 } });
  provider = t.provider;
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
});
afterAll(async () => {
  await t?.close();
});

/** n manual payouts in Processing, every third to a wallet of another brand (the provider fails it) */
const make = (n: number) => makePayouts(t.deps, merchantId, n, 'BAT');
const rowsOf = async (ids: number[]) =>
  (await t.deps.db.select().from(payouts).where(inArray(payouts.id, ids))).sort((a, b) => a.id - b.id);

/** the provider's event for a payout as it stands there now */
const eventOf = (key: string, eventId = `evt_${randomUUID()}`) => {
  const item = Object.values(provider.store.data.items).find((i) => i.idempotency_key === key)!;
  return {
    event_id: eventId,
    type: item.status === 'Failed' ? 'payout.failed' : 'payout.completed',
    created_at: new Date().toISOString(),
    data: { id: item.id, idempotency_key: key, status: item.status, amount: item.amount, reference: item.reference },
  };
};
const post = (body: unknown) => {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: '/api/provider/webhook',
    headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(t.webhookSecret, raw) },
    payload: raw,
  });
};
const entryKinds = async (id: number) =>
  (
    await t.deps.db
      .select({ kind: journalEntries.kind })
      .from(journalEntries)
      .where(eq(journalEntries.businessId, String(id)))
  )
    .map((e) => e.kind)
    .sort();

describe('payouts sent to the provider in batches', () => {
  it('one call sends them all, each under its own key; a rerun sends none twice; a refused one fails with its money back', async () => {
    const before = (await holderAccounts(t.deps.db, merchantId)).payout!.balance;
    const ids = await make(30);
    const [victim] = await rowsOf([ids[5]]);
    // the provider already holds another payout under one of the keys: it refuses that one (409)
    const clash = await fetch(`${t.config.providerUrl}/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.providerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        idempotency_key: victim.idempotencyKey,
        obol_id: '100000001',
        amount: 1,
        beneficiary_name: 'Other',
        brand: 'Acme Brand',
      }),
    });
    expect(clash.status).toBe(202);
    const single = vi.spyOn(t.deps.provider, 'createPayout');
    const batch = vi.spyOn(t.deps.provider, 'createPayouts');
    try {
      await submitMovements(t.deps, payoutMovement, ids);
      await submitMovements(t.deps, payoutMovement, ids); // a rerun: nothing unsent is left
      expect(single).not.toHaveBeenCalled();
      expect(batch).toHaveBeenCalledTimes(1);
      expect(batch.mock.calls[0][0]).toHaveLength(30);
    } finally {
      single.mockRestore();
      batch.mockRestore();
    }
    const rows = await rowsOf(ids);
    for (const r of rows) {
      if (r.id === victim.id) {
        expect(r).toMatchObject({ status: 'failed', providerId: null });
        expect(r.failureMessage).toMatch(/idempotency_key/);
        expect(await entryKinds(r.id)).toEqual(['payout.reserve', 'payout.reversal']);
      } else expect(r).toMatchObject({ status: 'in_flight', providerId: expect.stringMatching(/^po_/) });
    }
    // each accepted payout is its own item at the provider
    const keys = new Set(rows.filter((r) => r.id !== victim.id).map((r) => r.idempotencyKey));
    const theirs = Object.values(provider.store.data.items).filter((i) => keys.has(i.idempotency_key));
    expect(theirs).toHaveLength(29);
    // only the refused one has returned its money so far
    const held = rows.filter((r) => r.id !== victim.id).reduce((s, r) => s + r.amount + r.fee, 0);
    expect((await holderAccounts(t.deps.db, merchantId)).payout!.balance).toBe(before - held);
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });

  it('a submission that dies after the provider took the batch is sent again: the provider replays each key, nothing is paid twice', async () => {
    const ids = await make(12);
    // the process dies after the provider's answer, before the provider ids are written (the UPDATE fails)
    const died = vi.spyOn(t.deps.db, 'execute').mockRejectedValueOnce(new Error('the process died'));
    try {
      await expect(submitMovements(t.deps, payoutMovement, ids)).rejects.toThrow('the process died');
    } finally {
      died.mockRestore();
    }
    const sent = await rowsOf(ids);
    expect(sent.every((r) => r.status === 'in_flight' && r.providerId === null)).toBe(true);
    const keys = new Set(sent.map((r) => r.idempotencyKey));
    const atProvider = () => Object.values(provider.store.data.items).filter((i) => keys.has(i.idempotency_key));
    const taken = new Map(atProvider().map((i) => [i.idempotency_key, i.id]));
    expect(taken.size).toBe(ids.length);
    // the job runs again: the same keys, answered with the payouts the provider already holds
    await submitMovements(t.deps, payoutMovement, ids);
    const rows = await rowsOf(ids);
    for (const r of rows) expect(r.providerId).toBe(taken.get(r.idempotencyKey));
    expect(atProvider()).toHaveLength(ids.length);
    // and they settle once
    provider.settleNow();
    const r = await post({ events: rows.map((p) => eventOf(p.idempotencyKey)) });
    expect(r.json().message).toEqual(rows.map(() => 'applied'));
    for (const p of rows) expect(await entryKinds(p.id)).toHaveLength(2);
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });

  it('two submissions of the same payouts at the same moment send each once and write one provider id', async () => {
    const ids = await make(25);
    const before = Object.keys(provider.store.data.items).length;
    await Promise.all([submitMovements(t.deps, payoutMovement, ids), submitMovements(t.deps, payoutMovement, ids)]);
    const rows = await rowsOf(ids);
    const keys = new Set(rows.map((r) => r.idempotencyKey));
    const theirs = Object.values(provider.store.data.items).filter((i) => keys.has(i.idempotency_key));
    // the provider holds each payout once (the second call was replayed key by key)
    expect(theirs).toHaveLength(ids.length);
    expect(Object.keys(provider.store.data.items).length - before).toBe(ids.length);
    const byKey = new Map(theirs.map((i) => [i.idempotency_key, i.id]));
    for (const r of rows) expect(r.providerId).toBe(byKey.get(r.idempotencyKey));
    provider.settleNow();
    const r = await post({ events: rows.map((p) => eventOf(p.idempotencyKey)) });
    expect(r.json().message).toEqual(rows.map(() => 'applied'));
    for (const p of rows) expect(await entryKinds(p.id)).toHaveLength(2);
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });

  it('a batched webhook settles each payout once, as the provider has it, and a replay of it moves nothing', async () => {
    const ids = await make(24);
    await submitMovements(t.deps, payoutMovement, ids);
    provider.settleNow();
    const rows = await rowsOf(ids);
    const events = rows.map((r) => eventOf(r.idempotencyKey));
    // a forged event: it says completed, but the provider failed the payout; its word is the provider's
    const forged = { ...events[2], type: 'payout.completed', data: { ...events[2].data, status: 'Completed' } };
    const batch = [
      ...events.slice(0, 2),
      forged,
      ...events.slice(3),
      events[0], // the same event again, in the same batch
      eventOf(rows[1].idempotencyKey), // another event of a payout settled by this batch
      { ...eventOf(rows[4].idempotencyKey), data: { id: 'po_nope', idempotency_key: 'not-ours' } },
      { event_id: `evt_${randomUUID()}`, type: 'transfer.completed', data: { id: 'tr_x', idempotency_key: 'nope' } },
    ];
    const r = await post({ events: batch });
    expect(r.statusCode).toBe(200);
    expect(r.json().message).toEqual([...rows.map(() => 'applied'), 'duplicate', 'ignored', 'ignored', 'ignored']);
    const after = await rowsOf(ids);
    after.forEach((p, i) => {
      expect(p.status).toBe(i % 3 === 2 ? 'failed' : 'completed');
      if (i % 3 === 2) expect(p.failureMessage).toBe('Brand does not match');
    });
    for (const p of after)
      expect(await entryKinds(p.id)).toEqual(
        p.status === 'completed' ? ['payout.complete', 'payout.reserve'] : ['payout.reserve', 'payout.reversal'],
      );
    // every event is recorded once, with its outcome
    const recorded = await t.deps.db
      .select()
      .from(providerEvents)
      .where(
        inArray(
          providerEvents.eventId,
          batch.map((e) => e.event_id),
        ),
      );
    expect(recorded).toHaveLength(batch.length - 1);
    expect(recorded.filter((e) => e.outcome === 'applied')).toHaveLength(24);
    const tb = await trialBalance(t.deps.db);
    expect(tb.balanced).toBe(true);
    // the whole batch again: every event a duplicate, nothing moves
    const again = await post({ events: batch });
    expect(again.json().message).toEqual(batch.map(() => 'duplicate'));
    expect((await trialBalance(t.deps.db)).entry_count).toBe(tb.entry_count);
  });

  it('two batches naming the same payouts at once settle each payout once', async () => {
    const ids = await make(40);
    await submitMovements(t.deps, payoutMovement, ids);
    provider.settleNow();
    const rows = await rowsOf(ids);
    // two deliveries with different event ids, in opposite orders (row locks are taken in id order: no deadlock)
    const a = rows.map((r) => eventOf(r.idempotencyKey));
    const b = rows.map((r) => eventOf(r.idempotencyKey)).reverse();
    const [ra, rb] = await Promise.all([post({ events: a }), post({ events: b })]);
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
    const applied = [...ra.json().message, ...rb.json().message].filter((m: string) => m === 'applied');
    expect(applied).toHaveLength(40);
    for (const p of await rowsOf(ids)) {
      expect(p.status).not.toBe('in_flight');
      expect(await entryKinds(p.id)).toHaveLength(2);
    }
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });

  it('refuses a malformed or oversized batch, and one signed wrong, changing nothing', async () => {
    const ids = await make(2);
    await submitMovements(t.deps, payoutMovement, ids);
    provider.settleNow();
    const rows = await rowsOf(ids);
    const events = rows.map((r) => eventOf(r.idempotencyKey));
    expect((await post({ events: [] })).statusCode).toBe(400);
    expect((await post({ events: [{ nope: 1 }] })).statusCode).toBe(400);
    expect((await post({ events: Array.from({ length: 1001 }, () => events[0]) })).statusCode).toBe(400);
    const raw = JSON.stringify({ events });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/provider/webhook',
      headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook('wrong', raw) },
      payload: raw,
    });
    expect(forged.statusCode).toBe(401);
    expect((await rowsOf(ids)).map((p) => p.status)).toEqual(['in_flight', 'in_flight']);
  });
});
