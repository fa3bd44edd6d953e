import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { holderReference } from './accounts.ts';
import { userIdByEmail } from '../../seed.ts';

let t: TestApp;
const tokens: Record<string, string> = {};
const token = async (who: string) => (tokens[who] ??= await t.signIn(`${who}@obol.example`));
let ref: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  ref = {};
  for (const who of ['merchant', 'brand', 'merchant2', 'brand2'])
    ref[who] = holderReference((await userIdByEmail(t.deps.db, `${who}@obol.example`))!);
});
afterAll(async () => {
  await t?.close();
});

describe('trial balance', () => {
  it.each([
    ['admin', 200],
    ['accountant', 200],
    ['manager', 403],
    ['merchant', 403],
    ['brand', 403],
  ])('%s -> %i', async (who, status) => {
    const r = await t.post('/api/trial-balance', {}, await token(who));
    expect(r.status).toBe(status);
    if (status === 200) {
      expect(r.body).toMatchObject({ balanced: true, entries_balanced: true, balances_match_postings: true, total: 0 });
      // the demo data was funded through entries, never by writing balances
      expect(r.body.entry_count).toBeGreaterThan(0);
      const kinds = r.body.totals_by_kind.map((k: { kind: string }) => k.kind);
      expect(kinds).toEqual(expect.arrayContaining(['payout', 'payin', 'clp', 'fee', 'provider']));
    } else expect(r.body.error).toHaveLength(1);
  });
});

describe("the caller's own accounts", () => {
  it('a merchant sees its payout, pay-in and CLP accounts', async () => {
    const r = await t.post('/api/login-user-account', {}, await token('merchant'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      balance: 5_000_000,
      payin_balance: 1_250_000,
      clp_balance: 0,
      account_reference: ref.merchant,
    });
    expect(r.body.id).toBe(r.body.account_id);
    expect(r.body.payin_account_id).toMatch(/^PI/);
    expect(r.body.clp_account_id).toMatch(/^CL/);
  });
  it("a brand sees its own, a merchant-side user its merchant's, staff the Fee Account", async () => {
    expect((await t.post('/api/login-user-account', {}, await token('brand'))).body).toMatchObject({
      balance: 1_000_000,
      account_reference: ref.brand,
    });
    expect((await t.post('/api/login-user-account', {}, await token('finance'))).body).toMatchObject({
      account_reference: ref.merchant,
    });
    expect((await t.post('/api/login-user-account', {}, await token('admin'))).body).toMatchObject({
      account_reference: 'Fee Account',
      balance: 0,
    });
  });
  it('is part of the sign-in answer', async () => {
    const login = await t.post('/api/login', {
      email: 'brand2@obol.example',
      password: 'Test@pass1',
      auth_type: 'email',
    });
    const v = await t.post('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      code: t.lastMailTo('brand2@obol.example')!.code,
    });
    expect(v.body.account).toMatchObject({ balance: 300_000, account_reference: ref.brand2 });
  });
});

describe("account balance in the caller's scope", () => {
  it('answers balance and fee for an account the caller may see', async () => {
    const r = await t.post('/api/account-balance', { account_reference: ref.merchant }, await token('merchant'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ balance: 5_000_000, fee: 1.5 });
    // a merchant sees its brands
    const b = await t.post(
      '/api/account-balance',
      { account_reference: ref.brand, account_id: 0 },
      await token('merchant'),
    );
    expect(b.body).toMatchObject({ balance: 1_000_000, fee: 1.75 });
    // staff see every merchant and the Fee Account
    expect(
      (await t.post('/api/account-balance', { account_reference: ref.merchant2 }, await token('admin'))).body,
    ).toMatchObject({ balance: 2_000_000, fee: 2 });
    expect(
      (await t.post('/api/account-balance', { account_reference: 'Fee Account' }, await token('admin'))).status,
    ).toBe(200);
  });
  it("answers 404 for another tenant's account, exactly as for none", async () => {
    const other = await t.post('/api/account-balance', { account_reference: ref.merchant2 }, await token('merchant'));
    const none = await t.post('/api/account-balance', { account_reference: 'OBL9999999' }, await token('merchant'));
    expect(other.status).toBe(404);
    expect(other.body).toEqual(none.body);
    expect(
      (await t.post('/api/account-balance', { account_reference: ref.merchant }, await token('brand'))).status,
    ).toBe(404);
    expect(
      (await t.post('/api/account-balance', { account_reference: 'Fee Account' }, await token('merchant'))).status,
    ).toBe(404);
    expect((await t.post('/api/account-balance', { account_reference: 'Platform' }, await token('admin'))).status).toBe(
      404,
    );
  });
  it('refuses a request without a reference, and callers without a balance permission', async () => {
    const r = await t.post('/api/account-balance', {}, await token('merchant'));
    expect(r.status).toBe(400);
    expect(r.body.fields).toHaveProperty('account_reference');
    expect(
      (await t.post('/api/account-balance', { account_reference: ref.merchant }, await token('2d-admin'))).status,
    ).toBe(403);
  });
});

describe('the balance screen (/api/balance-holders, /api/holder-balances)', () => {
  const id = async (who: string) => (await userIdByEmail(t.deps.db, `${who}@obol.example`))!;
  const balances = async (who: string, holder: number) =>
    t.post('/api/holder-balances', { id: holder }, await token(who));

  it("shows a holder's payout, pay-in and CLP balances with its account reference and fee", async () => {
    const r = await balances('admin', await id('merchant'));
    expect(r.status).toBe(200);
    expect(r.body.account_reference).toBe(ref.merchant);
    expect(r.body.fee).toBeGreaterThan(0);
    expect(r.body.data.map((a: { kind: string; balance: number }) => [a.kind, a.balance])).toEqual([
      ['payout', 5_000_000],
      ['payin', 1_250_000],
      ['clp', 0],
    ]);
    // the figures are the ledger's: the same as the account-balance call for the payout account
    const one = await t.post('/api/account-balance', { account_reference: ref.merchant }, await token('admin'));
    expect(one.body.balance).toBe(r.body.data[0].balance);
  });

  it('the Fee Account (id 0) is for the Admin only', async () => {
    const admin = await balances('admin', 0);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ name: 'Fee Account', fee: null, account_reference: 'Fee Account' });
    expect(admin.body.data).toHaveLength(1);
    expect(admin.body.data[0].kind).toBe('fee');
    for (const who of ['accountant', 'merchant', 'brand']) {
      const r = await balances(who, 0);
      expect(r.status, who).toBe(404);
      expect(r.body.error).toEqual(["Merchant/Brand doesn't exist"]);
    }
  });

  it('keeps every caller to its scope: another tenant answers 404, as nobody does', async () => {
    expect((await balances('accountant', await id('merchant2'))).status).toBe(200);
    expect((await balances('merchant', await id('merchant'))).status).toBe(200);
    expect((await balances('merchant', await id('brand'))).status).toBe(200);
    expect((await balances('merchant', await id('merchant2'))).status).toBe(404);
    expect((await balances('merchant', await id('brand2'))).status).toBe(404);
    const brand = await balances('brand', await id('brand'));
    expect(brand.status).toBe(200);
    expect(brand.body.account_reference).toBe(ref.brand);
    expect((await balances('brand', await id('merchant'))).status).toBe(404);
    // a staff user is no holder
    expect((await balances('admin', await id('admin'))).status).toBe(404);
    expect((await balances('admin', 2_000_000_000)).status).toBe(404);
  });

  it('the chooser lists the holders in scope; without the permission both calls answer 403', async () => {
    const staff = await t.post('/api/balance-holders', { search: '' }, await token('accountant'));
    expect(staff.status).toBe(200);
    const names = staff.body.data.map((h: { name: string }) => h.name);
    expect(names.length).toBeGreaterThanOrEqual(2);
    const mine = await t.post('/api/balance-holders', { search: '' }, await token('merchant'));
    const ids = mine.body.data.flatMap((h: { id: number; active_brands: { id: number }[] }) => [
      h.id,
      ...h.active_brands.map((b) => b.id),
    ]);
    expect(ids).toContain(await id('merchant'));
    expect(ids).not.toContain(await id('merchant2'));
    expect((await t.post('/api/balance-holders', {}, await token('reviewer'))).status).toBe(403);
    expect((await balances('reviewer', await id('merchant'))).status).toBe(403);
  });

  it('refuses an id that is not a whole number, naming the field', async () => {
    for (const bad of [-1, 1.5, 'x', null]) {
      const r = await t.post('/api/holder-balances', { id: bad }, await token('admin'));
      expect(r.status, String(bad)).toBe(400);
      expect(JSON.stringify(r.body)).toContain('id');
    }
  });
});
