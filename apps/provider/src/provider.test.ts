import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildProvider } from './app.ts';
import { signWebhook, verifyWebhookSignature } from './signature.ts';
import { bicError, findWallet, ibanError } from './testdata.ts';

const KEY = 'test-key-123';
const SECRET = 'test-secret-123';
interface Received {
  body: string;
  sig: string;
  event: { event_id: string; type: string; data: Record<string, unknown> };
}
let received: Received[] = [];
let receiverStatus = 200;
let receiver: Server;
let webhookUrl: string;
let provider: Awaited<ReturnType<typeof buildProvider>>;
let base: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (receiverStatus === 200)
        received.push({ body, sig: String(req.headers['x-provider-signature']), event: JSON.parse(body) });
      res.statusCode = receiverStatus;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  provider = await buildProvider({ apiKey: KEY, webhookSecret: SECRET, webhookUrl, settleMs: 50 });
  base = (await provider.listen(0)).replace('localhost', '127.0.0.1');
});
afterAll(async () => {
  await provider?.close();
  receiver?.close();
});
beforeEach(async () => {
  await call('POST', '/_control/reset');
  received = [];
  receiverStatus = 200;
});

async function call(method: string, p: string, body?: unknown, key = KEY) {
  const res = await fetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, body: json, text };
}
const waitFor = async (pred: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
let n = 0;
const payout = (over: Record<string, unknown> = {}) => ({
  idempotency_key: `k-${Date.now()}-${n++}`,
  reference: 'ref',
  obol_id: '100000001',
  amount: 1000,
  currency: 'EUR',
  beneficiary_name: 'Ana',
  brand: 'Acme Brand',
  ...over,
});
const eventsFor = (key: string) => received.filter((r) => r.event.data.idempotency_key === key);

describe('wallets', () => {
  it('follow the documented test data', async () => {
    expect((await call('GET', '/wallets/100000001')).body).toMatchObject({ obol_id: '100000001', brand: 'Acme Brand' });
    expect((await call('GET', '/wallets/200000001')).body.brand).toBe('Globex Outlet');
    expect((await call('GET', '/wallets/300000001')).body.brand).toBeNull();
    const unknown = await call('GET', '/wallets/900000001');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual(['Invalid Obol Id']);
    expect((await call('GET', '/wallets/12')).status).toBe(404);
    expect(findWallet('100000001')).toEqual(findWallet('100000001'));
  });
});

describe('payouts', () => {
  it('need the API key', async () => {
    expect((await call('POST', '/payouts', payout(), 'wrong')).status).toBe(401);
  });

  it.each([
    [{}, 'Completed', undefined],
    [{ brand: 'Globex Outlet' }, 'Failed', 'Brand does not match'],
    [{ obol_id: '900000001' }, 'Failed', 'Invalid Obol Id'],
    [{ amount: 66_600 }, 'Failed', 'Declined by provider'],
    [{ obol_id: '300000009', brand: 'Anything' }, 'Completed', undefined],
  ])('%j settle %s', async (over, status, message) => {
    const p = payout(over);
    const r = await call('POST', '/payouts', p);
    expect(r.status).toBe(202);
    expect(r.body.status).toBe('Processing');
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
    const ev = eventsFor(p.idempotency_key)[0];
    expect(ev.event.type).toBe(status === 'Completed' ? 'payout.completed' : 'payout.failed');
    expect(ev.event.data).toMatchObject({ id: r.body.id, status, amount: p.amount });
    expect(ev.event.data.message).toBe(message);
    expect(verifyWebhookSignature(SECRET, ev.sig, ev.body)).toBe(true);
    expect(verifyWebhookSignature(SECRET, ev.sig, ev.body.replace('"amount":', '"amount":1'))).toBe(false);
    expect(verifyWebhookSignature('other-secret', ev.sig, ev.body)).toBe(false);
  });

  it('answer a replay with the first result, and a different payload under the key with 409', async () => {
    const p = payout();
    const a = await call('POST', '/payouts', p);
    const b = await call('POST', '/payouts', p);
    expect(b.body.id).toBe(a.body.id);
    expect((await call('POST', '/payouts', { ...p, amount: 2000 })).status).toBe(409);
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
    const statement = await call('GET', '/statement');
    expect(
      statement.body.items.filter((i: { idempotency_key: string }) => i.idempotency_key === p.idempotency_key),
    ).toHaveLength(1);
  });

  it('refuse bad input', async () => {
    expect((await call('POST', '/payouts', payout({ amount: 1.5 }))).status).toBe(400);
    expect((await call('POST', '/payouts', payout({ amount: -1 }))).status).toBe(400);
    expect((await call('POST', '/payouts', payout({ idempotency_key: '' }))).status).toBe(400);
    expect((await call('POST', '/payouts', payout({ currency: 'USD' }))).status).toBe(400);
  });
});

describe('fault switches', () => {
  it('fail_next answers 500 without doing anything', async () => {
    await call('POST', '/_control', { fail_next: 1 });
    const p = payout();
    expect((await call('POST', '/payouts', p)).status).toBe(500);
    const again = await call('POST', '/payouts', p);
    expect(again.status).toBe(202);
  });

  it('drop_after_accept_next does the work but answers 500: a retry with the same key gets the first result', async () => {
    await call('POST', '/_control', { drop_after_accept_next: 1 });
    const p = payout();
    expect((await call('POST', '/payouts', p)).status).toBe(500);
    const retry = await call('POST', '/payouts', p);
    expect(retry.status).toBe(202);
    await waitFor(() => eventsFor(p.idempotency_key).length === 1);
    await new Promise((r) => setTimeout(r, 150));
    expect(eventsFor(p.idempotency_key)).toHaveLength(1);
  });

  it('duplicate_webhooks sends each event twice with the same event id', async () => {
    await call('POST', '/_control', { duplicate_webhooks: true });
    const p = payout();
    await call('POST', '/payouts', p);
    await waitFor(() => eventsFor(p.idempotency_key).length === 2);
    const [a, b] = eventsFor(p.idempotency_key);
    expect(a.event.event_id).toBe(b.event.event_id);
  });

  it('out_of_order_webhooks sends a group in reverse order', async () => {
    await call('POST', '/_control', { out_of_order_webhooks: true, paused_settlement: true });
    const ps = [payout(), payout(), payout()];
    for (const p of ps) await call('POST', '/payouts', p);
    await call('POST', '/_control/settle-now');
    await waitFor(() => ps.every((p) => eventsFor(p.idempotency_key).length === 1));
    const order = received.map((r) => r.event.data.idempotency_key);
    expect(order.indexOf(ps[2].idempotency_key)).toBeLessThan(order.indexOf(ps[0].idempotency_key));
  });

  it('webhooks are retried until the receiver answers 2xx', async () => {
    receiverStatus = 500;
    const p = payout();
    await call('POST', '/payouts', p);
    await new Promise((r) => setTimeout(r, 700));
    expect(eventsFor(p.idempotency_key)).toHaveLength(0);
    expect((await call('GET', '/_control')).body.pending_deliveries).toBeGreaterThan(0);
    receiverStatus = 200;
    await waitFor(() => eventsFor(p.idempotency_key).length === 1, 10_000);
  });
});

describe('IBAN transfers', () => {
  it('validate IBAN and BIC', () => {
    expect(ibanError('DE89370400440532013000')).toBeNull();
    expect(ibanError('GB82 WEST 1234 5698 7654 32')).toBeNull();
    expect(ibanError('NL91ABNA0417164300')).toBeNull();
    expect(ibanError('DE89370400440532013001')).toMatch(/checksum/);
    expect(ibanError('DE8937040044053201300')).toMatch(/length/);
    expect(ibanError('1234')).toBeTruthy();
    expect(bicError('DEUTDEFF')).toBeNull();
    expect(bicError('DEUTDEFF500')).toBeNull();
    expect(bicError('DEUT')).toBeTruthy();
  });

  it('settle Completed, or Failed for an account ending in 0000', async () => {
    const ok = await call('POST', '/transfers', {
      idempotency_key: 't1',
      iban: 'DE89370400440532013000',
      bic: 'DEUTDEFF',
      amount: 500,
      beneficiary_name: 'Ana',
      reference: 'r',
    });
    expect(ok.status).toBe(202);
    await waitFor(() => received.some((r) => r.event.data.idempotency_key === 't1'));
    const ev = received.find((r) => r.event.data.idempotency_key === 't1')!;
    // this IBAN ends in 3000: completed
    expect(ev.event.type).toBe('transfer.completed');
    const bad = await call('POST', '/transfers', {
      idempotency_key: 't2',
      iban: 'DE00370400440532013000',
      bic: 'DEUTDEFF',
      amount: 500,
      beneficiary_name: 'Ana',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.iban).toBeTruthy();
    const closed = await call('POST', '/transfers', {
      idempotency_key: 't3',
      iban: 'GB29NWBK60161331926819',
      bic: 'NWBKGB2L',
      amount: 500,
      beneficiary_name: 'Ana',
    });
    expect(closed.status).toBe(202);
  });
});

describe('pay-in links and refunds', () => {
  it('are paid on the hosted page, refunded up to their amount, and listed in the statement', async () => {
    const link = await call('POST', '/payin-links', { idempotency_key: 'pl1', amount: 2500, reference: 'order 1' });
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(/\/pay\//);
    const pageRes = await fetch(link.body.url);
    expect(await pageRes.text()).toContain('€25.00');
    expect(
      (await call('POST', '/refunds', { idempotency_key: 'rf0', payin_id: link.body.id, amount: 100 })).status,
    ).toBe(422);
    const paid = await fetch(`${link.body.url}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'first_name=Ana&last_name=Novak',
    });
    expect(await paid.text()).toContain('Payment completed');
    const twice = await fetch(`${link.body.url}/decline`, { method: 'POST' });
    expect(twice.status).toBe(409);
    await waitFor(() => received.some((r) => r.event.type === 'payin.completed' && r.event.data.id === link.body.id));
    expect(
      (await call('POST', '/refunds', { idempotency_key: 'rf1', payin_id: link.body.id, amount: 2000 })).status,
    ).toBe(202);
    expect(
      (await call('POST', '/refunds', { idempotency_key: 'rf2', payin_id: link.body.id, amount: 600 })).status,
    ).toBe(422);
    await waitFor(() => received.some((r) => r.event.type === 'refund.completed'));
    const st = await call('GET', '/statement');
    const types = st.body.items.map((i: { type: string }) => i.type);
    expect(types).toEqual(expect.arrayContaining(['payin', 'refund']));
  });

  it('can be declined, and expire', async () => {
    const link = await call('POST', '/payin-links', { idempotency_key: 'pl2', amount: 100, reference: 'order 2' });
    await fetch(`${link.body.url}/decline`, { method: 'POST' });
    await waitFor(() => received.some((r) => r.event.type === 'payin.declined'));
    const short = await call('POST', '/payin-links', {
      idempotency_key: 'pl3',
      amount: 100,
      reference: 'order 3',
      expires_in_seconds: 1,
    });
    await waitFor(
      () => received.some((r) => r.event.type === 'payin.expired' && r.event.data.id === short.body.id),
      5000,
    );
    expect(await (await fetch(short.body.url)).text()).toContain('expired');
  });
});

describe('persistence', () => {
  it('a payout pending at a restart still settles after it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'provider-'));
    try {
      const a = await buildProvider({ apiKey: KEY, webhookSecret: SECRET, webhookUrl, settleMs: 400, dataDir: dir });
      const addr = await a.listen(0);
      const p = payout();
      const r = await fetch(`${addr}/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(p),
      });
      expect(r.status).toBe(202);
      await a.close();
      const b = await buildProvider({ apiKey: KEY, webhookSecret: SECRET, webhookUrl, settleMs: 400, dataDir: dir });
      await b.listen(0);
      await waitFor(() => eventsFor(p.idempotency_key).length === 1, 5000);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('signs with a timestamp inside the tolerance only', () => {
    const old = signWebhook(SECRET, '{}', Math.floor(Date.now() / 1000) - 3600);
    expect(verifyWebhookSignature(SECRET, old, '{}')).toBe(false);
    expect(verifyWebhookSignature(SECRET, signWebhook(SECRET, '{}'), '{}')).toBe(true);
  });
});
