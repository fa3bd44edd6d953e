import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleMovement } from '../features/engine/settle.ts';
import { payoutMovement } from '../features/batches/payout-movement.ts';
import { payouts } from '../features/payouts/tables.ts';
import { userIdByEmail } from '../seed.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { makePayouts } from '../test/payouts.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });

/** the value of one sample line `name{labels} value` of the exposition, or undefined */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const line = text.split('\n').find((l) => {
    if (!l.startsWith(name)) return false;
    const rest = l.slice(name.length);
    if (!rest.startsWith('{') && !rest.startsWith(' ')) return false;
    return Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`));
  });
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /api/ready', () => {
  it('answers 200 once the migrations ran and the database answers, 503 while a migration is missing', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', migrations: true, database: true });
    const rows = (await t.deps.db.execute(
      sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 1`,
    )) as unknown as { rows: { id: number; hash: string; created_at: string }[] };
    const last = rows.rows[0];
    await t.deps.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last.id}`);
    try {
      const missing = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(missing.statusCode).toBe(503);
      expect(missing.json()).toEqual({ status: 'unavailable', migrations: false, database: true });
    } finally {
      await t.deps.db.execute(
        sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at)
          VALUES (${last.id}, ${last.hash}, ${last.created_at})`,
      );
    }
  });
});

describe('GET /api/metrics', () => {
  it('is 404 while METRICS_TOKEN is unset', async () => {
    const saved = t.config.metricsToken;
    t.config.metricsToken = undefined;
    try {
      expect((await scrape(`Bearer ${TOKEN}`)).statusCode).toBe(404);
    } finally {
      t.config.metricsToken = saved;
    }
  });

  it('needs the token (401 without or with a wrong one)', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
  });

  it('after a small batch of payouts: requests, payouts in flight by age, jobs, settlement lag, webhooks', async () => {
    const merchant = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
    const ids = await makePayouts(t.deps, merchant, 6, 'metrics');
    // two settle 30 s after their submission; one has waited two hours; the rest were just submitted
    const [done1, done2, old] = ids;
    await t.deps.db
      .update(payouts)
      .set({ submittedAt: sql`now() - interval '30 seconds'` })
      .where(inArray(payouts.id, [done1, done2]));
    await t.deps.db
      .update(payouts)
      .set({ submittedAt: sql`now() - interval '2 hours'` })
      .where(eq(payouts.id, old));
    for (const id of [done1, done2]) {
      const [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, id));
      await settleMovement(t.deps, payoutMovement, { key: p.idempotencyKey, status: 'Completed' });
    }
    // one payout's job failed for good (its retries spent), as the queue records it
    await t.deps.db.execute(sql`UPDATE pgboss.job SET state = 'failed'
      WHERE id = (SELECT id FROM pgboss.job WHERE name = 'payout.submit' ORDER BY created_on LIMIT 1)`);
    // a merchant's webhook endpoint: one delivery of each status, and their tries (two 2xx, a 500, a timeout)
    await t.deps.db.execute(sql`
      WITH e AS (
        INSERT INTO webhook_endpoints (user_id, merchant_id, url, events, secret_enc)
        VALUES (${merchant}, ${merchant}, 'https://shop.example/hook', ARRAY['payout.completed'], 'x') RETURNING id
      ), d AS (
        INSERT INTO webhook_deliveries (endpoint_id, event_id, event, object_key, payload, status)
        SELECT e.id, v.n, 'payout.completed', 'payout:' || v.n, '{}', v.status FROM e,
          (VALUES (1, 'Succeeded'), (2, 'Pending'), (3, 'Failed')) AS v(n, status)
        RETURNING id, status
      )
      INSERT INTO webhook_attempts (delivery_id, attempt, response_status, response, duration_ms)
      SELECT d.id, 1, a.code, '', 5 FROM d JOIN (VALUES ('Succeeded', 200), ('Pending', 500), ('Failed', NULL),
        ('Succeeded', 204)) AS a(status, code) ON a.status = d.status`);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    if (process.env.METRICS_DUMP) console.log(text);

    // the request histogram, by route pattern and status
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/health', status: '200' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/metrics', status: '401' })).toBe(3);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');

    // four in flight: one over an hour old, three under a minute
    const inFlight = (age: string) => sample(text, 'obol_payouts_in_flight', { age });
    expect(inFlight('gt_1h')).toBe(1);
    expect(inFlight('lt_1m')! + inFlight('1m_10m')! + inFlight('10m_1h')!).toBeGreaterThanOrEqual(3);

    // the jobs the payouts queued, by name
    expect(sample(text, 'obol_jobs_queued', { name: 'payout.submit' })).toBe(5);
    expect(sample(text, 'obol_jobs_failed_total', { name: 'payout.submit' })).toBe(1);
    expect(text).toContain('# TYPE obol_jobs_failed_total counter');

    // settlement lag: the two settled payouts, about 30 s each
    expect(sample(text, 'obol_settlement_lag_seconds_count')).toBe(2);
    expect(sample(text, 'obol_settlement_lag_seconds_bucket', { le: '15' })).toBe(0);
    expect(sample(text, 'obol_settlement_lag_seconds_bucket', { le: '60' })).toBe(2);
    expect(sample(text, 'obol_settlement_lag_seconds_sum')).toBeGreaterThan(59);
    expect(sample(text, 'obol_settlement_lag_seconds_sum')).toBeLessThan(70);

    // webhook deliveries by status, and their tries by result
    for (const status of ['Pending', 'Succeeded', 'Failed'])
      expect(sample(text, 'obol_webhook_deliveries', { status })).toBe(1);
    expect(sample(text, 'obol_webhook_attempts_total', { result: 'success' })).toBe(2);
    expect(sample(text, 'obol_webhook_attempts_total', { result: 'failure' })).toBe(2);
  });
});
