import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from './platform/db.ts';
import { ledgerTotal } from './test/ledger.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from './test/with-provider.ts';
import { seedDemoApproval, seedDemoPayouts } from './demo.ts';
import { seedDemoDownloads, seedDemoPayins, seedDemoWebhook } from './demo-payins.ts';

let t: TestAppWithProvider;
beforeAll(async () => {
  t = await startTestAppWithProvider();
});
afterAll(async () => {
  await t?.close();
});

const balanced = () => ledgerTotal(t.deps.db);

const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.deps.db.execute(q))[0];

it('adds the merchant a webhook endpoint to the demo shop, once', async () => {
  expect(await seedDemoWebhook(t.deps)).toBe(true);
  expect(await seedDemoWebhook(t.deps)).toBe(false);
  const merchant = await t.signIn('merchant@obol.example');
  const list = await t.post('/api/webhook-endpoints', {}, merchant);
  expect(list.status, list.text).toBe(200);
  expect(list.body.data).toHaveLength(1);
  expect(list.body.data[0].url).toMatch(/\/api\/demo-shop\/[0-9a-f]{32}\/webhook$/);
});

it('makes pay-ins through the merchant API, settles the payers’ answers and refunds one, once', async () => {
  expect(await seedDemoPayins(t.app, t.deps)).toBe(7);
  const counts = () =>
    one<Record<string, number>>(sql`SELECT
        count(*) FILTER (WHERE channel = 'Payin')::int AS payin,
        count(*) FILTER (WHERE channel = 'CardEye')::int AS cardeye,
        count(*) FILTER (WHERE status = 'completed')::int AS completed,
        count(*) FILTER (WHERE status = 'failed')::int AS declined,
        count(*) FILTER (WHERE status = 'in_flight')::int AS pending,
        count(*) FILTER (WHERE refund_status = 2)::int AS refunding,
        (SELECT count(*)::int FROM payin_rewards) AS rewards,
        (SELECT count(*)::int FROM refunds) AS refunds,
        (SELECT count(*)::int FROM journal_entries WHERE idempotency_key LIKE 'payin:%:complete') AS credited
      FROM payins`);
  const want = {
    payin: 5,
    cardeye: 2,
    completed: 5,
    declined: 1,
    pending: 1,
    refunding: 1,
    rewards: 2,
    refunds: 1,
    credited: 5,
  };
  expect(await counts()).toEqual(want);
  expect(await balanced()).toBe(0);
  // a second run answers the same links under the same keys: nothing new
  expect(await seedDemoPayins(t.app, t.deps)).toBe(7);
  expect(await counts()).toEqual(want);
  expect(await balanced()).toBe(0);

  const merchant = await t.signIn('merchant@obol.example');
  const cardeye = await t.post('/api/pay-in-order-details', { channel: 'CardEye' }, merchant);
  expect(cardeye.status, cardeye.text).toBe(200);
  expect(JSON.stringify(cardeye.body)).toContain('Till 2 (Klara Horvat)');
  const brand = await t.signIn('brand@obol.example');
  const own = await t.post('/api/pay-in-order-details', { channel: 'Payin' }, brand);
  expect(JSON.stringify(own.body)).toContain('BRAND-2026-0007');
  expect(JSON.stringify(own.body)).not.toContain('ORDER-2026-1041');
});

it('holds a transfer above Globex’s threshold for a second person, once', async () => {
  expect(await seedDemoApproval(t.deps)).toBe(true);
  expect(await seedDemoApproval(t.deps)).toBe(false);
  const held = await one<{ n: number; status: string; reserved: number }>(sql`SELECT count(*)::int AS n,
      min(t.status) AS status,
      count(*) FILTER (
        WHERE EXISTS (SELECT 1 FROM journal_entries j WHERE j.idempotency_key = 'transfer:' || t.id || ':reserve')
      )::int AS reserved
    FROM transfers t`);
  expect(held).toEqual({ n: 1, status: 'held', reserved: 1 });
  const jobs = await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'transfer.submit'`);
  expect(jobs.n).toBe(0);
  const admin = await t.signIn('admin@obol.example');
  const list = await t.post('/api/approvals', {}, admin);
  expect(list.status, list.text).toBe(200);
  expect(JSON.stringify(list.body)).toContain('Globex Property Ltd');
  expect(await balanced()).toBe(0);
});

it('asks for an export of the merchant’s payouts and a report, once', async () => {
  expect(await seedDemoDownloads(t.deps)).toBe(0); // no payout yet: nothing to export, no file
  await seedDemoPayouts(t.deps);
  expect(await seedDemoDownloads(t.deps)).toBe(2);
  expect(await seedDemoDownloads(t.deps)).toBe(0);
  const files = await one<{ transactions: number; reports: number; queued: number }>(sql`SELECT
      count(*) FILTER (WHERE kind = 'payouts' AND is_report = 0)::int AS transactions,
      count(*) FILTER (WHERE is_report = 1)::int AS reports,
      (SELECT count(*)::int FROM pgboss.job WHERE name = 'export.run') AS queued
    FROM download_files`);
  expect(files).toEqual({ transactions: 1, reports: 1, queued: 2 });
});
