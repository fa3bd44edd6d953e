import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Provider } from './app.ts';
import { verifyWebhookSignature } from './signature.ts';
import {
  KEY,
  SECRET,
  payoutBody,
  sleep,
  startProvider,
  startReceiver,
  waitFor,
  type Answer,
  type Receiver,
} from './test-support.ts';

let receiver: Receiver;
let provider: Provider;
let base: string;
let call: (method: string, path: string, body?: unknown, key?: string | null) => Promise<Answer>;

beforeAll(async () => {
  receiver = await startReceiver();
  ({ provider, base, call } = await startProvider(receiver.url));
});
afterAll(async () => {
  await provider?.close();
  await receiver?.close();
});
beforeEach(async () => {
  await call('POST', '/_control/reset');
  receiver.status = 200;
});

const eventsFor = (key: string) => receiver.received.filter((r) => r.event.data.idempotency_key === key);
const inStatement = async (key: string) =>
  (await call('GET', '/statement')).body.items.filter((i: { idempotency_key: string }) => i.idempotency_key === key);

describe('the switches themselves', () => {
  it('are read, set, validated and reset', async () => {
    const initial = (await call('GET', '/_control')).body;
    expect(initial).toMatchObject({ latency_ms: 0, fail_next: 0, paused_settlement: false, settle_ms: null });
    const set = await call('POST', '/_control', { duplicate_webhooks: true, settle_ms: 10 });
    expect(set.body).toMatchObject({ duplicate_webhooks: true, settle_ms: 10 });
    expect((await call('POST', '/_control', { nonsense: 1 })).status).toBe(400);
    expect((await call('POST', '/_control', { fail_next: -1 })).status).toBe(400);
    expect((await call('POST', '/_control', { duplicate_webhooks: 'yes' })).status).toBe(400);
    expect((await call('GET', '/_control')).body.fail_next).toBe(0);
    await call('POST', '/_control/reset');
    expect((await call('GET', '/_control')).body).toEqual(initial);
  });
});

describe('API faults', () => {
  it('latency_ms delays every API answer', async () => {
    await call('POST', '/_control', { latency_ms: 250 });
    const started = Date.now();
    expect((await call('GET', '/wallets/100000001')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    const h = Date.now();
    await call('GET', '/health');
    expect(Date.now() - h).toBeLessThan(200);
  });

  it('fail_next answers 500 to the next N calls without doing anything', async () => {
    await call('POST', '/_control', { fail_next: 2 });
    const p = payoutBody();
    const a = await call('POST', '/payouts', p);
    expect(a.status).toBe(500);
    expect(a.body.error).toEqual(['Injected failure']);
    expect((await call('GET', '/wallets/100000001')).status).toBe(500);
    expect((await call('GET', '/_control')).body.fail_next).toBe(0);
    expect(await inStatement(p.idempotency_key)).toHaveLength(0);
    const ok = await call('POST', '/payouts', p);
    expect(ok.status).toBe(202);
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
  });

  it('timeout_next leaves the next N calls unanswered', async () => {
    await call('POST', '/_control', { timeout_next: 1 });
    const p = payoutBody();
    await expect(
      fetch(`${base}/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(p),
        signal: AbortSignal.timeout(400),
      }),
    ).rejects.toThrow();
    expect((await call('POST', '/payouts', p)).status).toBe(202);
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
    expect(await inStatement(p.idempotency_key)).toHaveLength(1);
  });

  it('drop_after_accept_next does the work but answers 500: a retry with the same key gets the first result', async () => {
    await call('POST', '/_control', { drop_after_accept_next: 1 });
    const p = payoutBody();
    const lost = await call('POST', '/payouts', p);
    expect(lost.status).toBe(500);
    const retry = await call('POST', '/payouts', p);
    expect(retry.status).toBe(202);
    expect(retry.body.status).toBe('Processing');
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
    expect(eventsFor(p.idempotency_key)[0].event.data.id).toBe(retry.body.id);
    await sleep(150);
    expect(eventsFor(p.idempotency_key)).toHaveLength(1);
    expect(await inStatement(p.idempotency_key)).toHaveLength(1);
  });
});

describe('settlement switches', () => {
  it('paused_settlement holds settlements until unpaused; settle_ms overrides the delay', async () => {
    await call('POST', '/_control', { paused_settlement: true });
    const p = payoutBody();
    const r = await call('POST', '/payouts', p);
    await sleep(400);
    expect((await call('GET', `/payouts/${r.body.id}`)).body.status).toBe('Processing');
    expect(eventsFor(p.idempotency_key)).toHaveLength(0);
    await call('POST', '/_control', { paused_settlement: false });
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);

    await call('POST', '/_control', { settle_ms: 600 });
    const slow = payoutBody();
    const s = await call('POST', '/payouts', slow);
    await sleep(300);
    expect((await call('GET', `/payouts/${s.body.id}`)).body.status).toBe('Processing');
    await waitFor(() => eventsFor(slow.idempotency_key).length === 1);
  });

  it('settle-now settles everything pending at once', async () => {
    await call('POST', '/_control', { paused_settlement: true });
    const ps = [payoutBody(), payoutBody({ amount: 66_600 })];
    for (const p of ps) await call('POST', '/payouts', p);
    const r = await call('POST', '/_control/settle-now');
    expect(r.body.settled).toBeGreaterThanOrEqual(2);
    await waitFor(() => ps.every((p) => eventsFor(p.idempotency_key).length === 1));
  });
});

describe('webhook faults', () => {
  it('duplicate_webhooks sends each event twice (same event id)', async () => {
    await call('POST', '/_control', { duplicate_webhooks: true });
    const p = payoutBody();
    await call('POST', '/payouts', p);
    await waitFor(() => eventsFor(p.idempotency_key).length === 2);
    const [a, b] = eventsFor(p.idempotency_key);
    expect(a.event.event_id).toBe(b.event.event_id);
    expect(a.body).toBe(b.body);
    expect(verifyWebhookSignature(SECRET, b.sig, b.body)).toBe(true);
  });

  it('out_of_order_webhooks sends events of a group in reverse order', async () => {
    await call('POST', '/_control', { out_of_order_webhooks: true, paused_settlement: true });
    const ps = [payoutBody(), payoutBody(), payoutBody()];
    for (const p of ps) await call('POST', '/payouts', p);
    await call('POST', '/_control/settle-now');
    await waitFor(() => ps.every((p) => eventsFor(p.idempotency_key).length === 1));
    const keys = new Set(ps.map((p) => p.idempotency_key));
    const order = receiver.received.map((r) => r.event.data.idempotency_key).filter((k) => keys.has(k));
    expect(order).toEqual(ps.map((p) => p.idempotency_key).reverse());
  });

  it('in order without the switch', async () => {
    await call('POST', '/_control', { paused_settlement: true });
    const ps = [payoutBody(), payoutBody(), payoutBody()];
    for (const p of ps) await call('POST', '/payouts', p);
    await call('POST', '/_control/settle-now');
    await waitFor(() => ps.every((p) => eventsFor(p.idempotency_key).length === 1));
    const keys = new Set(ps.map((p) => p.idempotency_key));
    const order = receiver.received.map((r) => r.event.data.idempotency_key).filter((k) => keys.has(k));
    expect(order).toEqual(ps.map((p) => p.idempotency_key));
  });

  it('retries a delivery with backoff until the receiver answers 2xx', async () => {
    receiver.status = 503;
    const attemptsBefore = receiver.attempts;
    const p = payoutBody();
    await call('POST', '/payouts', p);
    // first try after settling (~50 ms), then +0.5 s, +1 s; the provider records an attempt once its answer is in
    const recorded = () =>
      provider.store.data.deliveries.find((d) => d.body.includes(p.idempotency_key))?.attempts ?? 0;
    await waitFor(() => recorded() >= 3, 6000);
    expect(receiver.attempts - attemptsBefore).toBeGreaterThanOrEqual(3);
    expect(eventsFor(p.idempotency_key)).toHaveLength(0);
    const pending = provider.store.data.deliveries.find((d) => d.body.includes(p.idempotency_key))!;
    expect(pending.attempts).toBeGreaterThanOrEqual(3);
    expect(pending.last_status).toBe(503);
    expect((await call('GET', '/_control')).body.pending_deliveries).toBeGreaterThan(0);
    receiver.status = 200;
    await waitFor(() => eventsFor(p.idempotency_key).length === 1, 6000);
    await waitFor(() => provider.store.data.deliveries.length === 0);
    expect(eventsFor(p.idempotency_key)).toHaveLength(1);
  });
});
