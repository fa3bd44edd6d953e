import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYIN_MSG, REFUND_MSG, REWARD_MSG } from '@obol/contract';
import { exportedLines } from '../../test/harness.ts';
import { merchantApiKey, settlePayin } from '../../test/payins.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { apiKeys } from '../api-keys/tables.ts';
import { activityLog } from '../../platform/tables.ts';
import { users } from '../users/tables.ts';
import { recoverMovements } from '../engine/recover.ts';
import { settleMovement } from '../engine/settle.ts';
import { refundMovement } from './refunds.ts';
import { payinMovement } from './settle.ts';

const recoverPayins = async (deps: TestAppWithProvider['deps']) =>
  (await recoverMovements(deps, payinMovement)).settled;
import { payinRewards, payins, refunds } from './tables.ts';

let t: TestAppWithProvider;
let providerUrl: string;
let admin: string;
let merchant: string;
/** X-API-Key of the demo merchant, of its brand, and of another merchant */
let acmeKey: string;
let brandKey: string;
let globexKey: string;
let acmePayin: string;

const apiKeyOf = (email: string) => merchantApiKey(t, email);

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 100 } });
  providerUrl = t.providerUrl;
  acmeKey = await apiKeyOf('merchant@obol.example');
  brandKey = await apiKeyOf('brand@obol.example');
  globexKey = await apiKeyOf('merchant2@obol.example');
  admin = await t.signIn('admin@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  acmePayin = (await t.post('/api/login-user-account', {}, merchant)).body.payin_account_id;
});
afterAll(async () => {
  await t?.close();
});

/** What a merchant's own system does: real HTTP to the server. */
async function call(path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${t.address}${path}`, {
    method: 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
const tokenFor = async (apiKey: string) => {
  const r = await call('/api/token', { 'x-api-key': apiKey });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.access_token as string;
};
const link = (over: Record<string, unknown> = {}) => ({
  amount: 2_599,
  reference: `order-${randomUUID().slice(0, 8)}`,
  first_name: 'Ana',
  last_name: 'Novak',
  date_of_birth: '1990-04-12',
  ...over,
});
const create = (token: string, body: unknown, key?: string) =>
  call(
    '/api/create-payin-link',
    { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
    body,
  );
const balance = async (account_id: string) =>
  (await t.post('/api/account-balance', { account_id }, merchant)).body.balance as number;
async function settled(requestId: string, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const [row] = await t.deps.db.select().from(payins).where(eq(payins.providerId, requestId));
    if (row.status !== 'in_flight') return row;
    if (Date.now() > end) throw new Error(`pay-in ${requestId} still Pending`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** the payer on the provider's hosted page */
const pay = (requestId: string, action: 'pay' | 'decline') =>
  fetch(`${providerUrl}/pay/${requestId}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'first_name=Ana&last_name=Novak&date_of_birth=1990-04-12',
    redirect: 'manual',
  });
const trialBalance = async () => (await t.post('/api/trial-balance', {}, admin)).body;

describe('the merchant API token', () => {
  it('answers a short-lived bearer token for the API key, and 401 for a wrong, malformed or missing key', async () => {
    const ok = await call('/api/token', { 'x-api-key': acmeKey });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(ok.body.access_token).toMatch(/^mt_/);
    const [pk, sk] = acmeKey.split(':');
    for (const [header, message] of [
      [`${pk}:${sk}x`, PAYIN_MSG.apiKeyInvalid],
      [`${pk}:${brandKey.split(':')[1]}`, PAYIN_MSG.apiKeyInvalid],
      [`pk_unknown:${sk}`, PAYIN_MSG.apiKeyInvalid],
      [pk, PAYIN_MSG.apiKeyMissing],
      [undefined, PAYIN_MSG.apiKeyMissing],
    ] as const) {
      const r = await call('/api/token', header ? { 'x-api-key': header } : {});
      expect(r.status, String(header)).toBe(401);
      expect(r.body.error).toEqual([message]);
    }
    // a session token is not a merchant API token, nor the other way round
    expect((await create(merchant, link())).status).toBe(401);
    expect((await t.post('/api/login-user-account', {}, ok.body.access_token)).status).toBe(401);
  });

  it('/api/test tells whose a token is and which pay-in account its links credit; 401 without a valid token', async () => {
    const ok = await call('/api/test', { authorization: `Bearer ${await tokenFor(acmeKey)}` });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, merchant_name: 'Acme Payouts', brand_name: null, account_id: acmePayin });
    expect(Date.parse(ok.body.token_expires_at)).toBeGreaterThan(Date.now() + 800_000);
    const brand = await call('/api/test', { authorization: `Bearer ${await tokenFor(brandKey)}` });
    expect(brand.body).toMatchObject({ merchant_name: 'Acme Payouts', brand_name: 'Acme Brand' });
    expect((await call('/api/test', {})).status).toBe(401);
    expect((await call('/api/test', { authorization: `Bearer ${merchant}` })).status).toBe(401);
  });

  it('refuses a forged, tampered or expired token, and a revoked key’s token at once', async () => {
    const token = await tokenFor(globexKey);
    const [body, sig] = token.slice(3).split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `mt_${Buffer.from(JSON.stringify({ ...claims, u: claims.u + 1 })).toString('base64url')}.${sig}`;
    const expired = `mt_${Buffer.from(JSON.stringify({ ...claims, e: 1 })).toString('base64url')}.${sig}`;
    for (const bad of [forged, expired, `${token}x`, 'mt_nonsense', 'nonsense']) {
      const r = await create(bad, link());
      expect(r.status, bad).toBe(401);
      expect(r.body.error).toEqual([PAYIN_MSG.tokenInvalid]);
    }
    expect((await create(token, link())).status).toBe(201);
    const [u] = await t.deps.db.select().from(users).where(eq(users.email, 'merchant2@obol.example'));
    await t.deps.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.userId, u.id));
    try {
      expect((await create(token, link())).status).toBe(401);
      expect((await call('/api/token', { 'x-api-key': globexKey })).status).toBe(401);
    } finally {
      await t.deps.db.update(apiKeys).set({ revokedAt: null }).where(eq(apiKeys.userId, u.id));
    }
  });
});

describe('pay-in links', () => {
  it('refuses every bad field with its message, naming the field, and makes nothing', async () => {
    const token = await tokenFor(acmeKey);
    const before = (await t.deps.db.select().from(payins)).length;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: 0 }, 'amount', 'Must be greater than 0'],
      [{ amount: 12.5 }, 'amount', 'Must be a whole number'],
      [{ amount: 100_000_001 }, 'amount', PAYIN_MSG.tooLarge],
      [{ reference: ' ' }, 'reference', 'This field is required'],
      [{ reference: 'x'.repeat(65) }, 'reference', 'Max 64 characters allowed'],
      [{ first_name: '' }, 'first_name', 'This field is required'],
      [{ last_name: undefined }, 'last_name', 'This field is required'],
      [{ date_of_birth: '1990-02-30' }, 'date_of_birth', PAYIN_MSG.dateOfBirth],
      [{ date_of_birth: '2999-01-01' }, 'date_of_birth', PAYIN_MSG.dateOfBirth],
      [{ return_url: 'javascript:alert(1)' }, 'return_url', PAYIN_MSG.returnUrl],
    ];
    for (const [over, field, message] of cases) {
      const r = await create(token, link(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.fields[field], JSON.stringify(over)).toContain(message);
    }
    const badKey = await create(token, link(), 'x'.repeat(101));
    expect(badKey.status).toBe(400);
    expect(badKey.body.fields['Idempotency-Key']).toEqual([PAYIN_MSG.idempotencyKey]);
    expect((await t.deps.db.select().from(payins)).length).toBe(before);
  });

  it('makes a link once per Idempotency-Key; the same key with another body is 409; a reference once per merchant', async () => {
    const token = await tokenFor(acmeKey);
    const body = link({ return_url: 'https://shop.example/orders/1' });
    const key = randomUUID();
    const [a, b] = await Promise.all([create(token, body, key), create(token, body, key)]);
    // the same request twice at the same moment: one link, both answers the same
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    const first = a.body;
    expect(first).toMatchObject({
      reference: body.reference,
      amount: 2_599,
      currency: 'EUR',
      transaction_status: 'Pending',
      link_status: 'Initiated',
    });
    expect(first.url).toBe(`${providerUrl}/pay/${first.request_id}`);
    const retry = await create(token, body, key);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first);
    const edited = await create(token, { ...body, amount: 2_600 }, key);
    expect(edited.status).toBe(409);
    // the reference is the merchant's: its brand cannot use it either, another merchant can
    for (const k of [acmeKey, brandKey]) {
      const again = await create(await tokenFor(k), link({ reference: body.reference }));
      expect(again.status).toBe(422);
      expect(again.body.fields.reference).toEqual([PAYIN_MSG.referenceUsed]);
    }
    expect((await create(await tokenFor(globexKey), link({ reference: body.reference }))).status).toBe(201);
    const rows = await t.deps.db.select().from(payins).where(eq(payins.reference, body.reference));
    expect(rows.length).toBe(2);
    // recorded in the activity log as the merchant's own action
    const logged = await t.deps.db.select().from(activityLog).where(eq(activityLog.targetId, first.request_id));
    expect(logged.map((l) => l.action)).toContain('payin.create-link');
  });

  it('credits the pay-in account exactly once when the payer pays; a declined one moves nothing; both links Used', async () => {
    const token = await tokenFor(acmeKey);
    const before = await balance(acmePayin);
    const paid = (await create(token, link({ amount: 4_321 }))).body;
    const declined = (await create(token, link({ amount: 999 }))).body;
    expect((await pay(paid.request_id, 'pay')).status).toBeLessThan(400);
    expect((await pay(declined.request_id, 'decline')).status).toBeLessThan(400);
    const done = await settled(paid.request_id);
    // the link takes no more payment once paid or declined: Used (record 038)
    expect(done).toMatchObject({ status: 'completed', linkStatus: 'Used', reason: null });
    const no = await settled(declined.request_id);
    expect(no).toMatchObject({ status: 'failed', linkStatus: 'Used' });
    expect(no.reason).toBeTruthy();
    expect(await balance(acmePayin)).toBe(before + 4_321);
    // the provider delivers again (a retry): nothing moves twice
    await new Promise((r) => setTimeout(r, 500));
    expect(await balance(acmePayin)).toBe(before + 4_321);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('a brand’s pay-in goes to the brand’s own pay-in account', async () => {
    const brand = await t.signIn('brand@obol.example');
    const brandPayin = (await t.post('/api/login-user-account', {}, brand)).body.payin_account_id as string;
    const read = async () => (await t.post('/api/account-balance', { account_id: brandPayin }, brand)).body.balance;
    const before = await read();
    const r = await create(await tokenFor(brandKey), link({ amount: 1_500 }));
    expect(r.status).toBe(201);
    await pay(r.body.request_id, 'pay');
    await settled(r.body.request_id);
    expect(await read()).toBe(before + 1_500);
  });
});

describe('pay-ins the webhook did not settle', () => {
  const control = (body: unknown) =>
    fetch(`${providerUrl}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('are settled once from the provider’s answer after their link expired, and a late webhook moves nothing', async () => {
    const token = await tokenFor(acmeKey);
    const before = await balance(acmePayin);
    // the provider holds its webhooks back (delivered later, out of order)
    await control({ out_of_order_webhooks: true });
    try {
      const r = (await create(token, link({ amount: 777 }))).body;
      await pay(r.request_id, 'pay');
      // the provider releases a held event 300 ms after it happened: well before that, the pay-in is still open
      await new Promise((res) => setTimeout(res, 100));
      const [still] = await t.deps.db.select().from(payins).where(eq(payins.providerId, r.request_id));
      expect(still.status).toBe('in_flight');
      // not yet overdue: the recovery leaves it
      expect(await recoverPayins(t.deps)).toBe(0);
      await t.deps.db
        .update(payins)
        .set({ expiresAt: new Date(Date.now() - 120_000) })
        .where(eq(payins.id, still.id));
      // this call settles it, unless the workers' own 15-second sweep got there first: once either way
      expect(await recoverPayins(t.deps)).toBeLessThanOrEqual(1);
      expect(await recoverPayins(t.deps)).toBe(0);
      expect((await settled(r.request_id)).status).toBe('completed');
      expect(await balance(acmePayin)).toBe(before + 777);
    } finally {
      await control({ out_of_order_webhooks: false });
    }
    await new Promise((res) => setTimeout(res, 500));
    expect(await balance(acmePayin)).toBe(before + 777);
  });

  it('an expired link makes the pay-in Expired with its reason; another amount or a later word moves nothing', async () => {
    const token = await tokenFor(acmeKey);
    const before = await balance(acmePayin);
    const r = (await create(token, link({ amount: 555 }))).body;
    // a word whose amount is not ours settles nothing
    const otherAmount = await t.deps.db.transaction((tx) =>
      settlePayin(tx, {
        id: r.request_id,
        status: 'Completed',
        idempotency_key: 'any',
        reference: r.reference,
        amount: 556,
      }),
    );
    expect(otherAmount).toBe('ignored');
    const applied = await t.deps.db.transaction((tx) =>
      settlePayin(tx, {
        id: r.request_id,
        status: 'Expired',
        idempotency_key: 'any',
        reference: r.reference,
        amount: 555,
      }),
    );
    expect(applied).toBe('applied');
    const [row] = await t.deps.db.select().from(payins).where(eq(payins.providerId, r.request_id));
    expect(row).toMatchObject({
      status: 'expired',
      linkStatus: 'Expired',
      reason: 'The payment link expired before it was paid',
    });
    // a later word from the provider changes nothing
    const again = await t.deps.db.transaction((tx) =>
      settlePayin(tx, {
        id: r.request_id,
        status: 'Completed',
        idempotency_key: 'any',
        reference: r.reference,
        amount: 555,
      }),
    );
    expect(again).toBe('ignored');
    expect(await balance(acmePayin)).toBe(before);
  });
});

describe('the pay-in list and its export', () => {
  it('lists the caller’s pay-ins 20 a page by date, with the status codes and the filter panel’s fields', async () => {
    const mine = await t.post('/api/pay-in-order-details', { per_page: 100 }, merchant);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.total).toBeGreaterThanOrEqual(5);
    const first = (await t.post('/api/pay-in-order-details', {}, merchant)).body;
    expect(first.data.length).toBe(Math.min(20, mine.body.total));
    const dates = mine.body.data.map((r: { created_at: string }) => r.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const oldest = await t.post('/api/pay-in-order-details', { sortby: 'ASC', per_page: 100 }, merchant);
    expect(oldest.body.data.map((r: { id: number }) => r.id)).toEqual(
      [...mine.body.data.map((r: { id: number }) => r.id)].reverse(),
    );
    // the merchant sees its brand's pay-ins too; merchant and brand names as they were
    const row = mine.body.data.find((r: { brand_name: string | null }) => r.brand_name === 'Acme Brand');
    expect(row).toMatchObject({ merchant_name: 'Acme Payouts', first_name: 'Ana', last_name: 'Novak' });
    for (const [code, status] of [
      [1, 'Completed'],
      [2, 'Declined'],
      [3, 'Expired'],
      [4, 'Pending'],
    ] as const) {
      const r = await t.post('/api/pay-in-order-details', { transaction_status: code, per_page: 100 }, merchant);
      expect(r.body.total, status).toBeGreaterThan(0);
      expect(new Set(r.body.data.map((x: { transaction_status: string }) => x.transaction_status))).toEqual(
        new Set([status]),
      );
    }
    const some = mine.body.data[0];
    for (const filter of [
      { pay_in_reference: some.pay_in_reference },
      { request_id: some.request_id },
      { user_name: 'ana nov' },
      { merchant_name: 'acme' },
      { account_id: some.account_id },
      { start_date: some.created_at.slice(0, 10) },
    ]) {
      const r = await t.post('/api/pay-in-order-details', { per_page: 100, ...filter }, merchant);
      expect(r.status, JSON.stringify(filter)).toBe(200);
      expect(
        r.body.data.map((x: { id: number }) => x.id),
        JSON.stringify(filter),
      ).toContain(some.id);
    }
    const none = await t.post('/api/pay-in-order-details', { pay_in_reference: 'no-such-order' }, merchant);
    expect(none.body).toEqual({ data: [], total: 0 });
    const future = await t.post('/api/pay-in-order-details', { start_date: '2999-01-01' }, merchant);
    expect(future.status).toBe(400);
  });

  it('keeps tenants apart: another merchant sees its own, a brand its own, staff all; without the permission 403', async () => {
    const all = (await t.post('/api/pay-in-order-details', { per_page: 100 }, admin)).body;
    const globex = await t.signIn('merchant2@obol.example');
    const theirs = (await t.post('/api/pay-in-order-details', { per_page: 100 }, globex)).body;
    expect(theirs.total).toBeGreaterThan(0);
    expect(theirs.data.every((r: { merchant_name: string }) => r.merchant_name === 'Globex Trading')).toBe(true);
    const brand = await t.signIn('brand@obol.example');
    const own = (await t.post('/api/pay-in-order-details', { per_page: 100 }, brand)).body;
    expect(own.total).toBeGreaterThan(0);
    expect(own.data.every((r: { brand_name: string }) => r.brand_name === 'Acme Brand')).toBe(true);
    const mine = (await t.post('/api/pay-in-order-details', { per_page: 100 }, merchant)).body;
    expect(all.total).toBe(mine.total + theirs.total);
    const finance = await t.signIn('finance@obol.example');
    expect((await t.post('/api/pay-in-order-details', {}, finance)).status).toBe(403);
    expect((await t.post('/api/export-payin-record', {}, finance)).status).toBe(403);
  });

  it('exports as a background job into the transactions download list, with the list’s rows and filters', async () => {
    const r = await t.post('/api/export-payin-record', { transaction_status: 1, format: 'csv' }, merchant);
    expect(r.status, r.text).toBe(200);
    const lines = await exportedLines(t, r.body.file.id as string, merchant);
    const body = lines.join('\n');
    expect(lines[0]).toContain('Pay-in Reference');
    const total = (await t.post('/api/pay-in-order-details', { transaction_status: 1 }, merchant)).body.total;
    expect(lines.length - 1).toBe(total);
    expect(body).not.toContain('Globex');
    expect(body).not.toContain('Declined');
  });
});

describe('refunds', () => {
  const control = (body: unknown) =>
    fetch(`${providerUrl}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  async function completedPayin(amount: number) {
    const r = (await create(await tokenFor(acmeKey), link({ amount }))).body;
    await pay(r.request_id, 'pay');
    await settled(r.request_id);
    return r.request_id as string;
  }
  const refundStatus = async (requestId: string) =>
    (await t.deps.db.select().from(payins).where(eq(payins.providerId, requestId)))[0].refundStatus;
  async function codeFor(reference: string, token = merchant, email = 'merchant@obol.example') {
    const r = await t.post('/api/generate-refund-code', { reference }, token);
    expect(r.status, r.text).toBe(200);
    return t.lastMailTo(email)!.code!;
  }
  async function refundSettled(requestId: string, ms = 10_000) {
    const end = Date.now() + ms;
    for (;;) {
      const s = await refundStatus(requestId);
      if (s !== 2) return s;
      if (Date.now() > end) throw new Error(`refund of ${requestId} still pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('refunds a completed pay-in once: the money leaves the pay-in account, the provider completes it', async () => {
    const id = await completedPayin(3_000);
    expect(await refundStatus(id)).toBe(3);
    const before = await balance(acmePayin);
    const code = await codeFor(id);
    expect(t.lastMailTo('merchant@obol.example')!.text).toContain('valid for 24 hours');
    const r = await t.post('/api/payin-refund', { reference: id, code }, merchant);
    expect(r.status, r.text).toBe(200);
    expect(r.body.refund_status).toBe(2);
    expect(await balance(acmePayin)).toBe(before - 3_000);
    expect(await refundSettled(id)).toBe(1);
    expect(await balance(acmePayin)).toBe(before - 3_000);
    // a second refund: refused at the code and at the refund
    const again = await t.post('/api/generate-refund-code', { reference: id }, merchant);
    expect(again.status).toBe(422);
    expect(again.body.fields.reference).toEqual([REFUND_MSG.notRefundable]);
    expect((await t.post('/api/payin-refund', { reference: id, code }, merchant)).status).toBe(422);
    const list = await t.post('/api/pay-in-order-details', { pay_in_reference: '', per_page: 100 }, merchant);
    expect(list.body.data.find((p: { request_id: string }) => p.request_id === id).refund_status).toBe(1);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('refuses a pay-in that is not completed, another pay-in’s code, and another merchant’s pay-in (404)', async () => {
    const pending = (await create(await tokenFor(acmeKey), link())).body.request_id;
    const r = await t.post('/api/generate-refund-code', { reference: pending }, merchant);
    expect(r.status).toBe(422);
    expect(r.body.fields.reference).toEqual([REFUND_MSG.notRefundable]);
    const a = await completedPayin(1_100);
    const b = await completedPayin(1_200);
    const codeA = await codeFor(a);
    const wrong = await t.post('/api/payin-refund', { reference: b, code: codeA }, merchant);
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields.code).toEqual(['This code does not approve this transaction']);
    expect(await refundStatus(b)).toBe(3);
    const globex = await t.signIn('merchant2@obol.example');
    expect((await t.post('/api/generate-refund-code', { reference: a }, globex)).status).toBe(404);
    expect((await t.post('/api/payin-refund', { reference: a, code: codeA }, globex)).status).toBe(404);
    const finance = await t.signIn('finance@obol.example');
    expect((await t.post('/api/generate-refund-code', { reference: a }, finance)).status).toBe(403);
  });

  it('lets only one of two refunds at the same moment through (a double click, two users)', async () => {
    const id = await completedPayin(2_200);
    const before = await balance(acmePayin);
    const code = await codeFor(id);
    const codeAdmin = await codeFor(id, admin, 'admin@obol.example');
    const results = await Promise.all([
      t.post('/api/payin-refund', { reference: id, code }, merchant),
      t.post('/api/payin-refund', { reference: id, code }, merchant),
      t.post('/api/payin-refund', { reference: id, code: codeAdmin }, admin),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 422 || r.status === 429)).toBe(true);
    expect(await balance(acmePayin)).toBe(before - 2_200);
    await refundSettled(id);
    const rows = await t.deps.db.select().from(refunds);
    expect(rows.filter((r) => r.amount === 2_200 && r.status !== 'failed')).toHaveLength(1);
  });

  it('a declined refund returns the money and the pay-in may be refunded again', async () => {
    const id = await completedPayin(1_700);
    const before = await balance(acmePayin);
    await control({ paused_settlement: true });
    let key: string;
    try {
      const r = await t.post('/api/payin-refund', { reference: id, code: await codeFor(id) }, merchant);
      expect(r.status, r.text).toBe(200);
      const [p] = await t.deps.db.select().from(payins).where(eq(payins.providerId, id));
      [{ idempotencyKey: key }] = await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.id));
      expect(await balance(acmePayin)).toBe(before - 1_700);
      expect(
        await settleMovement(t.deps, refundMovement, {
          key,
          status: 'Failed',
          message: 'Card account closed',
        }),
      ).toBe('applied');
    } finally {
      await control({ paused_settlement: false });
    }
    expect(await refundStatus(id)).toBe(0);
    expect(await balance(acmePayin)).toBe(before);
    const [declined] = await t.deps.db.select().from(refunds).where(eq(refunds.idempotencyKey, key));
    expect(declined).toMatchObject({ status: 'failed', reason: 'Card account closed' });
    // refund status 0: a new refund may start
    const r2 = await t.post('/api/payin-refund', { reference: id, code: await codeFor(id) }, merchant);
    expect(r2.status, r2.text).toBe(200);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('lists the refunds of the caller’s scope with the status and type codes and the filters, and exports them', async () => {
    const all = await t.post('/api/refunds-detail', { per_page: 100 }, merchant);
    expect(all.status, all.text).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    const row = all.body.data[0];
    expect(row).toMatchObject({ merchant_name: 'Acme Payouts', transaction_type: 'Payin', first_name: 'Ana' });
    for (const [code, status] of [
      [1, 'Completed'],
      [2, 'Declined'],
    ] as const) {
      const r = await t.post('/api/refunds-detail', { transaction_status: code, per_page: 100 }, merchant);
      expect(r.body.total, status).toBeGreaterThan(0);
      expect(new Set(r.body.data.map((x: { transaction_status: string }) => x.transaction_status))).toEqual(
        new Set([status]),
      );
    }
    expect((await t.post('/api/refunds-detail', { transaction_status: 3 }, merchant)).status).toBe(400);
    expect((await t.post('/api/refunds-detail', { transaction_type: 1 }, merchant)).body.total).toBe(0);
    expect((await t.post('/api/refunds-detail', { transaction_type: 2 }, merchant)).body.total).toBe(all.body.total);
    const byRequest = await t.post('/api/refunds-detail', { request_id: row.request_id }, merchant);
    expect(byRequest.body.data.map((x: { id: number }) => x.id)).toContain(row.id);
    const globex = await t.signIn('merchant2@obol.example');
    expect((await t.post('/api/refunds-detail', {}, globex)).body).toEqual({ data: [], total: 0 });
    const staff = await t.post('/api/refunds-detail', { per_page: 100 }, admin);
    expect(staff.body.total).toBe(all.body.total);

    // the export and the count below see the same rows once no refund is still on its way
    const end0 = Date.now() + 10_000;
    while ((await t.post('/api/refunds-detail', { transaction_status: 4 }, merchant)).body.total > 0) {
      if (Date.now() > end0) throw new Error('refunds still pending');
      await new Promise((res) => setTimeout(res, 100));
    }
    const ex = await t.post('/api/export-refunds-detail', { transaction_status: 1 }, merchant);
    expect(ex.status, ex.text).toBe(200);
    const lines = await exportedLines(t, ex.body.file.id as string, merchant);
    expect(lines[0]).toContain('Refund ID');
    const completed = (await t.post('/api/refunds-detail', { transaction_status: 1 }, merchant)).body.total;
    expect(lines.length - 1).toBe(completed);
  });
});

describe('CardEye payments', () => {
  it('are made through the same API with who requested them, and listed apart from pay-ins under their own permission', async () => {
    const token = await tokenFor(acmeKey);
    const missing = await create(token, link({ channel: 'CardEye' }));
    expect(missing.status).toBe(400);
    expect(missing.body.fields.requested_by).toEqual([PAYIN_MSG.requestedBy]);
    expect((await create(token, link({ channel: 'Phone' }))).status).toBe(400);
    const r = await create(token, link({ channel: 'CardEye', requested_by: 'Till 4 (Maria)', amount: 1_234 }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.channel).toBe('CardEye');
    await pay(r.body.request_id, 'pay');
    await settled(r.body.request_id);

    const card = await t.post('/api/pay-in-order-details', { channel: 'CardEye', per_page: 100 }, merchant);
    expect(card.status, card.text).toBe(200);
    const row = card.body.data.find((p: { request_id: string }) => p.request_id === r.body.request_id);
    expect(row).toMatchObject({ channel: 'CardEye', requested_by: 'Till 4 (Maria)', transaction_status: 'Completed' });
    expect(card.body.data.every((p: { channel: string }) => p.channel === 'CardEye')).toBe(true);
    const payin = await t.post('/api/pay-in-order-details', { per_page: 100 }, merchant);
    expect(payin.body.data.some((p: { request_id: string }) => p.request_id === r.body.request_id)).toBe(false);
    const byWho = await t.post('/api/pay-in-order-details', { channel: 'CardEye', requested_by: 'maria' }, merchant);
    expect(byWho.body.data.map((p: { request_id: string }) => p.request_id)).toEqual([r.body.request_id]);
    expect(
      (await t.post('/api/pay-in-order-details', { channel: 'CardEye', requested_by: 'nobody' }, merchant)).body.total,
    ).toBe(0);
    // another merchant sees none of it
    const globex = await t.signIn('merchant2@obol.example');
    const theirs = await t.post('/api/pay-in-order-details', { channel: 'CardEye', per_page: 100 }, globex);
    expect(theirs.body.data.some((p: { request_id: string }) => p.request_id === r.body.request_id)).toBe(false);

    // refunded like a pay-in, and listed as a CardEye refund
    const code = await t.post('/api/generate-refund-code', { reference: r.body.request_id }, merchant);
    expect(code.status, code.text).toBe(200);
    const refund = await t.post(
      '/api/payin-refund',
      { reference: r.body.request_id, code: t.lastMailTo('merchant@obol.example')!.code! },
      merchant,
    );
    expect(refund.status, refund.text).toBe(200);
    const cardRefunds = await t.post('/api/refunds-detail', { transaction_type: 1 }, merchant);
    expect(cardRefunds.body.data.map((x: { request_id: string }) => x.request_id)).toEqual([r.body.request_id]);
    expect(cardRefunds.body.data[0].transaction_type).toBe('CardEye');
    const payinRefunds = await t.post('/api/refunds-detail', { transaction_type: 2, per_page: 100 }, merchant);
    expect(payinRefunds.body.data.some((x: { request_id: string }) => x.request_id === r.body.request_id)).toBe(false);
  });

  it('the CardEye list needs its own permission, the pay-in list the pay-in panel', async () => {
    // Risk Ops holds the pay-in group; Finance holds neither
    const finance = await t.signIn('finance@obol.example');
    for (const channel of ['Payin', 'CardEye']) {
      expect((await t.post('/api/pay-in-order-details', { channel }, finance)).status).toBe(403);
      expect((await t.post('/api/export-payin-record', { channel }, finance)).status).toBe(403);
    }
    const risk = await t.signIn('risk-ops@obol.example');
    expect((await t.post('/api/pay-in-order-details', { channel: 'CardEye' }, risk)).status).toBe(200);
  });
});

describe('pay-in rewards', () => {
  const rewardOf = async (requestId: string) => {
    const [row] = await t.deps.db
      .select({ r: payinRewards })
      .from(payinRewards)
      .innerJoin(payins, eq(payins.id, payinRewards.payinId))
      .where(eq(payins.providerId, requestId));
    return row?.r;
  };
  async function rewardSettled(requestId: string, ms = 10_000) {
    const end = Date.now() + ms;
    for (;;) {
      const r = await rewardOf(requestId);
      if (r.payoutStatus !== 'in_flight') return r;
      if (Date.now() > end) throw new Error(`the reward of ${requestId} is still being paid`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const update = (id: number, token = merchant) => t.post('/api/payin-rewards', { id }, token);

  it('refuses a reward without its wallet or amount, above the pay-in, to an unknown wallet or another brand’s', async () => {
    const token = await tokenFor(acmeKey);
    const before = (await t.deps.db.select().from(payins)).length;
    const cases: [Record<string, unknown>, number, string, string][] = [
      // the one missing is named
      [{ user_obol_id: '100000001' }, 400, 'reward_amount', PAYIN_MSG.rewardBoth],
      [{ reward_amount: 100 }, 400, 'user_obol_id', PAYIN_MSG.rewardBoth],
      [{ user_obol_id: '100000001', reward_amount: 2_600 }, 400, 'reward_amount', PAYIN_MSG.rewardTooLarge],
      [{ user_obol_id: '100000001', reward_amount: 0 }, 400, 'reward_amount', 'Must be greater than 0'],
      [{ user_obol_id: '12', reward_amount: 100 }, 400, 'user_obol_id', 'Invalid Obol Id'],
      [{ user_obol_id: '900000001', reward_amount: 100 }, 400, 'user_obol_id', 'Invalid Obol Id'],
      [{ user_obol_id: '200000001', reward_amount: 100 }, 422, 'user_obol_id', PAYIN_MSG.walletOtherBrand],
    ];
    for (const [over, status, field, message] of cases) {
      const r = await create(token, link(over));
      expect(r.status, JSON.stringify([over, r.body])).toBe(status);
      expect(r.body.fields[field], JSON.stringify(over)).toContain(message);
    }
    // Globex's own brand's wallet is fine for Globex
    expect(
      (await create(await tokenFor(globexKey), link({ user_obol_id: '200000001', reward_amount: 100 }))).status,
    ).toBe(201);
    expect((await t.deps.db.select().from(payins)).length).toBe(before + 1);
  });

  it('pays a reward once its pay-in is completed, exactly once under a double click and a second user', async () => {
    const token = await tokenFor(acmeKey);
    const r = await create(token, link({ amount: 5_000, user_obol_id: '100000001', reward_amount: 250 }), randomUUID());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const reward = await rewardOf(r.body.request_id);
    expect(reward).toMatchObject({ status: 'NotRewarded', amount: 250, walletId: '100000001', brand: 'Acme Brand' });
    // not before the pay-in is completed
    const early = await update(reward.id);
    expect(early.status).toBe(422);
    expect(early.body.error).toEqual([REWARD_MSG.notCompleted]);
    await pay(r.body.request_id, 'pay');
    await settled(r.body.request_id);
    const before = await balance(acmePayin);
    const answers = await Promise.all([update(reward.id), update(reward.id), update(reward.id, admin)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.body.message).toEqual([REWARD_MSG.updated]);
    expect(ok.body.data.find((x: { id: number }) => x.id === reward.id)).toMatchObject({ reward_status: 'Rewarded' });
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error).toEqual([REWARD_MSG.alreadyRewarded]);
    // the money leaves the pay-in account at once, once
    expect(await balance(acmePayin)).toBe(before - 250);
    const paid = await rewardSettled(r.body.request_id);
    expect(paid).toMatchObject({ status: 'Rewarded', payoutStatus: 'completed', reason: null });
    expect(paid.providerId).toBeTruthy();
    expect(await balance(acmePayin)).toBe(before - 250);
    // the provider paid the wallet once, under the reward's key
    const item = await t.deps.provider.payoutByKey(paid.idempotencyKey!);
    expect(item).toMatchObject({ status: 'Completed', amount: 250, obol_id: '100000001' });
    const logged = await t.deps.db.select().from(activityLog).where(eq(activityLog.action, 'payin.reward'));
    expect(logged.filter((l) => l.targetId === String(reward.id) && l.outcome === 'success')).toHaveLength(1);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('a wallet payment the provider refuses returns the money; the reward is Not Rewarded with the reason', async () => {
    // the simulator declines a payout of exactly 666.00
    const r = await create(
      await tokenFor(acmeKey),
      link({ amount: 70_000, user_obol_id: '300000007', reward_amount: 66_600 }),
    );
    await pay(r.body.request_id, 'pay');
    await settled(r.body.request_id);
    const before = await balance(acmePayin);
    const reward = await rewardOf(r.body.request_id);
    expect((await update(reward.id)).status).toBe(200);
    const done = await rewardSettled(r.body.request_id);
    expect(done).toMatchObject({ status: 'NotRewarded', payoutStatus: 'failed', reason: 'Declined by provider' });
    expect(await balance(acmePayin)).toBe(before);
    const listed = await t.post('/api/payin-rewards', { search: r.body.reference }, merchant);
    expect(listed.body.data[0]).toMatchObject({
      reward_status: 'NotRewarded',
      payout_status: 'Declined',
      reason: 'Declined by provider',
    });
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('keeps tenants apart (another merchant’s reward is 404), needs the permission, and lists, filters and exports', async () => {
    const token = await tokenFor(acmeKey);
    const r = await create(token, link({ user_obol_id: '100000002', reward_amount: 100 }));
    const reward = await rewardOf(r.body.request_id);
    const globex = await t.signIn('merchant2@obol.example');
    expect((await update(reward.id, globex)).status).toBe(404);
    expect((await t.post('/api/payin-rewards', { search: r.body.reference }, globex)).body.total).toBe(0);
    // a brand's role has no reward screen
    const brand = await t.signIn('brand@obol.example');
    expect((await update(reward.id, brand)).status).toBe(403);
    const supervisorB = await t.signIn('supervisor-b@obol.example');
    expect((await t.post('/api/payin-rewards', {}, supervisorB)).status).toBe(403);
    expect((await t.post('/api/export-payin-rewards', {}, supervisorB)).status).toBe(403);
    expect((await t.post('/api/payin-rewards', { id: 'x' }, merchant)).status).toBe(400);
    expect((await t.post('/api/payin-rewards', { reward_status: 3 }, merchant)).status).toBe(400);

    const all = await t.post('/api/payin-rewards', { per_page: 100 }, merchant);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data[0].id).toBe(reward.id);
    expect(all.body.data[0]).toMatchObject({
      pay_in_reference: r.body.reference,
      user_obol_id: '100000002',
      amount: 100,
      transaction_status: 'Pending',
      reward_status: 'NotRewarded',
      payout_status: null,
    });
    const rewarded = await t.post('/api/payin-rewards', { reward_status: 1, per_page: 100 }, merchant);
    const not = await t.post('/api/payin-rewards', { reward_status: 2, per_page: 100 }, merchant);
    expect(rewarded.body.total).toBeGreaterThan(0);
    expect(rewarded.body.data.every((x: { reward_status: string }) => x.reward_status === 'Rewarded')).toBe(true);
    expect(not.body.data.every((x: { reward_status: string }) => x.reward_status === 'NotRewarded')).toBe(true);
    expect(rewarded.body.total + not.body.total).toBe(all.body.total);
    const oldest = await t.post('/api/payin-rewards', { sortby: 'ASC', per_page: 100 }, merchant);
    expect(oldest.body.data.at(-1).id).toBe(reward.id);
    expect((await t.post('/api/payin-rewards', { search: '100000002' }, merchant)).body.total).toBe(1);
    // reading the list is not an activity (paying a reward is, and so is a refused attempt)
    const logged = async () =>
      (await t.deps.db.select().from(activityLog).where(eq(activityLog.action, 'payin.reward'))).length;
    const n = await logged();
    expect((await t.post('/api/payin-rewards', {}, merchant)).status).toBe(200);
    expect(await logged()).toBe(n);

    const ex = await t.post('/api/export-payin-rewards', { reward_status: 2 }, merchant);
    expect(ex.status, ex.text).toBe(200);
    const lines = await exportedLines(t, ex.body.file.id as string, merchant);
    expect(lines[0]).toContain('User Obol ID');
    expect(lines.length - 1).toBe(not.body.total);
    expect(lines.join('\n')).toContain('100000002');
    expect(lines.join('\n')).not.toContain('Globex');
  });
});
