import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Provider } from './app.ts';
import { verifyWebhookSignature } from './signature.ts';
import {
  KEY,
  SECRET,
  form,
  payoutBody,
  startProvider,
  startReceiver,
  transferBody,
  uniqueKey,
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
beforeEach(() => {
  receiver.status = 200;
});

const eventsFor = (key: string) => receiver.received.filter((r) => r.event.data.idempotency_key === key);
const eventOf = async (key: string, type?: string) => {
  await waitFor(() => eventsFor(key).some((e) => !type || e.event.type === type));
  return eventsFor(key).find((e) => !type || e.event.type === type)!;
};

describe('health, keys and errors', () => {
  it('/health and the wallet look-up need no key; the rest of the API does', async () => {
    expect(await call('GET', '/health', undefined, null)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await call('GET', '/wallets/100000001', undefined, null)).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/payouts'],
      ['POST', '/transfers'],
      ['POST', '/payin-links'],
      ['POST', '/refunds'],
      ['GET', '/statement'],
      ['GET', '/payin-links/pl_x'],
      ['GET', '/payouts/po_x'],
      ['GET', '/payouts?idempotency_key=k'],
      ['POST', '/payouts/lookup'],
      ['GET', '/transfers?idempotency_key=k'],
      ['POST', '/transfers/lookup'],
      ['GET', '/refunds?idempotency_key=k'],
      ['POST', '/refunds/lookup'],
    ]) {
      const none = await call(method, path, method === 'POST' ? {} : undefined, null);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.body.error).toEqual(['Missing or invalid API key']);
      expect((await call(method, path, method === 'POST' ? {} : undefined, 'wrong')).status).toBe(401);
    }
  });

  it('answer errors as {error: string[]}', async () => {
    const missing = await call('GET', '/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toHaveLength(1);
    const res = await fetch(`${base}/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"broken":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string[] }).error).toHaveLength(1);
    expect((await call('GET', '/payouts/po_unknown')).status).toBe(404);
  });
});

describe('wallets', () => {
  it.each([
    ['100000001', 'Acme Brand'],
    ['199999999', 'Acme Brand'],
    ['200000001', 'Globex Outlet'],
    ['300000001', null],
  ])('%s belongs to %s', async (id, brand) => {
    const r = await call('GET', `/wallets/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      obol_id: id,
      first_name: expect.any(String),
      last_name: expect.any(String),
      date_of_birth: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      brand,
    });
    expect((await call('GET', `/wallets/${id}`)).body).toEqual(r.body);
  });

  it.each(['400000001', '900000001', '000000001', '12345678', '1234567890', 'abc'])('%s is unknown', async (id) => {
    const r = await call('GET', `/wallets/${id}`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: ['Invalid Obol Id'] });
  });
});

describe('payouts', () => {
  it.each([
    [{}, 'Completed', undefined],
    [{ brand: 'acme BRAND' }, 'Completed', undefined],
    [{ brand: 'Globex Outlet' }, 'Failed', 'Brand does not match'],
    [{ obol_id: '200000005', brand: 'Acme Brand' }, 'Failed', 'Brand does not match'],
    [{ obol_id: '900000001' }, 'Failed', 'Invalid Obol Id'],
    [{ obol_id: '12345' }, 'Failed', 'Invalid Obol Id'],
    [{ amount: 66_600 }, 'Failed', 'Declined by provider'],
    [{ obol_id: '300000009', brand: 'Anything' }, 'Completed', undefined],
  ])('%j settles %s %s', async (over, status, message) => {
    const p = payoutBody(over);
    const r = await call('POST', '/payouts', p);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^po_/),
      status: 'Processing',
      idempotency_key: p.idempotency_key,
    });
    const ev = await eventOf(p.idempotency_key);
    expect(ev.event.type).toBe(status === 'Completed' ? 'payout.completed' : 'payout.failed');
    expect(ev.event.event_id).toEqual(expect.any(String));
    expect(ev.event.data).toMatchObject({
      id: r.body.id,
      reference: p.reference,
      idempotency_key: p.idempotency_key,
      status,
      amount: p.amount,
      obol_id: p.obol_id,
    });
    expect(ev.event.data.message).toBe(message);
    expect(verifyWebhookSignature(SECRET, ev.sig, ev.body)).toBe(true);
    expect(verifyWebhookSignature(SECRET, ev.sig, ev.body.replace(`"amount":${p.amount}`, '"amount":1'))).toBe(false);
    expect(verifyWebhookSignature('other-secret', ev.sig, ev.body)).toBe(false);
    const now = await call('GET', `/payouts/${r.body.id}`);
    expect(now.body).toMatchObject({ id: r.body.id, status, ...(message ? { message } : {}) });
  });

  it.each([
    [{ idempotency_key: '' }, 'idempotency_key'],
    [{ idempotency_key: 'x'.repeat(101) }, 'idempotency_key'],
    [{ obol_id: undefined }, 'obol_id'],
    [{ obol_id: 100000001 }, 'obol_id'],
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 10.5 }, 'amount'],
    [{ amount: '1000' }, 'amount'],
    [{ currency: 'USD' }, 'currency'],
    [{ beneficiary_name: ' ' }, 'beneficiary_name'],
    [{ brand: undefined }, 'brand'],
    [{ reference: 42 }, 'reference'],
  ])('refuse %j naming %s', async (over, field) => {
    const p = payoutBody(over);
    const r = await call('POST', '/payouts', p);
    expect(r.status).toBe(400);
    expect(r.body.error[0]).toContain(field);
    expect(Object.keys(r.body.fields)).toEqual([field]);
    if (field !== 'idempotency_key')
      expect(
        (await call('POST', '/payouts', { ...p, ...payoutBody({ idempotency_key: p.idempotency_key }) })).status,
      ).toBe(202);
  });

  it('answer a replay with the first result, and another payload under the key with 409', async () => {
    const p = payoutBody();
    const a = await call('POST', '/payouts', p);
    const b = await call('POST', '/payouts', p);
    expect(b.status).toBe(202);
    expect(b.body).toEqual(a.body);
    const conflict = await call('POST', '/payouts', { ...p, amount: 2000 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toHaveLength(1);
    expect((await call('POST', '/payouts', { ...p, brand: 'Globex Outlet' })).status).toBe(409);
    await eventOf(p.idempotency_key);
    // after settlement a replay still answers the first result; the current state is at GET /payouts/:id
    const c = await call('POST', '/payouts', p);
    expect(c.body).toEqual(a.body);
    expect((await call('GET', `/payouts/${a.body.id}`)).body.status).toBe('Completed');
    expect(eventsFor(p.idempotency_key)).toHaveLength(1);
    const st = await call('GET', '/statement');
    expect(
      st.body.items.filter((i: { idempotency_key: string }) => i.idempotency_key === p.idempotency_key),
    ).toHaveLength(1);
  });
});

describe('IBAN transfers', () => {
  it.each([
    [{ iban: 'DE89370400440532013001' }, 'iban', /checksum/],
    [{ iban: 'DE8937040044053201300' }, 'iban', /length/],
    [{ iban: 'ZZ' }, 'iban', /./],
    [{ iban: undefined }, 'iban', /required/],
    [{ bic: 'DEUT' }, 'bic', /8 or 11/],
    [{ bic: 'DEUTDEFF5' }, 'bic', /8 or 11/],
    [{ bic: undefined }, 'bic', /required/],
    [{ amount: 0 }, 'amount', /amount/],
    [{ beneficiary_name: '' }, 'beneficiary_name', /beneficiary_name/],
    [{ idempotency_key: undefined }, 'idempotency_key', /idempotency_key/],
  ])('refuse %j naming %s', async (over, field, why) => {
    const r = await call('POST', '/transfers', transferBody(over));
    expect(r.status).toBe(400);
    expect(r.body.error[0]).toMatch(why);
    expect(r.body.fields[field]).toEqual(r.body.error);
  });

  it('settle Completed (IBAN written with spaces accepted)', async () => {
    const t = transferBody({ iban: 'GB82 WEST 1234 5698 7654 32', bic: 'nwbkgb2l' });
    const r = await call('POST', '/transfers', t);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      id: expect.stringMatching(/^tr_/),
      status: 'Processing',
      iban: 'GB82WEST12345698765432',
    });
    const ev = await eventOf(t.idempotency_key);
    expect(ev.event.type).toBe('transfer.completed');
    expect(ev.event.data).toMatchObject({ id: r.body.id, status: 'Completed', amount: 500, reference: 'rent' });
  });

  it("fail 'Account closed' for an account part ending in 0000", async () => {
    const t = transferBody({ iban: 'DE94370400440532010000' });
    expect((await call('POST', '/transfers', t)).status).toBe(202);
    const ev = await eventOf(t.idempotency_key);
    expect(ev.event.type).toBe('transfer.failed');
    expect(ev.event.data).toMatchObject({ status: 'Failed', message: 'Account closed' });
  });

  it('are idempotent', async () => {
    const t = transferBody();
    const a = await call('POST', '/transfers', t);
    expect((await call('POST', '/transfers', t)).body.id).toBe(a.body.id);
    expect((await call('POST', '/transfers', { ...t, iban: 'NL91ABNA0417164300' })).status).toBe(409);
    // keys are per kind: the same key may name a payout too
    expect((await call('POST', '/payouts', payoutBody({ idempotency_key: t.idempotency_key }))).status).toBe(202);
  });
});

describe('pay-in links', () => {
  const link = async (over: Record<string, unknown> = {}) => {
    const body = { idempotency_key: uniqueKey('pl'), amount: 2500, reference: 'order 1', ...over };
    const r = await call('POST', '/payin-links', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; url: string; status: string; expires_at: string; idempotency_key: string };
  };

  it('are created Initiated with a hosted page that shows amount and reference', async () => {
    const before = Date.now();
    const l = await link({ description: 'Two <b>mugs</b>' });
    expect(l.status).toBe('Initiated');
    expect(l.url).toBe(`${base}/pay/${l.id}`);
    const ttl = Date.parse(l.expires_at) - before;
    expect(ttl).toBeGreaterThan(899_000);
    expect(ttl).toBeLessThan(901_000);
    const res = await fetch(l.url);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('€25.00');
    expect(html).toContain('order 1');
    expect(html).toContain('Two &#60;b&#62;mugs&#60;/b&#62;');
    expect(html).toContain(`action="/pay/${l.id}/pay"`);
    expect(html).toContain(`action="/pay/${l.id}/decline"`);
    expect(html).toMatch(/name="first_name"/);
    expect((await call('GET', `/payin-links/${l.id}`)).body).toMatchObject({
      id: l.id,
      status: 'Initiated',
      amount: 2500,
    });
  });

  it('are paid once on the hosted page', async () => {
    const l = await link();
    const paid = await form(`${l.url}/pay`, { first_name: 'Ana', last_name: 'Novak', date_of_birth: '1990-04-01' });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Payment completed');
    const ev = await eventOf(l.idempotency_key, 'payin.completed');
    expect(ev.event.data).toMatchObject({
      id: l.id,
      status: 'Completed',
      amount: 2500,
      reference: 'order 1',
      first_name: 'Ana',
      last_name: 'Novak',
      date_of_birth: '1990-04-01',
    });
    expect(verifyWebhookSignature(SECRET, ev.sig, ev.body)).toBe(true);
    for (const action of ['pay', 'decline']) {
      const again = await form(`${l.url}/${action}`);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain('already used');
    }
    expect(await (await fetch(l.url)).text()).toContain('Payment completed');
    expect((await call('GET', `/payin-links/${l.id}`)).body.status).toBe('Completed');
    expect(eventsFor(l.idempotency_key)).toHaveLength(1);
  });

  it('can be declined, without a name', async () => {
    const l = await link();
    const declined = await form(`${l.url}/decline`);
    expect(await declined.text()).toContain('Payment declined');
    expect((await eventOf(l.idempotency_key, 'payin.declined')).event.data.status).toBe('Declined');
    expect((await form(`${l.url}/pay`)).status).toBe(409);
  });

  it('redirect to return_url with the status', async () => {
    const l = await link({ return_url: 'http://shop.example/done?order=7' });
    const res = await form(`${l.url}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('http://shop.example/done?order=7&status=Completed');
    const d = await link({ return_url: 'http://shop.example/done' });
    expect((await form(`${d.url}/decline`)).headers.get('location')).toBe('http://shop.example/done?status=Declined');
  });

  it('expire at expires_at with an event, and then refuse payment', async () => {
    const l = await link({ expires_in_seconds: 1 });
    const ev = await eventOf(l.idempotency_key, 'payin.expired');
    expect(ev.event.data).toMatchObject({ id: l.id, status: 'Expired' });
    expect(await (await fetch(l.url)).text()).toContain('This payment link has expired');
    const pay = await form(`${l.url}/pay`);
    expect(pay.status).toBe(409);
    expect(await pay.text()).toContain('This payment link has expired');
    expect((await call('GET', `/payin-links/${l.id}`)).body.status).toBe('Expired');
  });

  it('refuse bad input, unknown links, and replay by key', async () => {
    for (const [over, field] of [
      [{ amount: 0 }, 'amount'],
      [{ reference: '' }, 'reference'],
      [{ expires_in_seconds: 0 }, 'expires_in_seconds'],
      [{ expires_in_seconds: 1.5 }, 'expires_in_seconds'],
      [{ return_url: 'javascript:alert(1)' }, 'return_url'],
      [{ description: 7 }, 'description'],
    ] as const) {
      const r = await call('POST', '/payin-links', {
        ...{ idempotency_key: uniqueKey(), amount: 100, reference: 'r' },
        ...over,
      });
      expect(r.status, field).toBe(400);
      expect(r.body.fields[field]).toBeTruthy();
    }
    expect((await fetch(`${base}/pay/pl_nope`)).status).toBe(404);
    expect((await form(`${base}/pay/pl_nope/pay`)).status).toBe(404);
    expect((await call('GET', '/payin-links/pl_nope')).status).toBe(404);
    const body = { idempotency_key: uniqueKey(), amount: 100, reference: 'r' };
    const a = await call('POST', '/payin-links', body);
    expect((await call('POST', '/payin-links', body)).body.id).toBe(a.body.id);
    expect((await call('POST', '/payin-links', { ...body, amount: 101 })).status).toBe(409);
  });
});

describe('refunds', () => {
  const paidLink = async (amount = 2500) => {
    const r = await call('POST', '/payin-links', { idempotency_key: uniqueKey('pl'), amount, reference: 'order r' });
    await form(`${r.body.url}/pay`);
    return r.body.id as string;
  };

  it('only for a Completed pay-in', async () => {
    const open = await call('POST', '/payin-links', { idempotency_key: uniqueKey(), amount: 100, reference: 'x' });
    const r1 = await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: open.body.id, amount: 50 });
    expect(r1.status).toBe(422);
    expect(r1.body.error).toEqual(['Only a completed pay-in can be refunded']);
    await form(`${open.body.url}/decline`);
    expect(
      (await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: open.body.id, amount: 50 })).status,
    ).toBe(422);
    expect(
      (await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: 'pl_nope', amount: 50 })).status,
    ).toBe(404);
    const missing = await call('POST', '/refunds', { idempotency_key: uniqueKey(), amount: 50 });
    expect(missing.status).toBe(400);
    expect(missing.body.fields.payin_id).toBeTruthy();
    expect(
      (await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: open.body.id, amount: 0 })).status,
    ).toBe(400);
  });

  it('never beyond the pay-in amount, and idempotent', async () => {
    const payin = await paidLink(2500);
    const first = { idempotency_key: uniqueKey('rf'), payin_id: payin, amount: 2000 };
    const a = await call('POST', '/refunds', first);
    expect(a.status).toBe(202);
    expect(a.body).toMatchObject({ id: expect.stringMatching(/^rf_/), status: 'Processing', payin_id: payin });
    // a replay does not count twice
    expect((await call('POST', '/refunds', first)).body.id).toBe(a.body.id);
    expect((await call('POST', '/refunds', { ...first, amount: 100 })).status).toBe(409);
    const over = await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: payin, amount: 501 });
    expect(over.status).toBe(422);
    expect(over.body.error[0]).toMatch(/exceeds the pay-in amount/);
    const rest = { idempotency_key: uniqueKey('rf'), payin_id: payin, amount: 500 };
    expect((await call('POST', '/refunds', rest)).status).toBe(202);
    expect((await call('POST', '/refunds', { idempotency_key: uniqueKey(), payin_id: payin, amount: 1 })).status).toBe(
      422,
    );
    const ev = await eventOf(first.idempotency_key, 'refund.completed');
    expect(ev.event.data).toMatchObject({
      id: a.body.id,
      status: 'Completed',
      amount: 2000,
      payin_id: payin,
      reference: 'order r',
    });
    await eventOf(rest.idempotency_key, 'refund.completed');
    expect((await call('GET', `/payin-links/${payin}`)).body.refunded_amount).toBe(2500);
    expect((await call('GET', `/refunds/${a.body.id}`)).body.status).toBe('Completed');
  });
});

describe('statement', () => {
  it('lists everything settled in the range, ordered by settled_at', async () => {
    const from = new Date().toISOString();
    const ok = payoutBody();
    const failed = payoutBody({ amount: 66_600 });
    const transfer = transferBody();
    const pl = await call('POST', '/payin-links', { idempotency_key: uniqueKey('pl'), amount: 900, reference: 'st' });
    const processing = payoutBody();
    await call('POST', '/payouts', ok);
    await call('POST', '/payouts', failed);
    await call('POST', '/transfers', transfer);
    await form(`${pl.body.url}/pay`);
    const refund = { idempotency_key: uniqueKey('rf'), payin_id: pl.body.id, amount: 300 };
    await call('POST', '/refunds', refund);
    await eventOf(refund.idempotency_key);
    await Promise.all([ok, failed, transfer].map((x) => eventOf(x.idempotency_key)));
    await call('POST', '/_control', { paused_settlement: true });
    await call('POST', '/payouts', processing);
    const st = await call('GET', `/statement?from=${encodeURIComponent(from)}`);
    await call('POST', '/_control/reset');
    expect(st.status).toBe(200);
    const items = st.body.items as { settled_at: string; idempotency_key: string }[];
    expect(items.map((i) => i.settled_at)).toEqual([...items.map((i) => i.settled_at)].sort());
    const byKey = (k: string) => items.find((i) => i.idempotency_key === k);
    expect(byKey(ok.idempotency_key)).toEqual({
      id: expect.any(String),
      type: 'payout',
      reference: 'ref',
      idempotency_key: ok.idempotency_key,
      amount: 1000,
      status: 'Completed',
      settled_at: expect.any(String),
    });
    expect(byKey(failed.idempotency_key)).toMatchObject({ status: 'Failed', message: 'Declined by provider' });
    expect(byKey(transfer.idempotency_key)).toMatchObject({ type: 'transfer', status: 'Completed' });
    expect(byKey(pl.body.idempotency_key)).toMatchObject({ type: 'payin', status: 'Completed', amount: 900 });
    expect(byKey(refund.idempotency_key)).toMatchObject({ type: 'refund', status: 'Completed', amount: 300 });
    expect(byKey(processing.idempotency_key)).toBeUndefined();
    for (const i of items) expect(Date.parse(i.settled_at)).toBeGreaterThanOrEqual(Date.parse(from));

    const past = await call('GET', `/statement?to=${encodeURIComponent(from)}`);
    expect(past.body.items.some((i: { idempotency_key: string }) => i.idempotency_key === ok.idempotency_key)).toBe(
      false,
    );
    const future = await call(
      'GET',
      `/statement?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future.body.items).toEqual([]);
    const bad = await call('GET', '/statement?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.fields.from).toBeTruthy();
    await call('POST', '/_control/settle-now');
  });
});

describe('look-up by idempotency key', () => {
  const q = (key: string) => `?idempotency_key=${encodeURIComponent(key)}`;

  it('GET /payouts?idempotency_key= answers the payout as GET /payouts/:id does, or 404', async () => {
    await call('POST', '/_control', { paused_settlement: true });
    const p = payoutBody({ idempotency_key: uniqueKey('po lookup/ü&=') });
    const created = await call('POST', '/payouts', p);
    const found = await call('GET', `/payouts${q(p.idempotency_key)}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual((await call('GET', `/payouts/${created.body.id}`)).body);
    expect(found.body).toMatchObject({ id: created.body.id, status: 'Processing', idempotency_key: p.idempotency_key });
    await call('POST', '/_control/reset');
    await eventOf(p.idempotency_key);
    expect((await call('GET', `/payouts${q(p.idempotency_key)}`)).body).toMatchObject({
      id: created.body.id,
      status: 'Completed',
      settled_at: expect.any(String),
    });
    const declined = payoutBody({ amount: 66_600 });
    await call('POST', '/payouts', declined);
    await eventOf(declined.idempotency_key);
    expect((await call('GET', `/payouts${q(declined.idempotency_key)}`)).body).toMatchObject({
      status: 'Failed',
      message: 'Declined by provider',
    });

    const missing = await call('GET', `/payouts${q(uniqueKey('never'))}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual(['No payout with this idempotency_key']);
    // the key is per kind
    const t = transferBody();
    await call('POST', '/transfers', t);
    expect((await call('GET', `/payouts${q(t.idempotency_key)}`)).status).toBe(404);
    expect((await call('GET', `/transfers${q(t.idempotency_key)}`)).body.idempotency_key).toBe(t.idempotency_key);
  });

  it('refuses a missing, empty, repeated or too long key, naming the field', async () => {
    for (const query of [
      '',
      '?idempotency_key=',
      `?idempotency_key=${'x'.repeat(101)}`,
      '?idempotency_key=a&idempotency_key=b',
    ]) {
      const r = await call('GET', `/payouts${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.fields.idempotency_key, query).toHaveLength(1);
    }
  });

  it('POST /payouts/lookup answers those found, each once, in the order asked', async () => {
    const ps = [payoutBody(), payoutBody(), payoutBody()];
    const ids = [];
    for (const p of ps) ids.push((await call('POST', '/payouts', p)).body.id);
    const r = await call('POST', '/payouts/lookup', {
      idempotency_keys: [ps[2].idempotency_key, uniqueKey('never'), ps[0].idempotency_key, ps[2].idempotency_key],
    });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[0]]);
    // the same view as GET /payouts/:id (the payout may settle between the two calls: compare what stays)
    const { status: _s, settled_at: _at, message: _m, ...stable } = (await call('GET', `/payouts/${ids[0]}`)).body;
    expect(r.body.items[1]).toMatchObject(stable);
    expect((await call('POST', '/payouts/lookup', { idempotency_keys: [] })).body).toEqual({ items: [] });
    // up to 1000 keys
    const many = Array.from({ length: 1000 }, (_, i) => (i === 999 ? ps[1].idempotency_key : `missing-${i}`));
    expect((await call('POST', '/payouts/lookup', { idempotency_keys: many })).body.items).toHaveLength(1);
  });

  it('POST /payouts/lookup refuses bad input, naming the field', async () => {
    for (const body of [
      {},
      { idempotency_keys: 'k' },
      { idempotency_keys: [1] },
      { idempotency_keys: [''] },
      { idempotency_keys: ['x'.repeat(101)] },
      { idempotency_keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) },
    ]) {
      const r = await call('POST', '/payouts/lookup', body);
      expect(r.status, JSON.stringify(body).slice(0, 50)).toBe(400);
      expect(r.body.fields.idempotency_keys).toHaveLength(1);
    }
  });

  it('the same for transfers and refunds', async () => {
    const t = transferBody();
    const tr = await call('POST', '/transfers', t);
    expect((await call('GET', `/transfers${q(t.idempotency_key)}`)).body.id).toBe(tr.body.id);
    expect(
      (await call('POST', '/transfers/lookup', { idempotency_keys: [t.idempotency_key, 'nope'] })).body.items,
    ).toMatchObject([{ id: tr.body.id, iban: t.iban }]);
    const link = await call('POST', '/payin-links', { idempotency_key: uniqueKey('pl'), amount: 800, reference: 'lk' });
    await form(`${link.body.url}/pay`);
    const rk = uniqueKey('rf');
    const rf = await call('POST', '/refunds', { idempotency_key: rk, payin_id: link.body.id, amount: 100 });
    expect((await call('GET', `/refunds${q(rk)}`)).body).toMatchObject({ id: rf.body.id, payin_id: link.body.id });
    expect((await call('POST', '/refunds/lookup', { idempotency_keys: [rk] })).body.items).toHaveLength(1);
    expect((await call('GET', `/refunds${q(uniqueKey())}`)).status).toBe(404);
    expect((await call('GET', `/transfers${q(uniqueKey())}`)).status).toBe(404);
  });
});
