import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTING_MSG, MSG } from '@obol/contract';
import { DEMO_PASSWORD, exportedLines } from '../../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { activityLog } from '../../platform/tables.ts';
import { users } from '../users/tables.ts';
import { accountingTransactions, companies } from './tables.ts';

/** the simulator's documented company keys (docs/provider.md) */
const ACME_KEY = 'ck_acme0000000000000001';
const GLOBEX_KEY = 'ck_globex000000000000002';
let t: TestAppWithProvider;
let admin2d: string;
let merchant: string;
let admin: string;
/** the Acme company, approved */
let acme: { id: number; accounts: { id: string; balance: number; account_iban: string }[] };

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 100 } });
  admin2d = await t.signIn('2d-admin@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  admin = await t.signIn('admin@obol.example');
});
afterAll(async () => {
  await t?.close();
});

const tokenOf = (mailText: string) => /token=([\w-]+)/.exec(mailText)![1];
const trialBalance = async () => (await t.post('/api/trial-balance', {}, admin)).body;
const accountsOf = async (companyId: number) =>
  (await t.post('/api/company-accounts', { companyId }, admin2d)).body.accounts as {
    id: string;
    balance: number;
    account_iban: string;
    ledger_account_id: string;
  }[];
async function register(name: string, api_key: string, email = `${name.toLowerCase()}@company.example`) {
  const r = await t.post('/api/register-company', { name, email, api_key }, admin2d);
  expect(r.status, r.text).toBe(201);
  const [row] = await t.deps.db.select().from(companies).where(eq(companies.email, email));
  return { id: row.id, token: tokenOf(t.lastMailTo(email)!.text) };
}
async function settled(id: number, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const [row] = await t.deps.db.select().from(accountingTransactions).where(eq(accountingTransactions.id, id));
    if (row.status !== 'in_flight') return row;
    if (Date.now() > end) throw new Error(`2D transaction ${id} still PENDING`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('companies', () => {
  it('registers a company by its key at the provider, inactive until the account holder approves the access', async () => {
    const r = await t.post(
      '/api/register-company',
      { name: 'Acme Holding', email: 'finance@acme.example', api_key: ACME_KEY },
      admin2d,
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.message).toEqual([ACCOUNTING_MSG.companyRegistered]);
    const mail = t.lastMailTo('finance@acme.example')!;
    expect(mail.template).toBe('company-consent');
    const token = tokenOf(mail.text);
    // the key is never in a list answer, nor stored in plain text
    const list = await t.post('/api/companies', { search: 'acme' }, admin2d);
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(ACME_KEY);
    const [row] = await t.deps.db.select().from(companies).where(eq(companies.email, 'finance@acme.example'));
    expect(row.apiKeyEnc).not.toContain(ACME_KEY);
    expect(list.body.companies[0]).toMatchObject({
      name: 'Acme Holding',
      api_key: '********',
      status: 0,
      consent: 'Pending',
      accounts: 0,
    });
    // not active before the consent
    const early = await t.post('/api/update-company-status', { id: row.id, status: 1 }, admin2d);
    expect(early.status).toBe(422);
    expect(early.body.error).toEqual([ACCOUNTING_MSG.consentPending]);
    expect((await t.post('/api/company-accounts', { companyId: row.id }, admin2d)).status).toBe(404);

    // the account holder opens the link: what is asked, then the approval, twice at once
    const details = await t.post('/api/consent-details', { token });
    expect(details.status, details.text).toBe(200);
    expect(details.body).toMatchObject({ company_name: 'Acme Holding', approved: false });
    expect(details.body.accounts).toHaveLength(3);
    const both = await Promise.all([1, 2].map(() => t.post('/api/consent-approve', { token })));
    for (const b of both) {
      expect(b.status, b.text).toBe(200);
      expect(b.body.message).toEqual([ACCOUNTING_MSG.consentApproved]);
    }
    expect((await t.post('/api/consent-details', { token })).body.approved).toBe(true);
    const accounts = await accountsOf(row.id);
    expect(accounts).toHaveLength(3);
    // each opened once, with the balance the provider holds, through the ledger
    const bank = await t.deps.provider.companyAccounts(ACME_KEY);
    expect(accounts.map((a) => a.balance)).toEqual(bank.accounts.map((a) => a.opening_balance));
    expect(accounts.map((a) => a.account_iban)).toEqual(bank.accounts.map((a) => a.iban));
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
    const listed = await t.post('/api/companies', { search: 'finance@acme' }, admin2d);
    expect(listed.body.companies[0]).toMatchObject({ status: 1, consent: 'Approved', accounts: 3 });
    expect(listed.body.active_company).toBeGreaterThanOrEqual(1);
    acme = { id: row.id, accounts };
    const options = await t.app.inject({
      method: 'GET',
      url: '/api/company-list',
      headers: { authorization: `Bearer ${admin2d}` },
    });
    expect(options.json().companies).toContainEqual({ name: 'Acme Holding', value: row.id });
  });

  it('refuses every bad registration with the field and its message, an unknown key and a key registered twice', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '' }, 'name', MSG.required],
      [{ email: 'not-an-email' }, 'email', MSG.emailInvalid],
      [{ api_key: '' }, 'api_key', MSG.required],
      [{ name: 'x'.repeat(101) }, 'name', ACCOUNTING_MSG.max100],
    ];
    for (const [over, field, message] of cases) {
      const r = await t.post(
        '/api/register-company',
        { name: 'Globex', email: 'ops@globex.example', api_key: GLOBEX_KEY, ...over },
        admin2d,
      );
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.fields[field]).toContain(message);
    }
    const unknown = await t.post(
      '/api/register-company',
      { name: 'Nobody', email: 'no@body.example', api_key: 'ck_unknown!' },
      admin2d,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields.api_key).toEqual([ACCOUNTING_MSG.invalidCompanyKey]);
    const twice = await t.post(
      '/api/register-company',
      { name: 'Acme Again', email: 'again@acme.example', api_key: ACME_KEY },
      admin2d,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.error).toEqual([ACCOUNTING_MSG.companyExists]);
    // a merchant has no accounting permission
    const m = await t.post('/api/register-company', { name: 'M', email: 'm@m.example', api_key: GLOBEX_KEY }, merchant);
    expect(m.status).toBe(403);
    expect((await t.post('/api/companies', {}, merchant)).status).toBe(403);
    expect((await t.post('/api/consent-approve', { token: 'nope' })).status).toBe(404);
  });

  it('reveals a key only after the password, logs it, and deactivates a company so its money stops', async () => {
    const wrong = await t.post('/api/company-api-key', { id: acme.id, current_password: 'wrong' }, admin2d);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual([MSG.incorrectPassword]);
    const empty = await t.post('/api/company-api-key', { id: acme.id, current_password: '' }, admin2d);
    expect(empty.body.fields.current_password).toEqual([MSG.requiredShort]);
    const ok = await t.post('/api/company-api-key', { id: acme.id, current_password: DEMO_PASSWORD }, admin2d);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ user_verified: 1, api_key: ACME_KEY });
    const [logged] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'company.reveal-key'), eq(activityLog.targetId, String(acme.id))))
      .orderBy(desc(activityLog.id));
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).not.toContain(ACME_KEY);
    expect(
      (await t.post('/api/company-api-key', { id: 999_999, current_password: DEMO_PASSWORD }, admin2d)).status,
    ).toBe(404);

    const other = await register('Globex', GLOBEX_KEY);
    expect((await t.post('/api/consent-approve', { token: other.token })).status).toBe(200);
    const off = await t.post('/api/update-company-status', { id: other.id, status: 0 }, admin2d);
    expect(off.status).toBe(200);
    expect(off.body.message).toEqual([ACCOUNTING_MSG.deactivated]);
    expect((await t.post('/api/company-accounts', { companyId: other.id }, admin2d)).status).toBe(404);
    const on = await t.post('/api/update-company-status', { id: other.id, status: 1 }, admin2d);
    expect(on.body.message).toEqual([ACCOUNTING_MSG.activated]);
    expect((await t.post('/api/update-company-status', { id: 999_999, status: 1 }, admin2d)).status).toBe(404);
  });
});

const form = (over: Record<string, unknown> = {}) => ({
  company_id: acme.id,
  account_id: acme.accounts[0].id,
  beneficiary_id: 'BEN-1',
  transfer_type: 'external_transfer',
  amount: 12_345,
  reference: 'Invoice 4471',
  ...over,
});
const balanceOf = async (i: number) => (await accountsOf(acme.id))[i].balance;
async function codeFor(body: Record<string, unknown>) {
  const r = await t.post('/api/generate-accounting-otp', body, admin2d);
  expect(r.status, r.text).toBe(200);
  return t.lastMailTo('2d-admin@obol.example')!.code!;
}

describe('2D payments', () => {
  it('pays a beneficiary through the provider with the code bound to the transfer; a replay moves nothing', async () => {
    const before = await balanceOf(0);
    const body = form();
    const otp = await codeFor(body);
    const key = randomUUID();
    const r = await t.post('/api/accounting-transfer', { ...body, otp, idempotency_key: key }, admin2d);
    expect(r.status, r.text).toBe(201);
    expect(r.body.message).toEqual([ACCOUNTING_MSG.transferPending]);
    expect(r.body.transaction).toMatchObject({
      status: 'PENDING',
      amount: 12_345,
      rule_name: '-',
      rule_type: 'Manual',
      beneficiary_name: 'Northwind Supplies GmbH',
      transfer_type: 'external_transfer',
      description: 'Invoice 4471',
      account_id: acme.accounts[0].id,
    });
    expect(await balanceOf(0)).toBe(before - 12_345);
    const replay = await t.post('/api/accounting-transfer', { ...body, otp, idempotency_key: key }, admin2d);
    expect(replay.body.transaction.id).toBe(r.body.transaction.id);
    expect((await settled(r.body.transaction.id)).status).toBe('completed');
    expect(await balanceOf(0)).toBe(before - 12_345);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('returns the money when the bank refuses (a closed account), with the reason', async () => {
    const before = await balanceOf(1);
    const body = form({ account_id: acme.accounts[1].id, beneficiary_id: 'BEN-3', amount: 500 });
    const r = await t.post('/api/accounting-transfer', { ...body, otp: await codeFor(body) }, admin2d);
    expect(r.status, r.text).toBe(201);
    const done = await settled(r.body.transaction.id);
    expect(done.status).toBe('failed');
    expect(done.reason).toBe('Account closed');
    expect(await balanceOf(1)).toBe(before);
    const list = await t.post('/api/accounting-transactions', { status: 'Failed' }, admin2d);
    expect(list.body.transactions[0]).toMatchObject({ id: r.body.transaction.id, reason: 'Account closed' });
  });

  it("moves money between the company's own accounts at once (internal)", async () => {
    const [a, b] = [await balanceOf(0), await balanceOf(2)];
    const body = form({ transfer_type: 'internal_transfer', beneficiary_id: acme.accounts[2].id, amount: 1_000 });
    const r = await t.post('/api/accounting-transfer', { ...body, otp: await codeFor(body) }, admin2d);
    expect(r.status, r.text).toBe(201);
    expect(r.body.transaction.status).toBe('COMPLETED');
    expect([await balanceOf(0), await balanceOf(2)]).toEqual([a - 1_000, b + 1_000]);
    const same = form({ transfer_type: 'internal_transfer', beneficiary_id: acme.accounts[0].id });
    const refused = await t.post('/api/generate-accounting-otp', same, admin2d);
    expect(refused.status).toBe(422);
    expect(refused.body.fields.beneficiary_id).toEqual([ACCOUNTING_MSG.sameAccount]);
  });

  it('refuses every form rule before any code, a code for another transfer, a code used twice and more than the balance', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ amount: '' }, 'amount', MSG.required],
      [{ amount: '0' }, 'amount', ACCOUNTING_MSG.amountPositive],
      [{ amount: '-5' }, 'amount', ACCOUNTING_MSG.amountPositive],
      [{ amount: '12.5' }, 'amount', ACCOUNTING_MSG.amountWhole],
      [{ amount: '1'.repeat(51) }, 'amount', 'Max 50 characters allowed'],
      [{ reference: '' }, 'reference', MSG.required],
      [{ reference: 'x'.repeat(101) }, 'reference', ACCOUNTING_MSG.max100],
      [{ reference: 'Invoice #1!' }, 'reference', ACCOUNTING_MSG.alphanumeric],
      [{ account_id: '' }, 'account_id', ACCOUNTING_MSG.selectAccount],
    ];
    const sent = t.mails.length;
    for (const [over, field, message] of cases) {
      const r = await t.post('/api/generate-accounting-otp', form(over), admin2d);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.fields[field]).toContain(message);
    }
    const big = await t.post('/api/generate-accounting-otp', form({ amount: (await balanceOf(0)) + 1 }), admin2d);
    expect(big.status).toBe(422);
    expect(big.body.fields.amount).toEqual([ACCOUNTING_MSG.amountExceeds]);
    expect((await t.post('/api/generate-accounting-otp', form({ beneficiary_id: 'BEN-9' }), admin2d)).status).toBe(404);
    expect(t.mails.length).toBe(sent);

    const before = await balanceOf(0);
    const body = form({ amount: 700 });
    const otp = await codeFor(body);
    for (const over of [{ amount: 701 }, { beneficiary_id: 'BEN-2' }, { account_id: acme.accounts[1].id }]) {
      const r = await t.post('/api/accounting-transfer', { ...body, ...over, otp }, admin2d);
      expect(r.status, JSON.stringify(over)).toBe(422);
      expect(r.body.fields.otp ?? r.body.fields.code).toBeDefined();
    }
    const ok = await t.post('/api/accounting-transfer', { ...body, otp }, admin2d);
    expect(ok.status, ok.text).toBe(201);
    const again = await t.post('/api/accounting-transfer', { ...body, otp }, admin2d);
    expect(again.status).toBe(422);
    expect(await balanceOf(0)).toBe(before - 700);
    await settled(ok.body.transaction.id);
    expect((await t.post('/api/accounting-transfer', { ...body, otp }, merchant)).status).toBe(403);
  });

  it('two transfers of the whole balance at once: one is paid, the other refused, never overdrawn', async () => {
    const balance = await balanceOf(2);
    const body = form({ account_id: acme.accounts[2].id, amount: balance });
    const otp = await codeFor(body);
    // the same approved transfer sent twice under two keys: the code approves one
    const rs = await Promise.all(
      [1, 2].map(() => t.post('/api/accounting-transfer', { ...body, otp, idempotency_key: randomUUID() }, admin2d)),
    );
    // one is paid; the other finds the code used (422) or being used (429)
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 422 || r.status === 429)).toHaveLength(1);
    expect(await balanceOf(2)).toBe(0);
    const tb = await trialBalance();
    expect(tb.balanced && tb.no_overdrawn_accounts).toBe(true);
  });
});

describe('2D transactions', () => {
  it('lists 20 a page by date with status and rule-type filters, and exports into the 2D downloads', async () => {
    // every transfer settled first, so the list and its export see the same rows
    for (const p of await t.deps.db
      .select()
      .from(accountingTransactions)
      .where(eq(accountingTransactions.status, 'in_flight')))
      await settled(p.id);
    const all = await t.post('/api/accounting-transactions', {}, admin2d);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    const asc = await t.post('/api/accounting-transactions', { sortby: 'ASC' }, admin2d);
    expect(asc.body.transactions[0].id).toBeLessThan(all.body.transactions[0].id);
    const completed = await t.post('/api/accounting-transactions', { status: 'Completed' }, admin2d);
    expect(completed.body.transactions.every((x: { status: string }) => x.status === 'COMPLETED')).toBe(true);
    const amountRules = await t.post('/api/accounting-transactions', { rule_type: 0 }, admin2d);
    expect(amountRules.body.transactions.every((x: { rule_type: string }) => x.rule_type === 'Amount')).toBe(true);
    expect((await t.post('/api/accounting-transactions', { status: 'Nope' }, admin2d)).status).toBe(400);
    const started = await t.post(
      '/api/export-accounting-transactions',
      { status: 'Completed', export_transactions: true },
      admin2d,
    );
    expect(started.status, started.text).toBe(200);
    const lines = await exportedLines(t, started.body.file.id, admin2d, { accounting: true });
    expect(lines[0]).toContain('Rule Name');
    expect(lines.length - 1).toBe(completed.body.total);
    expect((await t.post('/api/accounting-transactions', {}, merchant)).status).toBe(403);
  });
});

describe('four eyes on a large 2D transfer', () => {
  it('at or above the company threshold it is PENDING_APPROVAL, reserved, until a second 2D admin approves', async () => {
    // a second 2D admin, as the Admin would add one
    const [first] = await t.deps.db.select().from(users).where(eq(users.email, '2d-admin@obol.example'));
    const { id: _id, ...copy } = first;
    await t.deps.db.insert(users).values({ ...copy, email: '2d-admin2@obol.example', name: 'Second 2D Admin' });
    const second = await t.signIn('2d-admin2@obol.example');

    const set = await t.post(
      '/api/approval-policy',
      { holder_type: 'company', holder_id: acme.id, threshold: 50_000 },
      admin,
    );
    expect(set.status, set.text).toBe(200);
    // below the threshold: as before
    const small = form({ amount: 49_999, beneficiary_id: 'BEN-1' });
    expect((await t.post('/api/accounting-transfer', { ...small, otp: await codeFor(small) }, admin2d)).status).toBe(
      201,
    );

    const before = await balanceOf(0);
    const body = form({ amount: 50_000, reference: 'Quarterly rent' });
    const r = await t.post('/api/accounting-transfer', { ...body, otp: await codeFor(body) }, admin2d);
    expect(r.status, r.text).toBe(202);
    expect(r.body.transaction.status).toBe('PENDING_APPROVAL');
    expect(await balanceOf(0)).toBe(before - 50_000);
    await new Promise((res) => setTimeout(res, 400));
    const [waiting] = await t.deps.db
      .select()
      .from(accountingTransactions)
      .where(eq(accountingTransactions.id, r.body.transaction.id));
    expect(waiting.status).toBe('held');
    const listed = await t.post('/api/accounting-transactions', { status: 'Pending_Approval' }, admin2d);
    expect(listed.body.transactions.map((x: { id: number }) => x.id)).toContain(r.body.transaction.id);

    // the maker cannot; a merchant's approver does not even see it; the second 2D admin approves with their code
    const id = r.body.approval_id as number;
    expect((await t.post('/api/request-approval-code', { id }, admin2d)).status).toBe(403);
    const supervisor = await t.signIn('supervisor-a@obol.example');
    expect((await t.post('/api/request-approval-code', { id }, supervisor)).status).toBe(404);
    expect((await t.post('/api/request-approval-code', { id }, second)).status).toBe(200);
    const ok = await t.post('/api/approve', { id, code: t.lastMailTo('2d-admin2@obol.example')!.code! }, second);
    expect(ok.status, ok.text).toBe(200);
    expect((await settled(r.body.transaction.id)).status).toBe('completed');
    expect(await balanceOf(0)).toBe(before - 50_000);

    // and a rejected one is REJECTED with its reason, its money back
    const again = form({ amount: 60_000, reference: 'Rent again' });
    const held = await t.post('/api/accounting-transfer', { ...again, otp: await codeFor(again) }, admin2d);
    expect(held.status, held.text).toBe(202);
    const no = await t.post('/api/reject', { id: held.body.approval_id, reason: 'Paid already' }, second);
    expect(no.status, no.text).toBe(200);
    const [rejected] = await t.deps.db
      .select()
      .from(accountingTransactions)
      .where(eq(accountingTransactions.id, held.body.transaction.id));
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Rejected by Second 2D Admin: Paid already' });
    expect(await balanceOf(0)).toBe(before - 50_000);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });
});
