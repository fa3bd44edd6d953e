import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProvider, type Provider } from '../../../provider/src/app.ts';
import { companyAccounts, companyBeneficiaries, ibanError } from '../../../provider/src/testdata.ts';
import {
  PROVIDER_LOOKUP_MAX,
  ProviderRejected,
  ProviderUnavailable,
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

describe('companyAccounts', () => {
  const ACME = 'ck_acme0000000000000001';

  it("answers the company's accounts and beneficiaries, derived from its key, the same every time", async () => {
    const r = await client.companyAccounts(ACME);
    expect(r).toEqual({ accounts: companyAccounts(ACME), beneficiaries: companyBeneficiaries(ACME) });
    expect(r.accounts.length).toBeGreaterThanOrEqual(2);
    for (const a of [...r.accounts, ...r.beneficiaries]) expect(ibanError(a.iban), a.iban).toBeNull();
    expect(await client.companyAccounts(ACME)).toEqual(r);
    const globex = await client.companyAccounts('ck_globex000000000000002');
    expect(globex.accounts).toHaveLength(2);
    expect(globex.beneficiaries).toEqual(r.beneficiaries);
  });

  it("refuses an unknown or empty company key as ProviderRejected 422 'Invalid company API key'", async () => {
    for (const key of [
      'ck_demo_',
      '',
      'ck_acme 000000000000001',
      'ck_acme0000000000000001\n',
      'ck_äcme0000000000000001',
    ]) {
      const e = await client.companyAccounts(key).catch((x: unknown) => x);
      expect(e, JSON.stringify(key)).toBeInstanceOf(ProviderRejected);
      expect(e).toMatchObject({ status: 422, messages: ['Invalid company API key'] });
    }
  });

  it('retries through provider failures, and refuses a wrong provider API key', async () => {
    await control({ fail_next: 2 });
    expect((await client.companyAccounts(ACME)).accounts).toEqual(companyAccounts(ACME));
    const wrongKey = createProviderClient({ baseUrl: base, apiKey: 'wrong', retries: 0 });
    await expect(wrongKey.companyAccounts(ACME)).rejects.toMatchObject({ status: 401 });
  });

  it('counts a malformed answer as ProviderUnavailable', async () => {
    const answers: unknown[] = [
      { accounts: [] },
      {
        accounts: [{ id: 'CA-1', name: 'x', iban: 'DE', bic: 'B', currency: 'EUR', opening_balance: 1.5 }],
        beneficiaries: [],
      },
      { accounts: [], beneficiaries: [{ id: 'BEN-1', name: 'x', iban: 'DE' }] },
      [],
    ];
    let next = 0;
    const fake = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answers[next]));
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', () => ok()));
    try {
      const url = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
      const c = createProviderClient({ baseUrl: url, apiKey: KEY, retries: 0 });
      for (next = 0; next < answers.length; next++)
        await expect(c.companyAccounts(ACME), JSON.stringify(answers[next])).rejects.toBeInstanceOf(
          ProviderUnavailable,
        );
    } finally {
      await new Promise((ok) => fake.close(ok));
    }
  });
});
