import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from './platform/db.ts';
import { startTestApp, type TestApp } from './test/harness.ts';
import { ledgerTotal } from './test/ledger.ts';
import { seedDemoPayouts, seedDemoTransfers } from './demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('seeds a demo payout history through the ledger, each payout reserved and queued for the provider', async () => {
  expect(await seedDemoPayouts(t.deps)).toBe(20);
  const [p] = rowsOf<{ n: number; processing: number; reserved: number }>(
    await t.deps.db.execute(sql`SELECT count(*)::int AS n,
        count(*) FILTER (WHERE status = 'in_flight')::int AS processing,
        count(*) FILTER (
          WHERE EXISTS (SELECT 1 FROM journal_entries j WHERE j.idempotency_key = 'payout:' || payouts.id || ':reserve')
        )::int AS reserved
      FROM payouts`),
  );
  expect(p).toEqual({ n: 20, processing: 20, reserved: 20 });
  expect(await ledgerTotal(t.deps.db)).toBe(0);
  const admin = await t.signIn('admin@obol.example');
  const list = await t.post('/api/payout-transactions', { per_page: 30 }, admin);
  expect(list.body.transactions.total).toBe(20);
  const merchant2 = await t.signIn('merchant2@obol.example');
  expect((await t.post('/api/payout-transactions', {}, merchant2)).body.transactions.total).toBe(4);
});

it('seeds demo transfers from the merchants’ accounts, reserved in the ledger, queued for the provider', async () => {
  expect(await seedDemoTransfers(t.deps)).toBe(4);
  const [p] = rowsOf<{ n: number; pending: number; reserved: number; queued: number }>(
    await t.deps.db.execute(sql`SELECT count(*)::int AS n,
        count(*) FILTER (WHERE status = 'in_flight')::int AS pending,
        count(*) FILTER (
          WHERE EXISTS (SELECT 1 FROM journal_entries j WHERE j.idempotency_key = 'transfer:' || t.id || ':reserve')
        )::int AS reserved,
        (SELECT count(*)::int FROM pgboss.job WHERE name = 'transfer.submit') AS queued
      FROM transfers t`),
  );
  expect(p).toEqual({ n: 4, pending: 4, reserved: 4, queued: 4 });
  expect(await ledgerTotal(t.deps.db)).toBe(0);
  const merchant = await t.signIn('merchant@obol.example');
  const mine = await t.post('/api/get-amount-transfer-details', {}, merchant);
  expect(mine.status).toBe(403); // a merchant has no Transfers permission by default
  const accountant = await t.signIn('accountant@obol.example');
  const all = await t.post('/api/get-amount-transfer-details', {}, accountant);
  expect(all.body.total).toBe(4);
  expect(new Set(all.body.data.map((r: { merchant_name: string }) => r.merchant_name))).toEqual(
    new Set(['Acme Payouts', 'Acme Brand']),
  );
});
