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
