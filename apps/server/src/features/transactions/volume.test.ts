import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db.ts';
import { userIdByEmail } from '../../seed.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

/**
 * The payout-volume chart over a fixture of payouts written straight to the database: two merchants, a brand of
 * the first, payouts in every status over the last days, one older than the default 30 days.
 */
let t: TestApp;
const tok: Record<string, string> = {};
const id: Record<string, number> = {};
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
const at = (n: number, time: string) => `${daysAgo(n)}T${time}Z`;

let seq = 0;
async function payout(merchant: number, behalf: number, status: string, amount: number, updated: string, name = 'P') {
  const acc = rowsOf<{ id: number }>(
    await t.deps.db.execute(sql`SELECT id FROM accounts WHERE owner_id = ${behalf} AND kind = 'payout'`),
  )[0].id;
  seq += 1;
  await t.deps.db.execute(sql`
    INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, payout_type, merchant_transaction_id,
      beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key, created_at, updated_at)
    VALUES (${merchant}, ${behalf}, ${acc}, ${merchant}, 'manual', ${'V-' + seq}, ${name}, 'Acme Payouts', '100000001',
      ${'REF-V' + seq}, ${amount}, 0, 0, ${status}, ${'vol:' + seq}, ${updated}::timestamptz, ${updated}::timestamptz)`);
}

const volume = (body: object, who = 'admin') => t.post('/api/payout-volume', body, tok[who]);
const list = (body: object, who = 'admin') => t.post('/api/payout-transactions', { per_page: 100, ...body }, tok[who]);

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'silent' });
  for (const k of ['admin', 'merchant', 'brand', 'merchant2']) {
    id[k] = (await userIdByEmail(t.deps.db, `${k}@obol.example`))!;
    tok[k] = await t.signIn(`${k}@obol.example`);
  }
  const m = id.merchant;
  await payout(m, m, 'completed', 1000, at(1, '10:00:00'), 'Alice');
  await payout(m, m, 'completed', 250, at(1, '11:00:00'), 'Alice');
  await payout(m, m, 'failed', 700, at(1, '12:00:00'), 'Bob');
  await payout(m, m, 'pending', 300, at(2, '09:00:00'), 'Carol');
  await payout(m, m, 'in_flight', 200, at(2, '09:30:00'), 'Carol');
  await payout(m, id.brand, 'completed', 5000, at(3, '08:00:00'), 'Dan');
  // 23:30 UTC is the next day in Berlin
  await payout(m, m, 'completed', 111, at(4, '23:30:00'), 'Eve');
  // older than the default range
  await payout(m, m, 'completed', 9000, at(40, '12:00:00'), 'Old');
  await payout(id.merchant2, id.merchant2, 'completed', 77_777, at(1, '10:00:00'), 'Zed');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('POST /api/payout-volume', () => {
  it('covers the last 30 days by default, every day listed, by status group, in integer cents', async () => {
    const r = await volume({}, 'merchant');
    expect(r.status).toBe(200);
    expect(r.body.days).toHaveLength(30);
    expect(r.body.start_date).toBe(daysAgo(29));
    expect(r.body.end_date).toBe(daysAgo(0));
    expect(r.body.days.map((d: { day: string }) => d.day)).toEqual([...Array(30)].map((_, i) => daysAgo(29 - i)));
    const day1 = r.body.days.find((d: { day: string }) => d.day === daysAgo(1));
    expect(day1).toEqual({
      day: daysAgo(1),
      completed: { count: 2, amount: 1250 },
      pending: { count: 0, amount: 0 },
      failed: { count: 1, amount: 700 },
    });
    const day2 = r.body.days.find((d: { day: string }) => d.day === daysAgo(2));
    expect(day2.pending).toEqual({ count: 2, amount: 500 });
    expect(r.body.totals).toEqual({
      completed: { count: 4, amount: 6361 },
      pending: { count: 2, amount: 500 },
      failed: { count: 1, amount: 700 },
    });
  });

  it("keeps to the caller's scope: a merchant its own, a brand what was made on its behalf, staff all", async () => {
    const other = await volume({}, 'merchant2');
    expect(other.body.totals.completed).toEqual({ count: 1, amount: 77_777 });
    expect(other.body.totals.failed.count + other.body.totals.pending.count).toBe(0);
    const brand = await volume({}, 'brand');
    expect(brand.body.totals.completed).toEqual({ count: 1, amount: 5000 });
    const staff = await volume({});
    expect(staff.body.totals.completed).toEqual({ count: 5, amount: 6361 + 77_777 });
  });

  it("applies the list's filters, and its sums are the list's for the same filters", async () => {
    const filters: object[] = [
      { start_date: daysAgo(45), end_date: daysAgo(0) },
      { start_date: daysAgo(2), end_date: daysAgo(1), status: 'Completed' },
      { start_date: daysAgo(10), beneficiary_name: 'caro', end_date: daysAgo(0) },
      { start_date: daysAgo(10), end_date: daysAgo(0), amount: 700 },
      { start_date: daysAgo(10), end_date: daysAgo(0), brand: 'Acme Payouts', behalf_of: 'acme br' },
    ];
    for (const who of ['merchant', 'admin', 'brand'])
      for (const f of filters) {
        const v = (await volume(f, who)).body;
        const l = (await list(f, who)).body.transactions;
        const groups = Object.values(v.totals) as { count: number; amount: number }[];
        const label = `${who} ${JSON.stringify(f)}`;
        expect(
          groups.reduce((s, g) => s + g.count, 0),
          label,
        ).toBe(l.total);
        expect(
          groups.reduce((s, g) => s + g.amount, 0),
          label,
        ).toBe(l.data.reduce((s: number, x: { amount: number }) => s + x.amount, 0));
        // and the days add up to the totals
        const dayCount = v.days.reduce(
          (s: number, d: Record<string, { count: number }>) => s + d.completed.count + d.pending.count + d.failed.count,
          0,
        );
        expect(dayCount, label).toBe(l.total);
      }
    const failed = await volume({ status: 'Failed' }, 'merchant');
    expect(failed.body.totals).toMatchObject({ completed: { count: 0 }, failed: { count: 1, amount: 700 } });
  });

  it("groups by the calendar day of the browser's time zone", async () => {
    const utc = (await volume({ start_date: daysAgo(5), end_date: daysAgo(3) }, 'merchant')).body;
    expect(utc.days.find((d: { day: string }) => d.day === daysAgo(4)).completed.count).toBe(1);
    const berlin = (await volume({ start_date: daysAgo(5), end_date: daysAgo(3), tz: 'Europe/Berlin' }, 'merchant'))
      .body;
    expect(berlin.tz).toBe('Europe/Berlin');
    expect(berlin.days.find((d: { day: string }) => d.day === daysAgo(4)).completed.count).toBe(0);
    expect(berlin.days.find((d: { day: string }) => d.day === daysAgo(3)).completed.count).toBe(2);
  });

  it('takes one date as that day and reorders a reversed range', async () => {
    const one = (await volume({ start_date: daysAgo(1) }, 'merchant')).body;
    expect(one.days).toHaveLength(1);
    expect(one.totals.completed.count).toBe(2);
    const reversed = (await volume({ start_date: daysAgo(1), end_date: daysAgo(3) }, 'merchant')).body;
    expect([reversed.start_date, reversed.end_date]).toEqual([daysAgo(3), daysAgo(1)]);
    expect(reversed.days).toHaveLength(3);
  });

  it('refuses bad input with the field and its message', async () => {
    const tomorrow = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);
    const cases: [object, string, string][] = [
      [{ start_date: daysAgo(92), end_date: daysAgo(0) }, 'start_date', 'The chart covers at most 92 days'],
      [{ start_date: '2026-02-30' }, 'start_date', 'Date must be a valid date (YYYY-MM-DD)'],
      [{ start_date: tomorrow }, 'start_date', 'Date must not be after today'],
      [{ status: 'Lost' }, 'status', 'status must be Completed, Pending, Failed or Processing'],
      [{ amount: -1 }, 'amount', 'Amount must be 0 or more'],
      [{ tz: 'Mars/Olympus' }, 'tz', 'tz must be a valid IANA time zone'],
    ];
    for (const [body, field, message] of cases) {
      const r = await volume(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.fields[field], JSON.stringify(body)).toEqual([message]);
    }
    expect((await volume({ start_date: daysAgo(91), end_date: daysAgo(0) })).status).toBe(200);
  });

  it('needs a session and the permission to view transactions', async () => {
    expect((await t.post('/api/payout-volume', {})).status).toBe(401);
  });
});
