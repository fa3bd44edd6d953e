import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowsOf } from './platform/db.ts';
import { ledgerTotal } from './test/ledger.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from './test/with-provider.ts';
import { seedDemoAccounting } from './demo-accounting.ts';

let t: TestAppWithProvider;
beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 100 } });
});
// closing waits for the workers' jobs, which the seeded rules start: past the 60 s default once in a loaded full run
afterAll(async () => {
  await t?.close();
}, 180_000);

const balanced = () => ledgerTotal(t.deps.db);

it('seeds approved 2D companies, their rules and 2D transactions through the ledger', async () => {
  expect(await seedDemoAccounting(t.deps)).toBe(6);
  expect(await balanced()).toBe(0);
  const admin2d = await t.signIn('2d-admin@obol.example');

  const companies = await t.post('/api/companies', {}, admin2d);
  expect(companies.body.companies.map((c: { name: string; consent: string; status: number }) => c)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'Initech Holding', consent: 'Approved', status: 1, accounts: 3 }),
      expect.objectContaining({ name: 'Umbrella Group', consent: 'Approved', status: 1, accounts: 2 }),
    ]),
  );
  const rules = await t.post('/api/accounting-rules', {}, admin2d);
  expect(rules.body.all_rules).toBe(4);

  // every 2D transaction moved its money under its own key: the internal ones at once, the external reserved
  const [p] = rowsOf<{ n: number; internal: number; reserved: number }>(
    await t.deps.db.execute(sql`SELECT count(*)::int AS n,
        count(*) FILTER (
          WHERE EXISTS (SELECT 1 FROM journal_entries j WHERE j.idempotency_key = '2d:' || a.id || ':internal')
        )::int AS internal,
        count(*) FILTER (
          WHERE EXISTS (SELECT 1 FROM journal_entries j WHERE j.idempotency_key = '2d:' || a.id || ':reserve')
        )::int AS reserved
      FROM accounting_transactions a`),
  );
  expect(p).toEqual({ n: 6, internal: 2, reserved: 4 });

  // the simulator pays the external ones, but for the closed account, whose money goes back
  const end = Date.now() + 15_000;
  let statuses: string[] = [];
  for (;;) {
    const list = await t.post('/api/accounting-transactions', { per_page: 20 }, admin2d);
    statuses = list.body.transactions.map((r: { status: string }) => r.status).sort();
    if (!statuses.includes('PENDING') || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(statuses).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED']);
  expect(await balanced()).toBe(0);
});
