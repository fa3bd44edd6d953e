import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_MSG } from '@obol/contract';
import { exportedLines } from '../../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { permissions, rolePermissions, roles } from '../roles/tables.ts';
import { transfers } from './tables.ts';

const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00';
const CLOSED_IBAN = 'DE94370400440532010000';
const BIC = 'DEUTDEFF';
let t: TestAppWithProvider;
let merchant: string;
let merchant2: string;
let accountant: string;
let admin: string;
/** the demo merchant's own account ids */
let acct: { payout: string; payin: string; clp: string };

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 100 } });
  // the transfer screens are staff's by default; the Merchant role is given them here, as the role editor can
  const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Merchant'));
  const [perm] = await t.deps.db
    .select()
    .from(permissions)
    .where(eq(permissions.name, 'User can view transfer amount screen'));
  await t.deps.db.insert(rolePermissions).values({ roleId: role.id, permissionId: perm.id }).onConflictDoNothing();
  merchant = await t.signIn('merchant@obol.example');
  merchant2 = await t.signIn('merchant2@obol.example');
  accountant = await t.signIn('accountant@obol.example');
  admin = await t.signIn('admin@obol.example');
  const info = (await t.post('/api/login-user-account', {}, merchant)).body;
  acct = { payout: info.account_id, payin: info.payin_account_id, clp: info.clp_account_id };
});
afterAll(async () => {
  await t?.close();
});

const balance = async (account_id: string, token = merchant) =>
  (await t.post('/api/account-balance', { account_id }, token)).body.balance as number;
const form = (over: Record<string, unknown> = {}) => ({
  beneficiary_name: 'Acme Supplies GmbH',
  iban: GOOD_IBAN,
  bic: BIC,
  amount: 2_500,
  account_id: acct.payout,
  message: 'Invoice 2026-11',
  ...over,
});
const mailsTo = (email: string) => t.mails.filter((m) => m.to === email).length;
async function codeFor(body: Record<string, unknown>, token = merchant, email = 'merchant@obol.example') {
  const r = await t.post('/api/send-otp', { transaction_type: 'Amount Transfer', ...body }, token);
  expect(r.status, r.text).toBe(200);
  return t.lastMailTo(email)!.code!;
}
async function settled(id: number, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const [row] = await t.deps.db.select().from(transfers).where(eq(transfers.id, id));
    if (row.status !== 'in_flight') return row;
    if (Date.now() > end) throw new Error(`transfer ${id} still Pending`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const trialBalance = async () => (await t.post('/api/trial-balance', {}, admin)).body;

describe('an amount transfer approved by its mailed code', () => {
  it('reserves the amount (Pending), is paid by the provider and settles Completed; a replay moves nothing', async () => {
    const before = await balance(acct.payout);
    const body = form();
    const code = await codeFor(body);
    const key = randomUUID();
    const r = await t.post('/api/amount-transfer', { ...body, code, account_used: 1, idempotency_key: key }, merchant);
    expect(r.status, r.text).toBe(201);
    expect(r.body.message[0]).toBe(TRANSFER_MSG.transferred);
    expect(r.body.transfer).toMatchObject({
      status: 'Pending',
      amount: 2_500,
      iban: 'DE89370400440532013000',
      bic: BIC,
      account_used: 'Payout',
      account_id: acct.payout,
      merchant_name: 'Acme Payouts',
      transfer_by: 'Acme Payouts',
      message: 'Invoice 2026-11',
    });
    expect(await balance(acct.payout)).toBe(before - 2_500);
    const done = await settled(r.body.transfer.id);
    expect(done.status).toBe('completed');
    expect(done.providerId).toBeTruthy();
    expect(await balance(acct.payout)).toBe(before - 2_500);
    // the same request again (a double click, a retry) answers the first transfer and moves nothing
    const replay = await t.post(
      '/api/amount-transfer',
      { ...body, code, account_used: 1, idempotency_key: key },
      merchant,
    );
    expect(replay.status).toBe(201);
    expect(replay.body.transfer.id).toBe(r.body.transfer.id);
    expect(await balance(acct.payout)).toBe(before - 2_500);
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });

  it('returns the money when the bank declines the transfer (a closed account), with the reason', async () => {
    const before = await balance(acct.payin);
    const body = form({ iban: CLOSED_IBAN, amount: 1_000, account_id: acct.payin });
    const code = await codeFor(body);
    const r = await t.post('/api/amount-transfer', { ...body, code, account_used: 2 }, merchant);
    expect(r.status, r.text).toBe(201);
    expect(await balance(acct.payin)).toBe(before - 1_000);
    const done = await settled(r.body.transfer.id);
    expect(done.status).toBe('failed');
    expect(done.detail).toBe('Account closed');
    expect(await balance(acct.payin)).toBe(before);
    const list = await t.post('/api/get-amount-transfer-details', { status: 2 }, merchant);
    expect(list.body.data.find((x: { id: number }) => x.id === r.body.transfer.id)).toMatchObject({
      status: 'Declined',
      detail: 'Account closed',
      account_used: 'Payin',
    });
    const tb = await trialBalance();
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });
});

describe('what a transfer refuses', () => {
  it('refuses a bad IBAN or BIC and every form rule before any code is sent, naming the field', async () => {
    const sent = mailsTo('merchant@obol.example');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ iban: 'DE89370400440532013001' }, 'iban', 'IBAN is not valid: check the digits'],
      [{ iban: 'DE8937040044' }, 'iban', 'IBAN must be 22 characters for DE'],
      [{ iban: '' }, 'iban', 'This field is required'],
      [{ bic: 'DEUT' }, 'bic', 'BIC must be 8 or 11 letters and digits (bank, country, location, branch)'],
      [{ beneficiary_name: ' ' }, 'beneficiary_name', 'This field is required'],
      [{ amount: 0 }, 'amount', 'Must be greater than 0'],
      [{ amount: '12.5' }, 'amount', 'Must be a whole number'],
      [{ message: 'x'.repeat(255) }, 'message', 'Max 255 characters allowed'],
      [{ account_id: '' }, 'account_id', 'Please select account first'],
    ];
    for (const [over, field, message] of cases) {
      const r = await t.post('/api/send-otp', form(over), merchant);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.fields[field]).toContain(message);
    }
    // more than the balance
    const big = await t.post('/api/send-otp', form({ amount: (await balance(acct.payout)) + 1 }), merchant);
    expect(big.status).toBe(422);
    expect(big.body.fields.amount).toEqual([TRANSFER_MSG.amountExceeds]);
    expect(mailsTo('merchant@obol.example')).toBe(sent);
  });

  it('refuses a code for another amount, IBAN or account, and a code used twice', async () => {
    const before = await balance(acct.payout);
    const body = form({ amount: 700 });
    const code = await codeFor(body);
    for (const over of [
      { amount: 701 },
      { iban: 'GB82WEST12345698765432', bic: 'NWBKGB2L' },
      { account_id: acct.payin },
    ]) {
      const r = await t.post('/api/amount-transfer', { ...body, ...over, code }, merchant);
      expect(r.status, JSON.stringify(over)).toBe(422);
      expect(r.body.fields.code).toEqual(['This code does not approve this transaction']);
    }
    const ok = await t.post('/api/amount-transfer', { ...body, code }, merchant);
    expect(ok.status, ok.text).toBe(201);
    const again = await t.post('/api/amount-transfer', { ...body, code }, merchant);
    expect(again.status).toBe(422);
    expect(again.body.fields.code).toBeDefined();
    expect(await balance(acct.payout)).toBe(before - 700);
    await settled(ok.body.transfer.id);
  });

  it('refuses an account type that is not the account’s own, and the Fee Account to all but the Admin', async () => {
    const body = form({ amount: 100 });
    const code = await codeFor(body);
    const r = await t.post('/api/amount-transfer', { ...body, code, account_used: 3 }, merchant);
    expect(r.status).toBe(422);
    expect(r.body.fields.account_used).toEqual([TRANSFER_MSG.accountTypeMismatch]);
    const fee = await t.post('/api/send-otp', form({ account_id: 'FEE-000001' }), accountant);
    expect(fee.status).toBe(404);
    expect(fee.body.error[0]).toBe('Account not registered');
    const clearing = await t.post('/api/send-otp', form({ account_id: 'CLR-TRANSFER' }), admin);
    expect(clearing.status).toBe(404);
  });

  it('keeps tenants apart: another merchant’s account answers 404 and its transfers are not listed', async () => {
    const r = await t.post('/api/send-otp', form(), merchant2);
    expect(r.status).toBe(404);
    expect(r.body.error[0]).toBe('Account not registered');
    // the transfer itself, with a code of merchant2's own for that account: 404 too, and nothing moves
    const before = await balance(acct.payout);
    const made = await t.post('/api/amount-transfer', { ...form(), code: '123456' }, merchant2);
    expect(made.status).toBe(404);
    expect(made.body.error[0]).toBe('Account not registered');
    expect(await balance(acct.payout)).toBe(before);
    const theirBalance = await t.post('/api/account-balance', { account_id: acct.payout }, merchant2);
    expect(theirBalance.status).toBe(404);
    const mine = await t.post('/api/get-amount-transfer-details', { per_page: 100 }, merchant);
    expect(mine.body.total).toBeGreaterThan(0);
    const theirs = await t.post('/api/get-amount-transfer-details', { per_page: 100 }, merchant2);
    expect(theirs.body).toEqual({ data: [], total: 0 });
    const staff = await t.post('/api/get-amount-transfer-details', { per_page: 100 }, accountant);
    expect(staff.body.total).toBe(mine.body.total);
    // without the permission: 403
    const finance = await t.signIn('finance@obol.example');
    expect((await t.post('/api/get-amount-transfer-details', {}, finance)).status).toBe(403);
    expect((await t.post('/api/send-otp', form(), finance)).status).toBe(403);
  });

  it('lets only one of two transfers that together exceed the balance through, even at the same moment', async () => {
    // staff transfer from a merchant's account (Merchants Payout): two staff users, one account
    const info = await t.app.inject({
      method: 'GET',
      url: '/api/merchant-with-account?search=Globex%20Outlet',
      headers: { authorization: `Bearer ${accountant}` },
    });
    expect(info.statusCode).toBe(200);
    const outlet = info.json().data[0];
    expect(outlet).toMatchObject({ merchant_name: 'Globex Outlet', role: 'Brand', parent_name: 'Globex Trading' });
    const clp = outlet.accounts.find((a: { kind: string }) => a.kind === 'payin').account_id as string;
    const available = await balance(clp, accountant);
    expect(available).toBeGreaterThan(0);
    const amount = Math.floor(available * 0.6);
    const bodyA = form({ amount, account_id: clp });
    const codeA = await codeFor(bodyA, accountant, 'accountant@obol.example');
    const codeB = await codeFor(bodyA, admin, 'admin@obol.example');
    const [a, b] = await Promise.all([
      t.post('/api/amount-transfer', { ...bodyA, code: codeA }, accountant),
      t.post('/api/amount-transfer', { ...bodyA, code: codeB }, admin),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const refused = a.status === 422 ? a : b;
    expect(refused.body.fields.amount).toEqual([TRANSFER_MSG.amountExceeds]);
    expect(await balance(clp, accountant)).toBe(available - amount);
    // the brand's own scope: merchant2 sees it, the demo merchant does not
    const seen = await t.post('/api/get-amount-transfer-details', { status: 'Pending', per_page: 100 }, merchant2);
    const created = (a.status === 201 ? a : b).body.transfer;
    expect(seen.body.data.map((x: { id: number }) => x.id)).toContain(created.id);
    expect(created.transfer_by).not.toBe('Globex Outlet');
    await settled(created.id);
  });
});

describe('the transfer list and its export', () => {
  it('pages 20 by default, sorts by date either way and filters by the status codes', async () => {
    const desc = (await t.post('/api/get-amount-transfer-details', {}, accountant)).body;
    const asc = (await t.post('/api/get-amount-transfer-details', { sortby: 'ASC' }, accountant)).body;
    expect(desc.data.length).toBe(Math.min(20, desc.total));
    expect(desc.data[0].id).toBe(Math.max(...desc.data.map((x: { id: number }) => x.id)));
    expect(asc.data[0].id).toBe(Math.min(...asc.data.map((x: { id: number }) => x.id)));
    const completed = (await t.post('/api/get-amount-transfer-details', { status: 1 }, accountant)).body;
    expect(completed.total).toBeGreaterThan(0);
    expect(completed.data.every((x: { status: string }) => x.status === 'Completed')).toBe(true);
    const bad = await t.post('/api/get-amount-transfer-details', { status: 7 }, accountant);
    expect(bad.status).toBe(400);
    expect(bad.body.fields.status).toBeDefined();
  });

  it('exports as a background job into the transactions download list, with the list’s rows', async () => {
    const r = await t.post('/api/export-transfer-details', { sortby: 'DESC', status: '', format: 'csv' }, merchant);
    expect(r.status, r.text).toBe(200);
    const lines = await exportedLines(t, r.body.file.id as string, merchant);
    const body = lines.join('\n');
    expect(lines[0]).toContain('Beneficiary Name');
    const total = (await t.post('/api/get-amount-transfer-details', {}, merchant)).body.total;
    expect(lines.length - 1).toBe(total);
    expect(body).toContain('DE89370400440532013000');
    expect(body).not.toContain('Globex');
  });
});
