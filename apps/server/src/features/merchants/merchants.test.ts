import { FEE_MSG, MERCHANT_MSG, MSG } from '@obol/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  activityLog,
  apiKeys,
  feeChanges,
  holderDetails,
  permissions,
  rolePermissions,
  roles,
  users,
} from '../../schema.ts';
import { userIdByEmail } from '../../seed.ts';
import { DEMO_PASSWORD } from '../../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { holderReference } from '../ledger/accounts.ts';

let t: TestAppWithProvider;
const tokens: Record<string, string> = {};
const token = async (who: string) => (tokens[who] ??= await t.signIn(`${who}@obol.example`));
const post = async (path: string, body: object, who = 'admin') => t.post(path, body, await token(who));
const id = async (who: string) => (await userIdByEmail(t.deps.db, `${who}@obol.example`))!;

const merchant = (over: Record<string, unknown> = {}) => ({
  rolename: 'Merchant',
  name: 'Nova Retail',
  email: 'nova@shop.example',
  payin_name: 'NOVA RETAIL',
  obol_id: '100000042',
  mId: 'MID-NOVA-1',
  fee: '1.75',
  registrationNumber: 'HRB 1234',
  street: 'Main 1',
  city: 'Berlin',
  zipCode: '10115',
  ...over,
});
const brand = (over: Record<string, unknown> = {}) => ({
  name: 'Nova Outlet',
  email: 'outlet@shop.example',
  obol_id: '200000042',
  mId: 'MID-NOVA-2',
  ...over,
});

/** Accepts the newest invitation mailed to `email` with a password. */
async function acceptInvitation(email: string, password = 'Fresh@pass9') {
  const m = t.lastMailTo(email)?.text.match(/\/new-password\/([^/\s]+)\/(\S+)/);
  if (!m) throw new Error(`no invitation to ${email}`);
  const r = await t.post('/api/set-password', {
    token: decodeURIComponent(m[1]),
    email: decodeURIComponent(m[2]),
    password,
    password_confirmation: password,
  });
  expect(r.status).toBe(200);
}

const userCount = async () => (await t.deps.db.select({ n: count() }).from(users))[0].n;

beforeAll(async () => {
  t = await startTestAppWithProvider({ webhooks: 'none' });
});
afterAll(async () => {
  await t?.close();
});

describe('creating a merchant (/api/create-user)', () => {
  it('refuses every invalid field with the spec message, an unknown wallet with 404, and creates nothing', async () => {
    const before = await userCount();
    for (const field of ['name', 'email', 'payin_name', 'obol_id', 'mId', 'fee']) {
      const r = await post('/api/create-user', merchant({ [field]: undefined }));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.fields[field], field).toEqual([MSG.required]);
    }
    const bad = await post('/api/create-user', merchant({ email: 'not-an-email' }));
    expect(bad.body.fields.email).toEqual([MSG.emailInvalid]);
    for (const fee of ['0', '100.01', '-1', 'ten', 0]) {
      const r = await post('/api/create-user', merchant({ fee }));
      expect(r.status, String(fee)).toBe(400);
      expect(r.body.fields.fee).toEqual([FEE_MSG.range]);
    }
    const wallet = await post('/api/create-user', merchant({ obol_id: '900000001' }));
    expect(wallet.status).toBe(404);
    expect(wallet.body.fields.obol_id).toEqual(['Invalid Obol Id']);
    expect(await userCount()).toBe(before);
  });

  it('is for those who may add merchants: a viewer of merchants and a merchant get 403', async () => {
    expect((await post('/api/create-user', merchant(), 'supervisor-a')).status).toBe(403);
    expect((await post('/api/create-user', merchant(), 'merchant')).status).toBe(403);
  });

  it('answers 201, opens the ledger accounts and the API key in the same transaction, and mails the invitation', async () => {
    const r = await post('/api/create-user', merchant());
    expect(r.status).toBe(201);
    expect(r.body.message).toEqual([MERCHANT_MSG.created]);
    const [newId] = r.body.ids as number[];
    const [u] = await t.deps.db.select().from(users).where(eq(users.id, newId));
    expect(u).toMatchObject({ name: 'Nova Retail', email: 'nova@shop.example', feeBps: 175, emailVerifiedAt: null });
    const accts = await t.deps.db.select().from(accounts).where(eq(accounts.ownerId, newId));
    expect(accts.map((a) => a.kind).sort()).toEqual(['clp', 'payin', 'payout']);
    expect(accts.every((a) => a.accountReference === holderReference(newId))).toBe(true);
    const keys = await t.deps.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, newId), isNull(apiKeys.rotatedAt)));
    expect(keys).toHaveLength(1);
    expect(keys[0].privateKeyEnc).not.toContain('sk_');
    const [d] = await t.deps.db.select().from(holderDetails).where(eq(holderDetails.userId, newId));
    expect(d).toMatchObject({ descriptor: 'NOVA RETAIL', obolId: '100000042', mid: 'MID-NOVA-1', city: 'Berlin' });
    expect(t.lastMailTo('nova@shop.example')?.text).toContain('/new-password/');
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'merchants.create'), eq(activityLog.outcome, 'success')));
    expect(log).toMatchObject({ outcome: 'success', targetId: String(newId) });

    // the same e-mail again: 409 on email, nothing more
    const again = await post('/api/create-user', merchant({ name: 'Other' }));
    expect(again.status).toBe(409);
    expect(again.body.fields.email).toBeDefined();
  });

  it('creates one merchant when the same e-mail is sent twice at the same moment', async () => {
    const body = merchant({ name: 'Twin Shop', email: 'twin@shop.example', obol_id: '100000077' });
    const answers = await Promise.all([post('/api/create-user', body), post('/api/create-user', body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const rows = await t.deps.db.select().from(users).where(eq(users.email, 'twin@shop.example'));
    expect(rows).toHaveLength(1);
    expect(await t.deps.db.select().from(accounts).where(eq(accounts.ownerId, rows[0].id))).toHaveLength(3);
  });

  it('lists the merchant with its details, counters and search; a merchant sees itself only', async () => {
    const r = await post('/api/merchants', { search: 'nova' });
    expect(r.status).toBe(200);
    expect(r.body.merchants.data).toHaveLength(1);
    expect(r.body.merchants.data[0]).toMatchObject({
      name: 'Nova Retail',
      descriptor_name: 'NOVA RETAIL',
      descriptor_code: expect.stringMatching(/^DC\d{7}$/),
      fee: 1.75,
      total_brands: 0,
      remember_token_status: 'Not verified',
      resend_mail: 1,
      direct_merchant: 0,
    });
    const all = await post('/api/merchants', {});
    expect(all.body.count).toBe(all.body.active + all.body.inactive);
    expect(all.body.merchants.total).toBeGreaterThanOrEqual(3);
    const own = await post('/api/merchants', {}, 'supervisor-a');
    expect(own.status).toBe(200);
    expect((await post('/api/merchants', {}, 'brand')).status).toBe(403);
  });
});

describe('adding brands', () => {
  it('refuses brands for a merchant not verified yet, no brand, and names out of 4 to 20 characters', async () => {
    const nova = (await userIdByEmail(t.deps.db, 'nova@shop.example'))!;
    const unverified = await post('/api/create-user', { rolename: 'Brand', parent_id: nova, brands: [brand()] });
    expect(unverified.status).toBe(422);
    expect(unverified.body.error).toEqual([MERCHANT_MSG.notVerified]);
    const none = await post('/api/create-user', { rolename: 'Brand', parent_id: nova, brands: [] });
    expect(none.status).toBe(400);
    expect(none.body.fields.brands).toEqual([MERCHANT_MSG.oneBrand]);
    const short = await post('/api/create-user', {
      rolename: 'Brand',
      parent_id: nova,
      brands: [brand({ name: 'abc' })],
    });
    expect(short.body.fields['brands.0.name']).toEqual([MERCHANT_MSG.brandMin]);
    const long = await post('/api/create-user', {
      rolename: 'Brand',
      parent_id: nova,
      brands: [brand({ name: 'x'.repeat(21) })],
    });
    expect(long.body.fields['brands.0.name']).toEqual([MERCHANT_MSG.brandMax]);
  });

  it('adds brands to a verified merchant with their accounts, keys and invitations, all or none', async () => {
    await acceptInvitation('nova@shop.example');
    const nova = (await userIdByEmail(t.deps.db, 'nova@shop.example'))!;
    // an unknown wallet on the second brand: nothing is created
    const before = await userCount();
    const badWallet = await post('/api/create-user', {
      rolename: 'Brand',
      parent_id: nova,
      brands: [brand(), brand({ name: 'Nova Second', email: 'second@shop.example', obol_id: '900000002' })],
    });
    expect(badWallet.status).toBe(404);
    expect(badWallet.body.fields['brands.1.obol_id']).toEqual(['Invalid Obol Id']);
    expect(await userCount()).toBe(before);

    const r = await post('/api/create-user', {
      rolename: 'Brand',
      parent_id: nova,
      brands: [brand(), brand({ name: 'Nova Second', email: 'second@shop.example' })],
    });
    expect(r.status).toBe(201);
    expect(r.body.message).toEqual([MERCHANT_MSG.brandsCreated]);
    for (const b of r.body.ids as number[]) {
      const [u] = await t.deps.db.select().from(users).where(eq(users.id, b));
      expect(u).toMatchObject({ parentId: nova, feeBps: 175 });
      expect(await t.deps.db.select().from(accounts).where(eq(accounts.ownerId, b))).toHaveLength(3);
      expect(await t.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, b))).toHaveLength(1);
    }
    expect(t.lastMailTo('outlet@shop.example')).toBeDefined();

    const panel = await post('/api/brands-list', { id: nova });
    expect(panel.body.data.map((b: { name: string }) => b.name).sort()).toEqual(['Nova Outlet', 'Nova Second']);
    const search = await post('/api/search-brand', { id: nova, name: 'outl' });
    expect(search.body.data.map((b: { name: string }) => b.name)).toEqual(['Nova Outlet']);
    const list = await post('/api/merchants', { search: 'nova' });
    expect(list.body.merchants.data[0]).toMatchObject({ total_brands: 2, remember_token_status: 'Verified' });
  });

  it("answers 404 for another merchant's brands, to a merchant's side allowed to view merchants", async () => {
    // the Merchant role lacks the Merchants screen by default: given it here, its scope still holds
    const [perm] = await t.deps.db.select().from(permissions).where(eq(permissions.name, 'User can view merchants'));
    const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Merchant'));
    expect((await post('/api/brands-list', { id: await id('merchant') }, 'merchant')).status).toBe(403);
    await t.deps.db.insert(rolePermissions).values({ roleId: role.id, permissionId: perm.id });
    try {
      const other = await id('merchant2');
      expect((await post('/api/brands-list', { id: other }, 'merchant')).status).toBe(404);
      expect((await post('/api/search-brand', { id: other, name: 'a' }, 'merchant')).status).toBe(404);
      const own = await post('/api/brands-list', { id: await id('merchant') }, 'merchant');
      expect(own.status).toBe(200);
      expect(own.body.data.map((b: { email: string }) => b.email)).toContain('brand@obol.example');
      const list = await post('/api/merchants', {}, 'merchant');
      expect(list.body.merchants.data.map((m: { id: number }) => m.id)).toEqual([await id('merchant')]);
      // and a brand id is no merchant
      expect((await post('/api/brands-list', { id: await id('brand') })).status).toBe(404);
    } finally {
      await t.deps.db
        .delete(rolePermissions)
        .where(and(eq(rolePermissions.roleId, role.id), eq(rolePermissions.permissionId, perm.id)));
    }
  });
});

describe('editing, direct merchant and status', () => {
  it("edits the details; a merchant's fee change goes to the fee history; a brand's fee is refused", async () => {
    const nova = (await userIdByEmail(t.deps.db, 'nova@shop.example'))!;
    const r = await post('/api/update-merchant-details', {
      id: nova,
      payin_name: 'NOVA SHOP',
      fee: '2',
      email: 'ignored@x.example',
      city: 'Hamburg',
    });
    expect(r.status).toBe(201);
    expect(r.body.message).toEqual([MERCHANT_MSG.updated]);
    const [u] = await t.deps.db.select().from(users).where(eq(users.id, nova));
    expect(u).toMatchObject({ feeBps: 200, email: 'nova@shop.example' });
    const [h] = await t.deps.db.select().from(feeChanges).where(eq(feeChanges.holderId, nova));
    expect(h).toMatchObject({ oldBps: 175, newBps: 200, reason: MERCHANT_MSG.feeReason });
    const [d] = await t.deps.db.select().from(holderDetails).where(eq(holderDetails.userId, nova));
    expect(d).toMatchObject({ descriptor: 'NOVA SHOP', city: 'Hamburg', street: null, obolId: '100000042' });

    const required = await post('/api/update-merchant-details', { id: nova, payin_name: ' ' });
    expect(required.body.fields.payin_name).toEqual([MSG.required]);
    const outlet = (await userIdByEmail(t.deps.db, 'outlet@shop.example'))!;
    const brandFee = await post('/api/update-merchant-details', { id: outlet, payin_name: 'X', fee: 3 });
    expect(brandFee.status).toBe(422);
    expect(brandFee.body.error).toEqual([MERCHANT_MSG.brandFee]);
    expect((await post('/api/update-merchant-details', { id: 999_999, payin_name: 'X' })).status).toBe(404);
  });

  it('lets only an Admin mark a direct merchant', async () => {
    const nova = (await userIdByEmail(t.deps.db, 'nova@shop.example'))!;
    expect((await post('/api/update-direct-merchant', { user_id: nova, direct_merchant: 1 }, 'manager')).status).toBe(
      403,
    );
    const r = await post('/api/update-direct-merchant', { user_id: nova, direct_merchant: 1 });
    expect(r.status).toBe(201);
    expect((await post('/api/merchants', { search: 'nova' })).body.merchants.data[0].direct_merchant).toBe(1);
    const outlet = (await userIdByEmail(t.deps.db, 'outlet@shop.example'))!;
    expect((await post('/api/update-direct-merchant', { user_id: outlet, direct_merchant: 1 })).status).toBe(404);
  });

  it('deactivating a merchant shuts out its brands and team at once; level_type must match; only verified', async () => {
    const merchantId = await id('merchant');
    const brandToken = await token('brand');
    const merchantToken = await token('merchant');
    const wrongLevel = await post('/api/change-merchant-status', { id: merchantId, status: 0, level_type: 'Brand' });
    expect(wrongLevel.status).toBe(404);
    const outlet = (await userIdByEmail(t.deps.db, 'outlet@shop.example'))!;
    const unverified = await post('/api/change-merchant-status', { id: outlet, status: 0, level_type: 'Brand' });
    expect(unverified.status).toBe(422);

    const off = await post('/api/change-merchant-status', { id: merchantId, status: 0, level_type: 'Merchant' });
    expect(off.status).toBe(201);
    expect(off.body.message).toEqual(['Status updated successfully.']);
    expect((await t.post('/api/brands', {}, merchantToken)).status).toBe(401);
    expect((await t.post('/api/brands', {}, brandToken)).status).toBe(401);
    const signIn = await t.post('/api/login', {
      email: 'brand@obol.example',
      password: DEMO_PASSWORD,
      auth_type: 'email',
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(403);
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'merchants.change-status'), eq(activityLog.outcome, 'success')));
    expect(log.after).toMatchObject({ is_active: false, level: 'Merchant' });
    // a brand of an inactive merchant cannot be activated
    const brandId = await id('brand');
    const early = await post('/api/change-merchant-status', { id: brandId, status: 1, level_type: 'Brand' });
    expect(early.status).toBe(422);
    expect(early.body.error).toEqual([MERCHANT_MSG.inactiveMerchant]);

    expect(
      (await post('/api/change-merchant-status', { id: merchantId, status: 1, level_type: 'Merchant' })).status,
    ).toBe(201);
    delete tokens.merchant;
    delete tokens.brand;
    expect((await post('/api/brands', {}, 'brand')).status).toBe(403);
  });
});

describe('resending a merchant’s or brand’s invitation', () => {
  it('mails the merchant and the brand a new link, voiding the old one; 404 for another merchant', async () => {
    const made = await post(
      '/api/create-user',
      merchant({ name: 'Resend Retail', email: 'resend@shop.example', payin_name: 'RESEND', mId: 'MID-RS-1' }),
    );
    expect(made.status, made.text).toBe(201);
    const parent = (await userIdByEmail(t.deps.db, 'resend@shop.example'))!;
    await acceptInvitation('resend@shop.example');
    const b = await post('/api/create-user', {
      rolename: 'Brand',
      parent_id: parent,
      brands: [brand({ name: 'Resend Outlet', email: 'resend-outlet@shop.example', mId: 'MID-RS-2' })],
    });
    expect(b.status, b.text).toBe(201);
    const email = 'resend-outlet@shop.example';
    const holder = (await userIdByEmail(t.deps.db, email))!;
    const before = t.mails.filter((m) => m.to === email).length;
    const first = t.lastMailTo(email)!.text;
    const r = await post('/api/resend-invitation', { id: holder });
    expect(r.status, r.text).toBe(200);
    expect(t.mails.filter((m) => m.to === email).length).toBe(before + 1);
    expect(t.lastMailTo(email)!.text).toContain('/new-password/');
    expect(t.lastMailTo(email)!.text).not.toBe(first);
    // the merchant, verified now, has nothing to resend; another merchant reaches neither
    expect((await post('/api/resend-invitation', { id: parent })).status).toBe(422);
    expect((await post('/api/resend-invitation', { id: holder }, 'merchant2')).status).toBe(404);
  });
});
