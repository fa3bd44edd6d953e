import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { tryAgainIn, USERS_MSG } from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog, mailOutbox, oneTimeCodes } from '../../schema.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { users } from './tables.ts';

let t: TestApp;
const tokens = new Map<string, string>();
const token = async (email: string) => {
  if (!tokens.has(email)) tokens.set(email, await t.signIn(email));
  return tokens.get(email)!;
};
const idOf = async (email: string) =>
  (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id;
const userCount = async () => (await t.deps.db.select({ id: users.id }).from(users)).length;

/** The set-password link of the newest mail to `email`: its token and e-mail, as the web's /new-password takes them. */
function linkOf(email: string) {
  const mail = t.lastMailTo(email);
  const m = mail?.text.match(/\/new-password\/([^/\s]+)\/(\S+)/);
  if (!m) throw new Error(`no link in the mail to ${email}`);
  return { token: decodeURIComponent(m[1]), email: decodeURIComponent(m[2]), text: mail!.text };
}

const get = async (url: string, tok?: string) => {
  const r = await t.app.inject({ method: 'GET', url, headers: tok ? { authorization: `Bearer ${tok}` } : {} });
  return { status: r.statusCode, body: r.json() };
};

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/invite-user', () => {
  it('creates an unverified user, answers 201 and mails a 72-hour set-password link that verifies the user', async () => {
    const admin = await token('admin@obol.example');
    const r = await t.post(
      '/api/invite-user',
      { name: 'Ines Invited', email: 'Ines@Obol.Example', rolename: 'Accountant' },
      admin,
    );
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ message: [USERS_MSG.invited], id: expect.any(Number) });

    const detail = await t.post('/api/get-user-detail', { id: r.body.id }, admin);
    expect(detail.body.user).toMatchObject({
      email: 'ines@obol.example',
      roles: [{ name: 'Accountant' }],
      parent: null,
      remember_token_status: 'Not verified',
      resend_mail: 1,
      is_active: '1',
    });

    // the mail: in the outbox (no body) and as an .eml file holding the link
    const link = linkOf('ines@obol.example');
    expect(link.text).toContain('72 hours');
    const [out] = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ines@obol.example'));
    expect(out).toMatchObject({ template: 'invitation', status: 'sent' });
    const eml = readdirSync(path.join(t.dataDir, 'mail')).filter((f) => f.includes('ines@obol.example'));
    expect(eml).toHaveLength(1);
    expect(readFileSync(path.join(t.dataDir, 'mail', eml[0]), 'utf8')).toContain('new-password/');
    const [code] = await t.deps.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, r.body.id), eq(oneTimeCodes.purpose, 'invitation')));
    const hours = (code.expiresAt.getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);

    // the activity log: who invited whom, before (none) and after
    const [log] = await t.deps.db.select().from(activityLog).where(eq(activityLog.action, 'users.invite'));
    expect(log).toMatchObject({ outcome: 'success', targetType: 'user', targetId: String(r.body.id), before: null });
    expect(log.after).toMatchObject({ email: 'ines@obol.example', role: 'Accountant', verified: false });

    // the invitee sets a password through the link: verified, and can sign in
    expect((await t.post('/api/check-link-expiry', { token: link.token, email: link.email })).status).toBe(200);
    const set = await t.post('/api/set-password', {
      token: link.token,
      email: link.email,
      password: 'Fresh@pass9',
      password_confirmation: 'Fresh@pass9',
    });
    expect(set.status).toBe(200);
    const after = await t.post('/api/get-user-detail', { id: r.body.id }, admin);
    expect(after.body.user).toMatchObject({ remember_token_status: 'Verified', resend_mail: 0 });
    expect(await t.signIn('ines@obol.example', 'Fresh@pass9')).toEqual(expect.any(String));
    // single use
    expect((await t.post('/api/check-link-expiry', { token: link.token, email: link.email })).status).toBe(400);
  });

  it('refuses an e-mail that belongs to a user (any case) with 409 on email, creating nothing and mailing nothing', async () => {
    const admin = await token('admin@obol.example');
    const before = await userCount();
    const mails = t.mails.length;
    const r = await t.post(
      '/api/invite-user',
      { name: 'Twin', email: 'FINANCE@obol.example', rolename: 'Manager' },
      admin,
    );
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ error: [USERS_MSG.emailTaken], fields: { email: [USERS_MSG.emailTaken] } });
    expect(await userCount()).toBe(before);
    expect(t.mails.length).toBe(mails);
  });

  it('names each invalid field with its message', async () => {
    const admin = await token('admin@obol.example');
    const before = await userCount();
    const empty = await t.post('/api/invite-user', {}, admin);
    expect(empty.status).toBe(400);
    expect(empty.body.fields).toEqual({
      name: ['This field is required'],
      email: ['This field is required'],
      rolename: ['This field is required'],
    });
    const bad = await t.post('/api/invite-user', { name: '  ', email: 'not-an-email', rolename: 'Boss' }, admin);
    expect(bad.body.fields).toEqual({
      name: ['This field is required'],
      email: ['E-mail must be valid'],
      rolename: ['rolename must be a known role'],
    });
    const parent = await t.post(
      '/api/invite-user',
      { name: 'N', email: 'n@obol.example', rolename: 'Reviewer', parent_id: 'x' },
      admin,
    );
    expect(parent.body.fields).toEqual({ parent_id: ['parent_id must be a number'] });
    expect(await userCount()).toBe(before);
  });

  it('gives staff roles without a parent, merchant-side roles to a merchant only', async () => {
    const admin = await token('admin@obol.example');
    const merchantId = await idOf('merchant@obol.example');
    const before = await userCount();
    const invite = (body: object) =>
      t.post('/api/invite-user', { name: 'X', email: 'x1@obol.example', ...body }, admin);
    expect(await invite({ rolename: 'Admin' })).toMatchObject({
      status: 422,
      body: { fields: { rolename: [USERS_MSG.roleNotAllowed] } },
    });
    expect(await invite({ rolename: 'Merchant' })).toMatchObject({ status: 422 });
    expect(await invite({ rolename: 'Brand' })).toMatchObject({ status: 422 });
    expect(await invite({ rolename: 'Reviewer' })).toMatchObject({
      status: 400,
      body: { fields: { parent_id: [USERS_MSG.parentRequired] } },
    });
    expect(await invite({ rolename: 'Reviewer', parent_id: await idOf('brand@obol.example') })).toMatchObject({
      status: 400,
      body: { fields: { parent_id: [USERS_MSG.parentNotMerchant] } },
    });
    expect(await invite({ rolename: 'Manager', parent_id: merchantId })).toMatchObject({
      status: 400,
      body: { fields: { parent_id: [USERS_MSG.parentNotAllowed] } },
    });
    expect(await userCount()).toBe(before);

    const ok = await invite({ rolename: 'Reviewer', parent_id: merchantId });
    expect(ok.status).toBe(201);
    const row = await t.post('/api/get-user-detail', { id: ok.body.id }, await token('merchant@obol.example'));
    expect(row.body.user).toMatchObject({ roles: [{ name: 'Reviewer' }], parent: { id: merchantId } });
  });

  it("lets a merchant invite its own team's roles only, into its own team", async () => {
    const merchant = await token('merchant@obol.example');
    const merchantId = await idOf('merchant@obol.example');
    const before = await userCount();
    const invite = (body: object) =>
      t.post('/api/invite-user', { name: 'Team', email: 'team1@obol.example', ...body }, merchant);
    expect(await invite({ rolename: 'Manager' })).toMatchObject({
      status: 422,
      body: { fields: { rolename: [USERS_MSG.roleNotAllowed] } },
    });
    expect(await invite({ rolename: 'Finance', parent_id: await idOf('merchant2@obol.example') })).toMatchObject({
      status: 404,
    });
    expect(await userCount()).toBe(before);
    const ok = await invite({ rolename: 'Finance' });
    expect(ok.status).toBe(201);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, ok.body.id));
    expect(row.parentId).toBe(merchantId);
    // the other merchant does not see it
    expect(
      (await t.post('/api/get-user-detail', { id: ok.body.id }, await token('merchant2@obol.example'))).status,
    ).toBe(404);
  });

  it('answers 403 without the permission, inviting nobody', async () => {
    const before = await userCount();
    for (const who of ['supervisor-a@obol.example', 'finance@obol.example', 'brand@obol.example']) {
      const r = await t.post(
        '/api/invite-user',
        { name: 'No', email: 'no@obol.example', rolename: 'Reviewer' },
        await token(who),
      );
      expect(r.status).toBe(403);
    }
    expect(await userCount()).toBe(before);
    expect(
      (await t.post('/api/invite-user', { name: 'No', email: 'no@obol.example', rolename: 'Reviewer' })).status,
    ).toBe(401);
  });

  it('allows a few invitations an hour per inviting user, then 429 with Retry-After', async () => {
    const saved = t.config.limits.invite;
    t.config.limits.invite = { limit: 2, seconds: 3600 };
    try {
      const manager = await token('manager@obol.example');
      const invite = (n: number) =>
        t.post('/api/invite-user', { name: 'R', email: `rate${n}@obol.example`, rolename: 'Accountant' }, manager);
      expect((await invite(1)).status).toBe(201);
      expect((await invite(2)).status).toBe(201);
      const before = await userCount();
      const r = await invite(3);
      expect(r.status).toBe(429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(r.body).toEqual({ error: [tryAgainIn(Number(r.headers['retry-after']), 'invitations')] });
      expect(await userCount()).toBe(before);
      // another inviter is not affected
      const other = await token('merchant2@obol.example');
      expect(
        (await t.post('/api/invite-user', { name: 'R', email: 'rate4@obol.example', rolename: 'Finance' }, other))
          .status,
      ).toBe(201);
    } finally {
      t.config.limits.invite = saved;
    }
  });
});

describe('POST /api/resend-invitation', () => {
  it('mails a new link to an unverified user and voids the old one; 422 once verified', async () => {
    const admin = await token('admin@obol.example');
    const inv = await t.post(
      '/api/invite-user',
      { name: 'Ron Resend', email: 'ron@obol.example', rolename: 'Accountant' },
      admin,
    );
    const first = linkOf('ron@obol.example');
    const r = await t.post('/api/resend-invitation', { id: inv.body.id }, admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: [USERS_MSG.invitationResent] });
    const second = linkOf('ron@obol.example');
    expect(second.token).not.toBe(first.token);
    expect((await t.post('/api/check-link-expiry', { token: first.token, email: first.email })).status).toBe(400);
    const set = await t.post('/api/set-password', {
      ...second,
      password: 'Ron@pass12',
      password_confirmation: 'Ron@pass12',
    });
    expect(set.status).toBe(200);
    const mails = t.mails.length;
    const again = await t.post('/api/resend-invitation', { id: inv.body.id }, admin);
    expect(again).toMatchObject({ status: 422, body: { error: [USERS_MSG.alreadyVerified] } });
    expect(t.mails.length).toBe(mails);
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'users.resend-invitation'), eq(activityLog.outcome, 'success')));
    expect(log.before).toBeTruthy();
    expect(log.after).toBeTruthy();
  });

  it("answers 404 for another merchant's user and 403 without the permission, mailing nothing", async () => {
    const merchant = await token('merchant@obol.example');
    const inv = await t.post(
      '/api/invite-user',
      { name: 'Tia', email: 'tia@obol.example', rolename: 'Reviewer' },
      merchant,
    );
    expect(inv.status).toBe(201);
    const [other, supervisor] = [await token('merchant2@obol.example'), await token('supervisor-b@obol.example')];
    const mails = t.mails.length;
    expect((await t.post('/api/resend-invitation', { id: inv.body.id }, other)).status).toBe(404);
    expect((await t.post('/api/resend-invitation', { id: inv.body.id }, supervisor)).status).toBe(403);
    expect((await t.post('/api/resend-invitation', { id: 999_999 }, merchant)).status).toBe(404);
    expect(t.mails.length).toBe(mails);
  });

  it('sends at most 5 invitation mails an hour to one user, then 429', async () => {
    const admin = await token('admin@obol.example');
    const inv = await t.post(
      '/api/invite-user',
      { name: 'Many', email: 'many@obol.example', rolename: 'Accountant' },
      admin,
    );
    for (let i = 0; i < 5; i++)
      expect((await t.post('/api/resend-invitation', { id: inv.body.id }, admin)).status).toBe(200);
    const mails = t.mails.length;
    const r = await t.post('/api/resend-invitation', { id: inv.body.id }, admin);
    expect(r.status).toBe(429);
    expect(r.body.error[0]).toMatch(/^Too many invitation mails\. Please try again in /);
    expect(t.mails.length).toBe(mails);
  });
});

describe('GET /api/all-user-roles and /api/all-merchants', () => {
  it('offers staff the staff and merchant-side sets, a merchant its team set, others nothing', async () => {
    expect((await get('/api/all-user-roles', await token('admin@obol.example'))).body).toEqual({
      roles: [
        'Manager',
        'Supervisor A',
        'Supervisor B',
        'Accountant',
        '2D Admin',
        'Risk Ops',
        'Payment Ops',
        'Finance',
        'Reviewer',
      ],
    });
    expect((await get('/api/all-user-roles', await token('merchant@obol.example'))).body).toEqual({
      roles: ['Risk Ops', 'Payment Ops', 'Finance', 'Reviewer'],
    });
    expect((await get('/api/all-user-roles', await token('accountant@obol.example'))).status).toBe(403);
  });

  it('lists every merchant to staff and only itself to a merchant', async () => {
    const staff = await get('/api/all-merchants', await token('admin@obol.example'));
    expect(staff.body.data.map((m: { name: string }) => m.name)).toEqual(['Acme Payouts', 'Globex Trading']);
    const own = await get('/api/all-merchants', await token('merchant2@obol.example'));
    expect(own.body).toEqual({ data: [{ id: await idOf('merchant2@obol.example'), name: 'Globex Trading' }] });
    expect((await get('/api/all-merchants', await token('reviewer@obol.example'))).status).toBe(403);
  });
});
