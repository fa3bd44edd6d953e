import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../platform/db.ts';
import { seedDemoPayouts } from '../../demo.ts';
import { engine, exportedLines } from '../../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { holderAccounts, platformAccountId } from '../ledger/accounts.ts';
import { postEntries } from '../ledger/batch.ts';
import { accounts } from '../ledger/tables.ts';
import { payouts } from '../payouts/tables.ts';
import { users } from '../users/tables.ts';
import { ACTIVITY_REPORT } from './reports.ts';

let t: TestAppWithProvider;
let merchant: string;
let brand: string;
let admin: string;
let globex: string;
const ids: Record<string, number> = {};
const day = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 50 } });
  for (const email of ['merchant@obol.example', 'brand@obol.example', 'merchant2@obol.example']) {
    const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
    ids[email] = u.id;
  }
  await seedDemoPayouts(t.deps);
  const end = Date.now() + 30_000;
  while ((await t.deps.db.select().from(payouts).where(eq(payouts.status, 'in_flight'))).length) {
    if (Date.now() > end) throw new Error('demo payouts still in flight');
    await new Promise((r) => setTimeout(r, 100));
  }
  merchant = await t.signIn('merchant@obol.example');
  brand = await t.signIn('brand@obol.example');
  admin = await t.signIn('admin@obol.example');
  globex = await t.signIn('merchant2@obol.example');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** RFC 4180 lines into cells (quoted cells may hold commas). */
const parse = (lines: string[]) =>
  lines.map((line) => {
    const cells: string[] = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cur);
        cur = '';
      } else cur += ch;
    }
    cells.push(cur);
    return cells;
  });

/** Pulls a report and reads its file from the report downloads: the header and the rows, as cells. */
async function pull(path: string, body: Record<string, unknown>, token: string) {
  const r = await t.post(path, { start_date: day, end_date: day, ...body }, token);
  expect(r.status, r.text).toBe(200);
  expect(r.body.message).toEqual(['Process is running in the background. Please wait.']);
  expect(r.body.file).toMatchObject({ is_report: 1, status: 'Initiated' });
  const lines = await exportedLines(t, r.body.file.id as string, token, { type: 1 });
  const [header, ...rows] = parse(lines);
  return { id: r.body.file.id as string, header, rows, col: (name: string) => header.indexOf(name) };
}

describe('reports', () => {
  it('merchant activity: every movement of the accounts with the balance after it, equal to the ledger', async () => {
    const r = await pull('/api/activity-report', { auth_id: ids['merchant@obol.example'] }, merchant);
    expect(r.header).toContain('Balance After (cents)');
    const acct = r.col('Account ID');
    const amount = r.col('Amount (cents)');
    const after = r.col('Balance After (cents)');
    const byAccount = new Map<string, string[][]>();
    for (const row of r.rows) byAccount.set(row[acct], [...(byAccount.get(row[acct]) ?? []), row]);
    // the merchant's and its brand's accounts, nobody else's
    const owners = await t.deps.db
      .select({ accountId: accounts.accountId, ownerId: accounts.ownerId, balance: accounts.balance })
      .from(accounts)
      .where(inArray(accounts.accountId, [...byAccount.keys()]));
    expect(new Set(owners.map((o) => o.ownerId))).toEqual(
      new Set([ids['merchant@obol.example'], ids['brand@obol.example']]),
    );
    for (const o of owners) {
      const rows = byAccount.get(o.accountId)!;
      // today holds every posting: the last balance is the account's, and each balance follows from the one before
      expect(Number(rows.at(-1)![after]), o.accountId).toBe(o.balance);
      let running = Number(rows[0][after]) - Number(rows[0][amount]);
      for (const row of rows) {
        running += Number(row[amount]);
        expect(Number(row[after])).toBe(running);
      }
      const [sum] = rowsOf<{ n: string; total: string }>(
        await t.deps.db.execute(sql`SELECT count(*) AS n, sum(p.amount) AS total FROM postings p
          JOIN accounts a ON a.id = p.account_id WHERE a.account_id = ${o.accountId}`),
      );
      expect(rows.length).toBe(Number(sum.n));
      expect(rows.reduce((s, row) => s + Number(row[amount]), 0)).toBe(Number(sum.total));
    }
  });

  it('a brand’s report holds only its own rows; Select All is the caller’s scope; another tenant’s holder is 404', async () => {
    const own = await pull('/api/activity-report', { auth_id: ids['brand@obol.example'] }, brand);
    const brandAccounts = (
      await t.deps.db
        .select({ accountId: accounts.accountId })
        .from(accounts)
        .where(eq(accounts.ownerId, ids['brand@obol.example']))
    ).map((a) => a.accountId);
    expect(own.rows.length).toBeGreaterThan(0);
    expect(own.rows.every((row) => brandAccounts.includes(row[own.col('Account ID')]))).toBe(true);
    // a brand cannot pull its merchant's, nor Select All beyond itself
    expect(
      (await t.post('/api/activity-report', { auth_id: ids['merchant@obol.example'], start_date: day }, brand)).status,
    ).toBe(404);
    const all = await pull('/api/activity-report', { auth_id: 0 }, merchant);
    const holders = new Set(all.rows.map((row) => row[all.col('Holder')]));
    expect(holders.has('Globex Trading')).toBe(false);
    expect(holders.has('Acme Payouts')).toBe(true);
    expect(
      (await t.post('/api/activity-report', { auth_id: ids['merchant2@obol.example'], start_date: day }, merchant))
        .status,
    ).toBe(404);
    // Select All is the activity report's only
    const bad = await t.post('/api/fee-report', { auth_id: 0, start_date: day }, merchant);
    expect(bad.status).toBe(400);
    expect(bad.body.fields.auth_id).toEqual(['Select a merchant or brand']);
    const noDate = await t.post('/api/fee-report', { auth_id: ids['merchant@obol.example'] }, merchant);
    expect(noDate.status).toBe(400);
    expect(noDate.body.fields.start_date).toEqual(['Date Range is required']);
    const future = await t.post(
      '/api/fee-report',
      { auth_id: ids['merchant@obol.example'], start_date: '2999-01-01' },
      merchant,
    );
    expect(future.status).toBe(400);
    // another tenant's report file answers 404
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/download-file/${own.id}`,
      headers: { authorization: `Bearer ${globex}` },
    });
    expect(file.statusCode).toBe(404);
    // without a report permission: 403
    const ops = await t.signIn('payment-ops@obol.example');
    expect((await t.post('/api/activity-report', { auth_id: 0, start_date: day }, ops)).status).toBe(403);
  });

  it('fees by merchant: per merchant and brand, with a total equal to the completed list’s fee total', async () => {
    // a brand's role pulls activity, batch payout and failed transfer reports, not fees (DECISIONS.md)
    expect(
      (await t.post('/api/fee-report', { auth_id: ids['brand@obol.example'], start_date: day }, brand)).status,
    ).toBe(403);
    // the merchant for itself (its brand's included), for its brand alone; the admin for another merchant
    for (const [token, id, listToken] of [
      [merchant, ids['merchant@obol.example'], merchant],
      [merchant, ids['brand@obol.example'], brand],
      [admin, ids['merchant2@obol.example'], globex],
    ] as const) {
      const r = await pull('/api/fee-report', { auth_id: id }, token);
      const total = r.rows.at(-1)!;
      expect(total[0]).toBe('Total');
      const fees = r.col('Fees (cents)');
      expect(r.rows.slice(0, -1).reduce((s, row) => s + Number(row[fees]), 0)).toBe(Number(total[fees]));
      // the completed list of the holder's own sign-in, for the same day
      const list = await t.post(
        '/api/completed-transactions',
        { start_date: day, end_date: day, per_page: 10 },
        listToken,
      );
      expect(list.status, list.text).toBe(200);
      expect(Number(total[fees])).toBe(list.body.fee.total_cent_fee);
      expect(Number(total[fees])).toBeGreaterThan(0);
    }
  });

  it('failed transfers and batch payouts: the payouts and batches of the day in scope, with reasons and outcomes', async () => {
    const failed = await pull('/api/failed-report', { auth_id: ids['merchant@obol.example'] }, merchant);
    const dbFailed = await t.deps.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.merchantId, ids['merchant@obol.example']), eq(payouts.status, 'failed')));
    expect(failed.rows.length).toBe(dbFailed.length);
    expect(failed.rows.length).toBeGreaterThan(0);
    const reasons = failed.rows.map((row) => row[failed.col('Reason')]);
    expect(reasons).toContain('Declined by provider');
    expect(reasons).toContain('Brand does not match');

    const batchesReport = await pull(
      '/api/payout-report',
      { auth_id: ids['merchant@obol.example'], format: 'csv' },
      merchant,
    );
    const [agg] = rowsOf<{ n: string; amount: string }>(
      await t.deps.db.execute(sql`SELECT count(*) AS n, sum(amount) AS amount FROM batches
        WHERE merchant_id = ${ids['merchant@obol.example']} AND executed_at IS NOT NULL`),
    );
    expect(batchesReport.rows.length).toBe(Number(agg.n));
    const completed = batchesReport.col('Completed');
    const failedN = batchesReport.col('Failed');
    expect(batchesReport.rows.reduce((s, row) => s + Number(row[completed]) + Number(row[failedN]), 0)).toBe(
      Number(agg.n),
    );
    // a brand's holds only the brand's batches
    const own = await pull('/api/payout-report', { auth_id: ids['brand@obol.example'] }, brand);
    expect(own.rows.length).toBe(4);
    expect(new Set(own.rows.map((row) => row[own.col('Behalf Of')]))).toEqual(new Set(['Acme Brand']));
  });

  it('the fee chart: this month’s fees per merchant (staff) or holder (a merchant), equal to the completed list’s', async () => {
    const month = new Date().toISOString().slice(0, 7);
    const mine = await t.post('/api/fee-chart', { months: 3 }, merchant);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.months).toHaveLength(3);
    expect(mine.body.months.at(-1)).toBe(month);
    const names = mine.body.series.map((s: { name: string }) => s.name).sort();
    expect(names).toEqual(['Acme Brand', 'Acme Payouts']);
    const sum = (body: { series: { fees: number[] }[] }) => body.series.reduce((n, s) => n + s.fees.at(-1)!, 0);
    const list = await t.post(
      '/api/completed-transactions',
      { start_date: `${month}-01`, end_date: day, tz: 'UTC', per_page: 10 },
      merchant,
    );
    expect(sum(mine.body)).toBe(list.body.fee.total_cent_fee);
    const staff = await t.post('/api/fee-chart', {}, admin);
    expect(staff.body.months).toHaveLength(12);
    expect(staff.body.series.map((s: { name: string }) => s.name).sort()).toEqual(['Acme Payouts', 'Globex Trading']);
    expect((await t.post('/api/fee-chart', { months: 25 }, admin)).status).toBe(400);
    expect((await t.post('/api/fee-chart', {}, brand)).status).toBe(403);
  });

  it('an XLSX report is a workbook', async () => {
    const r = await t.post(
      '/api/fee-report',
      { auth_id: ids['merchant@obol.example'], start_date: day, format: 'xlsx' },
      merchant,
    );
    expect(r.status).toBe(200);
    expect(r.body.file.file_name).toMatch(/^fees-by-merchant-report-.*\.xlsx$/);
  });

  it.skipIf(engine !== 'pglite')(
    'on PGlite, requests are answered while a long report is written, chunk by chunk',
    async () => {
      // 20,000 movements today on the merchant's payout account, through the ledger
      const merchantId = ids['merchant@obol.example'];
      const account = (await holderAccounts(t.deps.db, merchantId)).payout!.id;
      const bank = await platformAccountId(t.deps.db, 'provider');
      for (let i = 0; i < 20_000; i += 500)
        await t.deps.db.transaction((tx) =>
          postEntries(
            tx,
            Array.from({ length: 500 }, (_, j) => ({
              idempotencyKey: `report-load:${i + j}`,
              kind: 'payout.funding',
              postings: [
                { accountId: bank, amount: -1 },
                { accountId: account, amount: 1 },
              ],
            })),
          ),
        );
      // when the export reads each chunk
      const reads: number[] = [];
      const original = ACTIVITY_REPORT.chunk!;
      const spy = vi.spyOn(ACTIVITY_REPORT, 'chunk').mockImplementation((...args) => {
        reads.push(performance.now());
        return original(...args);
      });
      try {
        const r = await t.post(
          '/api/activity-report',
          { start_date: day, end_date: day, auth_id: merchantId },
          merchant,
        );
        expect(r.status).toBe(200);
        const fileId = r.body.file.id as string;
        // requests go on until the file is written: their start and end times
        const answered: [number, number][] = [];
        const end = Date.now() + 60_000;
        for (;;) {
          const start = performance.now();
          const list = await t.post('/api/download-files', { type: 1, page: 1, per_page: 10 }, merchant);
          answered.push([start, performance.now()]);
          const file = (list.body.data as { id: string; status: string }[]).find((f) => f.id === fileId);
          if (file?.status === 'Completed') break;
          expect(file?.status).toBe('Initiated');
          if (Date.now() > end) throw new Error('the report took over a minute');
        }
        // requests that started after the first chunk was read and ended before the last one was; many chunks
        const [first, last] = [reads[0], reads.at(-1)!];
        expect(answered.filter(([a, b]) => a > first && b < last).length).toBeGreaterThan(3);
        expect(reads.length).toBeGreaterThan(10);
        const lines = await exportedLines(t, fileId, merchant, { type: 1 });
        expect(lines.length).toBeGreaterThan(20_000);
      } finally {
        spy.mockRestore();
      }
    },
    120_000,
  );
});
