import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTING_MSG, MSG } from '@obol/contract';
import type { Provider } from '../../../../provider/src/app.ts';
import { approvedCompany } from '../../test/companies.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { trialBalance } from '../ledger/service.ts';
import { latestDuePeriod, percentageOf, runDueRules } from './rules.ts';
import { recoverMovements } from '../engine/recover.ts';
import { accountingMovement } from './settlement.ts';
import { accountingRules, accountingTransactions } from './tables.ts';

describe('when a rule is due (UTC)', () => {
  const at = (iso: string) => new Date(iso);
  const daily = (interval: string) => ({ interval, intervalType: 'daily', intervalDay: null });
  it('daily: today once its time has come, yesterday before', () => {
    expect(latestDuePeriod(daily('14:30'), at('2026-11-25T14:30:00Z')).period).toBe('2026-11-25');
    expect(latestDuePeriod(daily('14:30'), at('2026-11-25T14:29:59Z')).period).toBe('2026-11-24');
    expect(latestDuePeriod(daily('00:00'), at('2026-03-01T00:00:00Z')).dueAt.toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
    expect(latestDuePeriod(daily('23:59'), at('2026-01-01T10:00:00Z')).period).toBe('2025-12-31');
  });
  it('weekly: the last such weekday at 00:00', () => {
    const w = (d: string) => ({ interval: '00:00', intervalType: 'weekly', intervalDay: d });
    // 2026-11-25 is a Wednesday
    expect(latestDuePeriod(w('Wednesday'), at('2026-11-25T00:00:00Z')).period).toBe('2026-11-25');
    expect(latestDuePeriod(w('Monday'), at('2026-11-25T12:00:00Z')).period).toBe('2026-11-23');
    expect(latestDuePeriod(w('Thursday'), at('2026-11-25T12:00:00Z')).period).toBe('2026-11-19');
    expect(latestDuePeriod(w('Sunday'), at('2026-11-25T12:00:00Z')).period).toBe('2026-11-22');
  });
  it('monthly: the day once reached, else last month; a month without the day runs on its last day', () => {
    const m = (d: string) => ({ interval: '00:00', intervalType: 'monthly', intervalDay: d });
    expect(latestDuePeriod(m('25'), at('2026-11-25T00:00:00Z')).period).toBe('2026-11-25');
    expect(latestDuePeriod(m('26'), at('2026-11-25T23:00:00Z')).period).toBe('2026-10-26');
    expect(latestDuePeriod(m('31'), at('2026-02-28T00:00:01Z')).period).toBe('2026-02-28');
    expect(latestDuePeriod(m('31'), at('2028-02-28T12:00:00Z')).period).toBe('2028-01-31');
    expect(latestDuePeriod(m('31'), at('2028-02-29T00:00:00Z')).period).toBe('2028-02-29');
    expect(latestDuePeriod(m('31'), at('2026-05-01T00:00:00Z')).period).toBe('2026-04-30');
    expect(latestDuePeriod(m('1'), at('2026-01-01T00:00:00Z')).period).toBe('2026-01-01');
  });
  it('a percentage of the balance is rounded down to the cent', () => {
    expect(percentageOf(1_000, 1250)).toBe(125);
    expect(percentageOf(999, 3333)).toBe(332); // 332.9667
    expect(percentageOf(1, 9999)).toBe(0);
    expect(percentageOf(123_456_789, 1)).toBe(12_345); // 0.01 %
    expect(percentageOf(50_000_000_000, 10_000)).toBe(50_000_000_000);
    expect(percentageOf(0, 5000)).toBe(0);
  });
});

let t: TestAppWithProvider;
let provider: Provider;
let admin2d: string;
let company: { id: number; accounts: { id: string; balance: number }[] };

beforeAll(async () => {
  // no workers: the scheduler is run here with the clock the test chooses
  t = await startTestAppWithProvider({ webhooks: 'none', provider: { settleMs: 100 } });
  provider = t.provider;
  admin2d = await t.signIn('2d-admin@obol.example');
  company = await approvedCompany(t, admin2d, {
    name: 'Rules Co',
    email: 'treasury@rules.example',
    api_key: 'ck_rules000000000000003',
  });
});
afterAll(async () => {
  await t?.close();
});

const amountRule = (over: Record<string, unknown> = {}) => ({
  company_id: company.id,
  rule_name: 'Weekly rent',
  reference: 'Rent',
  account_id: company.accounts[0].id,
  beneficiary_id: 'BEN-1',
  transfer_type: 'external_transfer',
  account_type: false,
  amount: '2500',
  interval: '00:00',
  interval_type: 'weekly',
  interval_day: 'Monday',
  ...over,
});
const percentageRule = (over: Record<string, unknown> = {}) => ({
  ...amountRule(),
  rule_name: 'Sweep to reserve',
  reference: 'Sweep',
  transfer_type: 'internal_transfer',
  beneficiary_id: company.accounts[1].id,
  account_type: true,
  amount: '12.5',
  interval: '06:00',
  interval_type: undefined,
  interval_day: undefined,
  ...over,
});
const balances = async () =>
  (
    (await t.post('/api/company-accounts', { companyId: company.id }, admin2d)).body.accounts as { balance: number }[]
  ).map((a) => a.balance);
async function ruleId(name: string) {
  const [row] = await t.deps.db.select().from(accountingRules).where(eq(accountingRules.ruleName, name));
  return row.id;
}
/** makes a rule look as if it had been created at `iso` */
const createdAt = (id: number, iso: string) =>
  t.deps.db
    .update(accountingRules)
    .set({ createdAt: new Date(iso) })
    .where(eq(accountingRules.id, id));
const runsOf = (id: number) =>
  t.deps.db.select().from(accountingTransactions).where(eq(accountingTransactions.ruleId, id));

describe('creating rules', () => {
  it('refuses every rule of section 5 with the field and its message', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [amountRule({ rule_name: '' }), 'rule_name', MSG.required],
      [amountRule({ rule_name: 'x'.repeat(101) }), 'rule_name', ACCOUNTING_MSG.max100],
      [amountRule({ reference: 'Rent!' }), 'reference', ACCOUNTING_MSG.alphanumeric],
      [amountRule({ amount: '25.5' }), 'amount', ACCOUNTING_MSG.ruleAmountWhole],
      [amountRule({ amount: '' }), 'amount', MSG.required],
      [amountRule({ interval_day: '' }), 'interval_day', ACCOUNTING_MSG.weekdayRequired],
      [amountRule({ interval_type: 'monthly', interval_day: '32' }), 'interval_day', ACCOUNTING_MSG.monthDayRange],
      [amountRule({ interval_type: 'monthly', interval_day: '0' }), 'interval_day', ACCOUNTING_MSG.monthDayRange],
      [percentageRule({ amount: '12.345' }), 'amount', ACCOUNTING_MSG.percentDecimal],
      [percentageRule({ amount: 'abc' }), 'amount', ACCOUNTING_MSG.percentDecimal],
      [percentageRule({ amount: '0' }), 'amount', ACCOUNTING_MSG.percentRange],
      [percentageRule({ amount: '100.01' }), 'amount', ACCOUNTING_MSG.percentRange],
      [percentageRule({ interval: '24:00' }), 'interval', ACCOUNTING_MSG.timeFormat],
      [amountRule({ transfer_type: '' }), 'transfer_type', MSG.required],
    ];
    for (const [body, field, message] of cases) {
      const r = await t.post('/api/create-accounting-rule', body, admin2d);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.fields[field], JSON.stringify(r.body)).toContain(message);
    }
    expect((await t.post('/api/create-accounting-rule', amountRule({ beneficiary_id: 'BEN-9' }), admin2d)).status).toBe(
      404,
    );
    expect((await t.post('/api/create-accounting-rule', amountRule({ company_id: 999_999 }), admin2d)).status).toBe(
      404,
    );
    const merchant = await t.signIn('merchant@obol.example');
    expect((await t.post('/api/create-accounting-rule', amountRule(), merchant)).status).toBe(403);
  });

  it('creates both kinds, lists them with counters, a search and the rule-type filter', async () => {
    for (const body of [amountRule(), percentageRule()]) {
      const r = await t.post('/api/create-accounting-rule', body, admin2d);
      expect(r.status, r.text).toBe(201);
      expect(r.body.message).toEqual([ACCOUNTING_MSG.ruleCreated]);
    }
    const all = await t.post('/api/accounting-rules', {}, admin2d);
    expect(all.body).toMatchObject({ total: 2, all_rules: 2, active_rules: 2, in_active_rules: 0 });
    expect(all.body.rules.find((r: { rule_name: string }) => r.rule_name === 'Sweep to reserve')).toMatchObject({
      rule_type: 'Percentage',
      amount: '12.5',
      interval: '06:00',
      interval_type: 'daily',
      interval_day: null,
      account_type: true,
      transfer_type: 'internal_transfer',
      beneficiary_id: company.accounts[1].id,
      company_name: 'Rules Co',
    });
    expect(all.body.rules.find((r: { rule_name: string }) => r.rule_name === 'Weekly rent')).toMatchObject({
      rule_type: 'Amount',
      amount: '2500',
      interval: '00:00',
      interval_type: 'weekly',
      interval_day: 'Monday',
      beneficiary_name: 'Northwind Supplies GmbH',
    });
    const pct = await t.post('/api/accounting-rules', { rule_type: 1 }, admin2d);
    expect(pct.body.rules.map((r: { rule_name: string }) => r.rule_name)).toEqual(['Sweep to reserve']);
    const search = await t.post('/api/accounting-rules', { search: 'rent' }, admin2d);
    expect(search.body.total).toBe(1);
  });
});

describe('the scheduler', () => {
  it('runs an amount rule once per period, even run four times at once, and not for a period before the rule', async () => {
    // one rule at a time: the percentage rule waits for its own test
    const sweep = await t.post('/api/update-rule-status', { id: await ruleId('Sweep to reserve'), status: 0 }, admin2d);
    expect(sweep.status).toBe(200);
    const id = await ruleId('Weekly rent');
    await createdAt(id, '2026-11-20T10:00:00Z');
    // Monday 2026-11-23 is the first period due after the rule was made
    const now = new Date('2026-11-25T12:00:00Z');
    const before = await balances();
    const ran = await Promise.all([1, 2, 3, 4].map(() => runDueRules(t.deps, now)));
    expect(ran.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const runs = await runsOf(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ period: '2026-11-23', amount: 2500, status: 'in_flight', transferBy: 'Scheduler' });
    expect((await balances())[0]).toBe(before[0] - 2500);
    expect(await runDueRules(t.deps, new Date('2026-11-29T23:59:00Z'))).toBe(0);
    // a rule made after Monday's run waits for next Monday
    const late = await ruleId('Weekly rent');
    await createdAt(late, '2026-11-24T10:00:00Z');
    await t.deps.db.update(accountingRules).set({ lastPeriod: null }).where(eq(accountingRules.id, late));
    expect(await runDueRules(t.deps, now)).toBe(0);
    await t.deps.db.update(accountingRules).set({ lastPeriod: '2026-11-23' }).where(eq(accountingRules.id, late));
  });

  it('a period missed while the server was down runs once when it is back; earlier ones are not made up', async () => {
    const id = await ruleId('Weekly rent');
    // the server was down from before Monday 30 Nov until Wednesday 16 Dec: two Mondays passed
    const back = new Date('2026-12-16T08:00:00Z');
    expect(await runDueRules(t.deps, back)).toBe(1);
    expect(await runDueRules(t.deps, back)).toBe(0);
    const runs = await runsOf(id);
    expect(runs.map((r) => r.period).sort()).toEqual(['2026-11-23', '2026-12-14']);
  });

  it('a percentage rule moves its share of the balance at run time, rounded down to the cent', async () => {
    const id = await ruleId('Sweep to reserve');
    await createdAt(id, '2026-11-25T05:00:00Z');
    const on = await t.post('/api/update-rule-status', { id, status: 1 }, admin2d);
    expect(on.body.message).toEqual([ACCOUNTING_MSG.ruleActivated]);
    const before = await balances();
    expect(await runDueRules(t.deps, new Date('2026-11-25T05:59:00Z'))).toBe(0);
    expect(await runDueRules(t.deps, new Date('2026-11-25T06:00:00Z'))).toBe(1);
    const [run] = await runsOf(id);
    const expected = Math.floor((before[0] * 1250) / 10_000);
    expect(run).toMatchObject({ period: '2026-11-25', status: 'completed', amount: expected, ruleType: 'Percentage' });
    const after = await balances();
    expect(after[0]).toBe(before[0] - expected);
    expect(after[1]).toBe(before[1] + expected);
  });

  it('records a run that cannot move money: FAILED beyond the balance, REJECTED for an inactive company', async () => {
    const big = await t.post(
      '/api/create-accounting-rule',
      amountRule({ rule_name: 'Too big', interval_type: 'daily', amount: '90000000000' }),
      admin2d,
    );
    expect(big.status, big.text).toBe(201);
    const id = await ruleId('Too big');
    await createdAt(id, '2026-11-01T00:00:00Z');
    const before = await balances();
    await runDueRules(t.deps, new Date('2026-11-26T01:00:00Z'));
    const [failed] = await runsOf(id);
    expect(failed).toMatchObject({ period: '2026-11-26', status: 'failed', reason: 'Insufficient balance' });
    expect(await balances()).toEqual(before);
    expect((await t.post('/api/update-company-status', { id: company.id, status: 0 }, admin2d)).status).toBe(200);
    await runDueRules(t.deps, new Date('2026-11-27T01:00:00Z'));
    const rejected = (await runsOf(id)).find((r) => r.period === '2026-11-27');
    expect(rejected).toMatchObject({ status: 'rejected', reason: ACCOUNTING_MSG.companyInactive });
    expect((await t.post('/api/update-company-status', { id: company.id, status: 1 }, admin2d)).status).toBe(200);
    // an inactive rule is not run; a deleted rule is gone, its runs stay
    const off = await t.post('/api/update-rule-status', { id, status: 0 }, admin2d);
    expect(off.body.message).toEqual([ACCOUNTING_MSG.ruleDeactivated]);
    await runDueRules(t.deps, new Date('2026-11-28T01:00:00Z'));
    expect(await runsOf(id)).toHaveLength(2);
    const del = await t.post('/api/delete-rule', { id }, admin2d);
    expect(del.body.message).toEqual([ACCOUNTING_MSG.ruleDeleted]);
    expect((await t.post('/api/delete-rule', { id }, admin2d)).status).toBe(404);
    expect((await t.post('/api/update-rule-status', { id, status: 1 }, admin2d)).status).toBe(404);
    expect(await runsOf(id)).toHaveLength(2);
    const [{ n }] = (
      await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM accounting_transactions WHERE rule_name = 'Too big'`)
    ).rows as { n: number }[];
    expect(n).toBe(2);
  });
});

describe('a process that died right after committing a run', () => {
  it('leaves the external runs PENDING with no worker; the recovery sends each once and settles it once', async () => {
    const pending = await t.deps.db
      .select()
      .from(accountingTransactions)
      .where(eq(accountingTransactions.status, 'in_flight'));
    // the weekly rule's two runs: committed with their money and job, never sent (no worker here)
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(pending.every((p) => p.providerId === null)).toBe(true);
    const before = await balances();
    // two recoveries at once: each run is sent under its own key, so the provider has it once
    await Promise.all([1, 2].map(() => recoverMovements(t.deps, accountingMovement, 0)));
    await new Promise((r) => setTimeout(r, 400)); // the simulator settles after 100 ms
    const settled = await Promise.all([1, 2].map(() => recoverMovements(t.deps, accountingMovement, 0)));
    expect(settled.reduce((a, b) => a + b.settled, 0)).toBe(pending.length);
    for (const p of pending) {
      const [row] = await t.deps.db.select().from(accountingTransactions).where(eq(accountingTransactions.id, p.id));
      expect(row.status).toBe('completed');
      expect(
        await provider.app
          .inject({
            method: 'GET',
            url: `/transfers?idempotency_key=${encodeURIComponent(p.idempotencyKey)}`,
            headers: { authorization: `Bearer ${t.providerKey}` },
          })
          .then((r) => r.json().status),
      ).toBe('Completed');
    }
    // the money left when the runs were committed; settling moved nothing more out of the company
    expect(await balances()).toEqual(before);
    expect((await recoverMovements(t.deps, accountingMovement, 0)).settled).toBe(0);
    const tb = await trialBalance(t.deps.db);
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });
});
