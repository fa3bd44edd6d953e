import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_MSG } from '@obol/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../platform/db.ts';
import { userIdByEmail } from '../../seed.ts';
import { makePayouts } from '../../test/payouts.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { isRefusedAddress } from './address.ts';
import { deliver, retryDelayMs } from './deliver.ts';
import { webhookAttempts, webhookDeliveries } from './tables.ts';
import { tidyWebhooks } from './tidy.ts';
import { dispatchWebhooks } from './dispatch.ts';

interface Heard {
  path: string;
  eventId: string;
  signature: string;
  body: string;
  json: { id: string; type: string; data: { object: { kind: string; id: string; status: string; amount: number } } };
}

/** A merchant's receiver: records every POST, answers 500 to the paths in `failOnce` the first time. */
function receiver() {
  const heard: Heard[] = [];
  const failOnce = new Set<string>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      heard.push({
        path,
        eventId: String(req.headers['obol-event-id']),
        signature: String(req.headers['obol-signature']),
        body,
        json: JSON.parse(body),
      });
      if (failOnce.delete(path)) {
        res.writeHead(500).end('not today');
        return;
      }
      res.writeHead(200).end('ok');
    });
  });
  return { heard, failOnce, server };
}

/** What a receiver does with the header: every v1 checked against the secret, in constant time. */
function verifies(header: string, body: string, secret: string): boolean {
  const parts = header.split(',');
  const t = parts.find((p) => p.startsWith('t='))!.slice(2);
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return parts
    .filter((p) => p.startsWith('v1='))
    .some((p) => {
      const got = Buffer.from(p.slice(3), 'hex');
      return got.length === expected.length && timingSafeEqual(got, expected);
    });
}

let t: TestAppWithProvider;
let hook: ReturnType<typeof receiver>;
let base: string;
let merchantToken: string;
let merchant2Token: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, env: { LOG_LEVEL: 'error' } });
  hook = receiver();
  await new Promise<void>((r) => hook.server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}`;
  merchantToken = await t.signIn('merchant@obol.example');
  merchant2Token = await t.signIn('merchant2@obol.example');
});
afterAll(async () => {
  hook?.server.close();
  await t?.close();
});

describe('merchants hear about their money by signed webhooks', () => {
  it('signs each delivery, retries a 500 with the same event id, and logs both attempts; never to another tenant', async () => {
    const made = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}/merchant`, events: ['payout.completed', 'payout.failed'] },
      merchantToken,
    );
    expect(made.status).toBe(201);
    expect(made.body.message).toEqual([WEBHOOK_MSG.created]);
    const secret: string = made.body.secret;
    expect(secret).toMatch(/^whsec_/);
    const other = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}/merchant2`, events: ['payout.completed', 'payout.failed'] },
      merchant2Token,
    );
    expect(other.status).toBe(201);
    // the list never shows a secret again
    const list = await t.post('/api/webhook-endpoints', {}, merchantToken);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    hook.failOnce.add('/merchant');
    const merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
    // the first completes at the simulator, the third is to a wallet of another brand: it fails
    const ids = await makePayouts(t.deps, merchantId, 3, 'hook');
    const mine = () => hook.heard.filter((h) => h.path === '/merchant');
    await vi.waitFor(() => expect(new Set(mine().map((h) => h.eventId)).size).toBe(3), { timeout: 20_000 });

    const first = mine()[0];
    for (const h of mine()) expect(verifies(h.signature, h.body, secret)).toBe(true);
    expect(verifies(first.signature, first.body, 'whsec_wrong')).toBe(false);
    expect(
      mine()
        .map((h) => h.json.data.object.id)
        .sort(),
    ).toEqual(ids.map(String).sort());
    expect(
      mine()
        .map((h) => h.json.type)
        .sort(),
    ).toEqual(['payout.completed', 'payout.completed', 'payout.failed']);
    for (const h of mine()) expect(h.json.id).toBe(h.eventId);

    // the 500 leaves it Pending with its next try 30 s on, a job scheduled for then; the job's run sends it again
    const [failed] = await t.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, Number(first.eventId.slice(4))));
    expect(failed.status).toBe('Pending');
    expect(failed.attempts).toBe(1);
    const waitMs = failed.nextAttemptAt.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(retryDelayMs(1) - 10_000);
    expect(waitMs).toBeLessThanOrEqual(retryDelayMs(1));
    const [job] = rowsOf<{ n: number | string }>(
      await t.deps.db.execute(sql`SELECT count(*) AS n FROM pgboss.job WHERE name = 'webhook.deliver'
        AND state = 'created' AND (data->>'deliveryId')::bigint = ${failed.id} AND start_after > now()`),
    );
    expect(Number(job.n)).toBe(1);
    await deliver(t.deps, failed.id);
    const again = mine().filter((h) => h.eventId === first.eventId);
    expect(again).toHaveLength(2);
    expect(again[1].body).toBe(again[0].body);

    // the delivery log shows both attempts with the receiver's answers
    const endpointId = made.body.endpoint.id;
    const log = await t.post('/api/webhook-deliveries', { endpoint_id: endpointId }, merchantToken);
    expect(log.status).toBe(200);
    const ofFirst = (log.body.data as { event_id: string; response_status: number; attempt: number }[]).filter(
      (a) => a.event_id === first.eventId,
    );
    expect(ofFirst.map((a) => [a.attempt, a.response_status])).toEqual([
      [2, 200],
      [1, 500],
    ]);
    expect(log.body.total).toBe(4);

    // merchant2 heard nothing of it, and cannot read or resend the merchant's log
    expect(hook.heard.filter((h) => h.path === '/merchant2')).toEqual([]);
    const theirs = await t.post('/api/webhook-deliveries', { endpoint_id: endpointId }, merchant2Token);
    expect(theirs.status).toBe(404);
    const resendTheirs = await t.post('/api/resend-webhook', { delivery_id: failed.id }, merchant2Token);
    expect(resendTheirs.status).toBe(404);

    // a resend goes out again with the same event id
    const resend = await t.post('/api/resend-webhook', { delivery_id: failed.id }, merchantToken);
    expect(resend.status).toBe(200);
    await vi.waitFor(() => expect(mine().filter((h) => h.eventId === first.eventId)).toHaveLength(3), {
      timeout: 10_000,
    });
  });

  it('after a rotation both secrets sign for 24 hours', async () => {
    const made = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}/rotated`, events: ['payout.completed'] },
      merchant2Token,
    );
    const rotated = await t.post('/api/rotate-webhook-secret', { id: made.body.endpoint.id }, merchant2Token);
    expect(rotated.status).toBe(201);
    expect(rotated.body.secret).not.toBe(made.body.secret);
    expect(rotated.body.endpoint.previous_secret_expires_at).not.toBeNull();
    const merchant2 = (await userIdByEmail(t.deps.db, 'merchant2@obol.example'))!;
    await makePayouts(t.deps, merchant2, 1, 'rotated');
    await vi.waitFor(() => expect(hook.heard.some((h) => h.path === '/rotated')).toBe(true), { timeout: 20_000 });
    const h = hook.heard.find((x) => x.path === '/rotated')!;
    expect(h.signature.match(/v1=/g)).toHaveLength(2);
    expect(verifies(h.signature, h.body, rotated.body.secret)).toBe(true);
    expect(verifies(h.signature, h.body, made.body.secret)).toBe(true);
    // removed: nothing more goes to it
    const gone = await t.post('/api/delete-webhook-endpoint', { id: made.body.endpoint.id }, merchant2Token);
    expect(gone.status).toBe(200);
    expect((await t.post('/api/webhook-endpoints', {}, merchant2Token)).body.data).toEqual([
      expect.objectContaining({ url: `${base}/merchant2` }),
    ]);
  });

  it('creates each delivery and its job once when dispatchers of several processes run at the same moment', async () => {
    const made = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}/once`, events: ['payout.completed', 'payout.failed'] },
      merchant2Token,
    );
    const merchant2 = (await userIdByEmail(t.deps.db, 'merchant2@obol.example'))!;
    // each completes once: one payout.completed event each
    await makePayouts(t.deps, merchant2, 2, 'once');
    // besides the test app's own dispatcher, three more at once
    for (let i = 0; i < 20; i++) await Promise.all([1, 2, 3].map(() => dispatchWebhooks(t.deps)));
    await vi.waitFor(() => expect(hook.heard.filter((h) => h.path === '/once')).toHaveLength(2), { timeout: 20_000 });
    const rows = await t.deps.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, made.body.endpoint.id));
    expect(rows).toHaveLength(2);
    for (const d of rows) {
      const [{ n }] = rowsOf<{ n: number | string }>(
        await t.deps.db.execute(sql`SELECT count(*) AS n FROM pgboss.job WHERE name = 'webhook.deliver'
          AND (data->>'deliveryId')::bigint = ${d.id}`),
      );
      expect(Number(n)).toBe(1);
    }
    expect(new Set(hook.heard.filter((h) => h.path === '/once').map((h) => h.eventId)).size).toBe(2);
  });

  it('takes only its callers and valid input', async () => {
    const admin = await t.signIn('admin@obol.example');
    expect((await t.post('/api/webhook-endpoints', {}, admin)).status).toBe(403);
    const noEvents = await t.post('/api/create-webhook-endpoint', { url: `${base}/x`, events: [] }, merchantToken);
    expect(noEvents.status).toBe(400);
    expect(noEvents.text).toContain(WEBHOOK_MSG.events);
    const badUrl = await t.post(
      '/api/create-webhook-endpoint',
      { url: 'ftp://example.com/x', events: ['payin.completed'] },
      merchantToken,
    );
    expect(badUrl.status).toBe(400);
    expect(badUrl.text).toContain(WEBHOOK_MSG.url);
    const twice = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}/merchant`, events: ['payin.completed'] },
      merchantToken,
    );
    expect(twice.status).toBe(409);
  });

  it('keeps a brand within its ten endpoints when twelve are added at the same moment', async () => {
    const brand = await t.signIn('brand@obol.example');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.post('/api/create-webhook-endpoint', { url: `${base}/brand/${i}`, events: ['payin.completed'] }, brand),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.error)).toEqual([
      [WEBHOOK_MSG.tooMany],
      [WEBHOOK_MSG.tooMany],
    ]);
    expect((await t.post('/api/webhook-endpoints', {}, brand)).body.data).toHaveLength(10);
    // the merchant does not see its brand's endpoints as its own
    expect((await t.post('/api/webhook-endpoints', {}, merchantToken)).body.data).toHaveLength(1);
  });
});

describe('the hourly housekeeping of webhooks', () => {
  it('drops delivery logs ended a month ago and gives a lost pending delivery its job again', async () => {
    const [a, b] = await t.deps.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id).limit(2);
    await t.deps.db
      .update(webhookDeliveries)
      .set({ status: 'Succeeded', nextAttemptAt: sql`now() - interval '31 days'` })
      .where(eq(webhookDeliveries.id, a.id));
    await t.deps.db
      .update(webhookDeliveries)
      .set({ status: 'Pending', nextAttemptAt: sql`now() - interval '11 minutes'`, claimedUntil: null })
      .where(eq(webhookDeliveries.id, b.id));
    const jobsOf = async (id: number) =>
      Number(
        rowsOf<{ n: number | string }>(
          await t.deps.db.execute(sql`SELECT count(*) AS n FROM pgboss.job WHERE name = 'webhook.deliver'
            AND (data->>'deliveryId')::bigint = ${id}`),
        )[0].n,
      );
    const before = await jobsOf(b.id);
    const r = await tidyWebhooks(t.deps);
    expect(r).toMatchObject({ pruned: 1 });
    expect(r.requeued).toBeGreaterThanOrEqual(1);
    expect(await t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, a.id))).toEqual([]);
    expect(await t.deps.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, a.id))).toEqual([]);
    expect(await jobsOf(b.id)).toBe(before + 1);
  });
});

describe('the addresses a webhook may reach', () => {
  it('refuses this host, private networks, link-local (cloud metadata) and multicast, in IPv4 and IPv6', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
    ])
      expect(isRefusedAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isRefusedAddress(a), a).toBe(false);
  });

  it('in production the metadata address is refused when added and at delivery', async () => {
    const before = t.deps.config.webhooksAllowPrivate;
    t.deps.config.webhooksAllowPrivate = false;
    try {
      const metadata = await t.post(
        '/api/create-webhook-endpoint',
        { url: 'https://169.254.169.254/latest/meta-data', events: ['payin.completed'] },
        merchantToken,
      );
      expect(metadata.status).toBe(422);
      expect(metadata.body).toEqual({ error: [WEBHOOK_MSG.urlPrivate], fields: { url: [WEBHOOK_MSG.urlPrivate] } });
      const local = await t.post(
        '/api/create-webhook-endpoint',
        { url: 'https://localhost/hook', events: ['payin.completed'] },
        merchantToken,
      );
      expect(local.status).toBe(422);
      // an endpoint added while allowed is checked again at each delivery: the attempt says why, nothing is sent
      const [d] = await t.deps.db.select().from(webhookDeliveries).limit(1);
      await t.deps.db
        .update(webhookDeliveries)
        .set({ status: 'Pending', claimedUntil: null })
        .where(eq(webhookDeliveries.id, d.id));
      const heardBefore = hook.heard.length;
      await deliver(t.deps, d.id);
      expect(hook.heard.length).toBe(heardBefore);
      const [last] = rowsOf<{ response: string; response_status: number | null }>(
        await t.deps.db.execute(
          sql`SELECT response, response_status FROM webhook_attempts WHERE delivery_id = ${d.id} ORDER BY id DESC`,
        ),
      );
      expect(last.response_status).toBeNull();
      expect(last.response).toMatch(/https|private or reserved/);
    } finally {
      t.deps.config.webhooksAllowPrivate = before;
    }
  });
});

describe("the demo storefront's receiver", () => {
  it("keeps what Obol delivered to the shop's address, as it came, and nothing else", async () => {
    const inbox = 'ab'.repeat(16);
    const path = `/api/demo-shop/${inbox}/webhook`;
    // the shop's address is served by Obol; here the test's receiver stands at it and hands on what it heard
    const made = await t.post(
      '/api/create-webhook-endpoint',
      { url: `${base}${path}`, events: ['payout.completed', 'payout.failed'] },
      merchant2Token,
    );
    expect(made.status).toBe(201);
    const merchant2 = (await userIdByEmail(t.deps.db, 'merchant2@obol.example'))!;
    await makePayouts(t.deps, merchant2, 1, 'shop');
    await vi.waitFor(() => expect(hook.heard.some((h) => h.path === path)).toBe(true), { timeout: 20_000 });
    const h = hook.heard.find((x) => x.path === path)!;
    const post = (headers: Record<string, string>, body: string, to = path) =>
      t.app.inject({ method: 'POST', url: to, headers: { 'content-type': 'application/json', ...headers }, body });
    const genuine = { 'obol-event-id': h.eventId, 'obol-signature': h.signature };

    expect((await post(genuine, h.body)).statusCode).toBe(200);
    // a resend of the same event counts a second time, not a second row
    expect((await post(genuine, h.body)).statusCode).toBe(200);
    // not what Obol sent here: an edited body, another event's id, another inbox, no headers
    expect((await post(genuine, h.body.replace('"amount":', '"amount":1'))).statusCode).toBe(404);
    expect((await post({ ...genuine, 'obol-event-id': 'evt_999999999' }, h.body)).statusCode).toBe(404);
    expect((await post(genuine, h.body, `/api/demo-shop/${'cd'.repeat(16)}/webhook`)).statusCode).toBe(404);
    expect((await post({}, h.body)).statusCode).toBe(400);
    expect((await post(genuine, h.body, '/api/demo-shop/not-an-inbox/webhook')).statusCode).toBe(404);

    const read = await t.app.inject({ method: 'GET', url: `/api/demo-shop/${inbox}/events` });
    expect(read.statusCode).toBe(200);
    const [kept, ...rest] = read.json().data;
    expect(rest).toEqual([]);
    expect(kept).toMatchObject({
      event_id: h.eventId,
      event: h.json.type,
      body: h.body,
      signature: h.signature,
      times: 2,
    });
    // the shop checks the signature with the secret it was shown
    expect(verifies(kept.signature, kept.body, made.body.secret)).toBe(true);
    const other = await t.app.inject({ method: 'GET', url: `/api/demo-shop/${'cd'.repeat(16)}/events` });
    expect(other.json().data).toEqual([]);

    // a day on, the hourly housekeeping drops it
    await t.deps.db.execute(sql`UPDATE demo_shop_events SET received_at = now() - interval '25 hours'`);
    expect((await tidyWebhooks(t.deps)).demoShop).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/demo-shop/${inbox}/events` })).json().data).toEqual([]);
  });
});
