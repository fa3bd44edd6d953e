import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_BATCH_MAX, type Provider } from './app.ts';
import { JOURNAL_FILE } from './store.ts';
import { verifyWebhookSignature } from './signature.ts';
import {
  SECRET,
  payoutBody,
  startProvider,
  startReceiver,
  uniqueKey,
  waitFor,
  type Answer,
  type Receiver,
} from './test-support.ts';

// Batch payouts (POST /payouts/batch) and batched webhook deliveries (webhookBatchSize > 1).
let receiver: Receiver;
let provider: Provider;
let call: (method: string, path: string, body?: unknown, key?: string | null) => Promise<Answer>;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ provider, call } = await startProvider(receiver.url, { webhookBatchSize: 50, settleMs: 100 }));
});
afterAll(async () => {
  await provider?.close();
  await receiver?.close();
});

describe('POST /payouts/batch', () => {
  it('accepts each payout under its own key, answers each in order, and settles each with its own event', async () => {
    const items = Array.from({ length: 120 }, (_, i) =>
      payoutBody({ amount: 100 + i, ...(i % 10 === 3 ? { obol_id: '900000001' } : {}) }),
    );
    const r = await call('POST', '/payouts/batch', { items });
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(120);
    r.body.results.forEach((res: any, i: number) => {
      expect(res).toMatchObject({
        idempotency_key: items[i].idempotency_key,
        outcome: 'accepted',
        payout: { status: 'Processing', amount: 100 + i, idempotency_key: items[i].idempotency_key },
      });
    });
    // each is its own payout at the provider
    expect(new Set(r.body.results.map((x: any) => x.payout.id)).size).toBe(120);
    const mine = new Set(items.map((i) => i.idempotency_key));
    await waitFor(() => receiver.received.filter((e) => mine.has(e.event.data.idempotency_key)).length === 120);
    const events = receiver.received.filter((e) => mine.has(e.event.data.idempotency_key));
    // one event per payout, its outcome its own
    for (const [i, item] of items.entries()) {
      const ev = events.filter((e) => e.event.data.idempotency_key === item.idempotency_key);
      expect(ev).toHaveLength(1);
      expect(ev[0].event.type).toBe(i % 10 === 3 ? 'payout.failed' : 'payout.completed');
      if (i % 10 === 3) expect(ev[0].event.data.message).toBe('Invalid Obol Id');
    }
    // delivered in batches: fewer POSTs than events, each at most 50 events, each signed whole
    const bodies = new Set(events.map((e) => e.body));
    expect(bodies.size).toBeLessThan(120);
    for (const b of bodies) {
      const parsed = JSON.parse(b);
      expect(parsed.events.length).toBeGreaterThan(0);
      expect(parsed.events.length).toBeLessThanOrEqual(50);
      const sig = events.find((e) => e.body === b)!.sig;
      expect(verifyWebhookSignature(SECRET, sig, b)).toBe(true);
    }
  });

  it('replays a key sent before, refuses a changed payout under a used key and a bad field, item by item', async () => {
    const first = payoutBody();
    const one = await call('POST', '/payouts', first);
    expect(one.status).toBe(202);
    const fresh = payoutBody();
    const r = await call('POST', '/payouts/batch', {
      items: [first, { ...first, idempotency_key: uniqueKey('x'), amount: 0 }, fresh],
    });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ outcome: 'replayed', payout: { id: one.body.id } });
    expect(r.body.results[1]).toMatchObject({
      outcome: 'rejected',
      status: 400,
      fields: { amount: [expect.any(String)] },
    });
    expect(r.body.results[2]).toMatchObject({ outcome: 'accepted', idempotency_key: fresh.idempotency_key });
    const changed = await call('POST', '/payouts/batch', { items: [{ ...first, amount: 999 }] });
    expect(changed.body.results[0]).toMatchObject({ outcome: 'rejected', status: 409 });
    // the whole call again: every accepted one is replayed, not created twice
    const again = await call('POST', '/payouts/batch', { items: [fresh] });
    expect(again.body.results[0]).toMatchObject({ outcome: 'replayed', payout: { id: r.body.results[2].payout.id } });
  });

  it('refuses a malformed batch whole, naming items', async () => {
    for (const body of [
      {},
      { items: [] },
      { items: 'x' },
      { items: [1] },
      { items: Array.from({ length: PAYOUT_BATCH_MAX + 1 }, () => payoutBody()) },
    ]) {
      const r = await call('POST', '/payouts/batch', body);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body.fields)).toEqual(['items']);
    }
    const dup = payoutBody();
    const r = await call('POST', '/payouts/batch', { items: [dup, { ...dup }] });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual(['each idempotency_key may appear once in a batch']);
    // nothing of a refused batch was kept
    expect((await call('GET', `/payouts?idempotency_key=${dup.idempotency_key}`)).status).toBe(404);
  });

  it('settles the payouts accepted together in one journal line, each with its own outcome and event', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-provider-batch-'));
    const own = await startProvider(receiver.url, { dataDir, settleMs: 100 });
    try {
      const items = Array.from({ length: 200 }, (_, i) => payoutBody(i % 20 === 5 ? { obol_id: '900000001' } : {}));
      expect((await own.call('POST', '/payouts/batch', { items })).status).toBe(200);
      const mine = new Set(items.map((i) => i.idempotency_key));
      await waitFor(() => receiver.received.filter((e) => mine.has(e.event.data.idempotency_key)).length === 200);
      const settlements = readFileSync(path.join(dataDir, JOURNAL_FILE), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"settled_at"') && l.includes('"delivery"'))
        .map((l) => JSON.parse(l) as { ops: { item?: { status: string; message?: string } }[] });
      // accepted in one call, due in the same tick (or two, when the call straddled one): not a line each
      expect(settlements.length).toBeGreaterThan(0);
      expect(settlements.length).toBeLessThanOrEqual(2);
      const settled = settlements.flatMap((l) => l.ops.flatMap((o) => (o.item ? [o.item] : [])));
      expect(settled).toHaveLength(200);
      expect(settled.filter((i) => i.status === 'Failed' && i.message === 'Invalid Obol Id')).toHaveLength(10);
    } finally {
      await own.provider.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('needs the API key', async () => {
    expect((await call('POST', '/payouts/batch', { items: [payoutBody()] }, null)).status).toBe(401);
  });
});

describe('batched webhooks', () => {
  it('a refused batch is retried whole, and every event arrives once it is acknowledged', async () => {
    receiver.status = 500;
    const items = Array.from({ length: 10 }, () => payoutBody());
    expect((await call('POST', '/payouts/batch', { items })).status).toBe(200);
    await waitFor(() => receiver.attempts > 0 && provider.store.data.deliveries.some((d) => d.attempts > 0));
    receiver.status = 200;
    const mine = new Set(items.map((i) => i.idempotency_key));
    await waitFor(() => receiver.received.filter((e) => mine.has(e.event.data.idempotency_key)).length >= 10, 10_000);
    await waitFor(() => provider.store.data.deliveries.length === 0);
  });
});
