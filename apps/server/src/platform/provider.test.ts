import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProvider, type Provider } from '../../../provider/src/app.ts';
import {
  PROVIDER_LOOKUP_MAX,
  ProviderRejected,
  createProviderClient,
  type ProviderClient,
  type ProviderPayoutRequest,
} from './provider.ts';

// The client against the real simulator over HTTP (in process, memory only).
const KEY = 'client-test-key';
let provider: Provider;
let base: string;
let client: ProviderClient;

beforeAll(async () => {
  provider = await buildProvider({
    apiKey: KEY,
    webhookSecret: 'client-test-secret',
    webhookUrl: 'http://127.0.0.1:9/nobody-listens', // webhooks are not what this tests
    settleMs: 60_000, // settled by settleNow() when a test wants it
  });
  base = await provider.listen(0);
  client = createProviderClient({ baseUrl: base, apiKey: KEY, retries: 2 });
});
afterAll(async () => {
  await provider?.close();
});

const payout = (over: Partial<ProviderPayoutRequest> = {}): ProviderPayoutRequest => ({
  idempotency_key: `client-test:${randomUUID()}`,
  reference: 'client test',
  obol_id: '100000001',
  amount: 1234,
  currency: 'EUR',
  beneficiary_name: 'Ana Novak',
  brand: 'Acme Brand',
  ...over,
});
const control = (body: object) =>
  fetch(`${base}/_control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('payoutByKey', () => {
  it('answers the payout created with the key, as it is now', async () => {
    const body = payout();
    const created = await client.createPayout(body);
    const item = await client.payoutByKey(body.idempotency_key);
    expect(item).toEqual({
      id: created.id,
      status: 'Processing',
      idempotency_key: body.idempotency_key,
      reference: 'client test',
      amount: 1234,
      currency: 'EUR',
      created_at: expect.any(String),
      obol_id: '100000001',
      brand: 'Acme Brand',
      beneficiary_name: 'Ana Novak',
    });
    const declined = payout({ amount: 66_600 });
    await client.createPayout(declined);
    provider.settleNow();
    expect(await client.payoutByKey(body.idempotency_key)).toMatchObject({
      id: created.id,
      status: 'Completed',
      settled_at: expect.any(String),
    });
    expect(await client.payoutByKey(declined.idempotency_key)).toMatchObject({
      status: 'Failed',
      message: 'Declined by provider',
      settled_at: expect.any(String),
    });
  });

  it('answers null for a key the provider does not have', async () => {
    expect(await client.payoutByKey(`client-test:never:${randomUUID()}`)).toBeNull();
  });

  it('retries through provider failures, and refuses a wrong API key', async () => {
    const body = payout();
    await client.createPayout(body);
    await control({ fail_next: 2 });
    expect((await client.payoutByKey(body.idempotency_key))?.idempotency_key).toBe(body.idempotency_key);
    const wrongKey = createProviderClient({ baseUrl: base, apiKey: 'wrong', retries: 0 });
    await expect(wrongKey.payoutByKey(body.idempotency_key)).rejects.toBeInstanceOf(ProviderRejected);
    await expect(wrongKey.lookupPayouts([body.idempotency_key])).rejects.toBeInstanceOf(ProviderRejected);
  });
});

describe('lookupPayouts', () => {
  it('answers the payouts found, each once, and nothing for none', async () => {
    expect(await client.lookupPayouts([])).toEqual([]);
    expect(await client.lookupPayouts([`client-test:never:${randomUUID()}`])).toEqual([]);
    const a = payout();
    const b = payout();
    const idA = (await client.createPayout(a)).id;
    const idB = (await client.createPayout(b)).id;
    const items = await client.lookupPayouts([
      b.idempotency_key,
      'client-test:missing',
      a.idempotency_key,
      b.idempotency_key,
    ]);
    expect(items.map((i) => i.id)).toEqual([idB, idA]);
    expect(items[1]).toEqual(await client.payoutByKey(a.idempotency_key));
  });

  it('asks in chunks of 1000 for many keys', async () => {
    expect(PROVIDER_LOOKUP_MAX).toBe(1000);
    // 2,500 keys, payouts at the edges of each chunk and between; the rest unknown to the provider
    const at = [0, 1, 998, 999, 1000, 1001, 1500, 1999, 2000, 2001, 2498, 2499];
    const keys = Array.from({ length: 2500 }, (_, i) => `client-test:many:${randomUUID()}:${i}`);
    const ids = new Map<string, string>();
    for (const i of at) ids.set(keys[i], (await client.createPayout(payout({ idempotency_key: keys[i] }))).id);
    // asked twice over: still each once
    const items = await client.lookupPayouts([...keys, ...keys.slice(0, 1200)]);
    expect(items.map((i) => i.idempotency_key)).toEqual(at.map((i) => keys[i]));
    for (const item of items) expect(item.id).toBe(ids.get(item.idempotency_key));
    // a key the provider refuses (too long) is the caller's error, not a missing payout
    await expect(client.lookupPayouts(['x'.repeat(101)])).rejects.toBeInstanceOf(ProviderRejected);
  });
});
