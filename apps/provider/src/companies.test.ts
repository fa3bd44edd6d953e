import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from './app.ts';
import {
  KEY,
  startProvider,
  startReceiver,
  transferBody,
  waitFor,
  type Answer,
  type Receiver,
} from './test-support.ts';
import { bicError, closedAccount, ibanError } from './testdata.ts';

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

/** GET /companies/accounts with a company key (none when null) and the provider key (none when null) */
async function accounts(companyKey: string | null, key: string | null = KEY): Promise<Answer> {
  const res = await fetch(`${base}/companies/accounts`, {
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(companyKey !== null ? { 'x-company-key': companyKey } : {}),
    },
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

describe('GET /companies/accounts', () => {
  it('answers the bank accounts and beneficiaries of a valid company key, the same every time', async () => {
    const first = await accounts('ck_acme0000000000000001');
    expect(first.status).toBe(200);
    const { accounts: accs, beneficiaries } = first.body;
    expect(accs.length).toBeGreaterThanOrEqual(2);
    expect(accs.length).toBeLessThanOrEqual(3);
    for (const a of accs) {
      expect(a).toEqual({
        id: expect.stringMatching(/^CA-[0-9a-f]{8}-[123]$/),
        name: expect.stringMatching(/^(Operating|Reserve|Payroll) account$/),
        iban: expect.stringMatching(/^DE\d{20}$/),
        bic: 'PBNKDEFFXXX',
        currency: 'EUR',
        opening_balance: expect.any(Number),
      });
      expect(ibanError(a.iban), a.iban).toBeNull();
      expect(closedAccount(a.iban)).toBe(false);
      expect(Number.isSafeInteger(a.opening_balance)).toBe(true);
    }
    expect(beneficiaries.map((b: { id: string }) => b.id)).toEqual(['BEN-1', 'BEN-2', 'BEN-3']);
    for (const b of beneficiaries) {
      expect(ibanError(b.iban), b.iban).toBeNull();
      expect(bicError(b.bic), b.bic).toBeNull();
    }
    expect((await accounts('ck_acme0000000000000001')).text).toBe(first.text);
    const globex = await accounts('ck_globex000000000000002');
    expect(globex.status).toBe(200);
    expect(globex.body.accounts).toHaveLength(2);
    expect(globex.body.accounts[0].id).not.toBe(accs[0].id);
    expect(globex.body.beneficiaries).toEqual(beneficiaries);
  });

  it('answers 422 for an unknown or missing company key', async () => {
    for (const k of ['ck_demo_', 'ck_short', 'sk_acme0000000000000001', 'ck_acme_000000000000001', '', null]) {
      const r = await accounts(k);
      expect(r.status, String(k)).toBe(422);
      expect(r.body).toEqual({ error: ['Invalid company API key'] });
    }
  });

  it('needs the provider API key', async () => {
    for (const key of [null, 'wrong']) {
      const r = await accounts('ck_acme0000000000000001', key);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: ['Missing or invalid API key'] });
    }
  });

  it("a transfer to BEN-3 settles Failed 'Account closed', to BEN-1 Completed", async () => {
    const { beneficiaries } = (await accounts('ck_globex000000000000002')).body;
    const ids: string[] = [];
    for (const b of beneficiaries.filter((x: { id: string }) => x.id !== 'BEN-2')) {
      const r = await call('POST', '/transfers', transferBody({ iban: b.iban, bic: b.bic, beneficiary_name: b.name }));
      expect(r.status).toBe(202);
      ids.push(r.body.id);
    }
    await waitFor(() => ids.every((id) => provider.store.data.items[id]?.status !== 'Processing'));
    expect((await call('GET', `/transfers/${ids[0]}`)).body).toMatchObject({ status: 'Completed' });
    expect((await call('GET', `/transfers/${ids[1]}`)).body).toMatchObject({
      status: 'Failed',
      message: 'Account closed',
    });
  });
});
