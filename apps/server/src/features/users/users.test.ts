import { ROLES, roleSlug, type RoleName } from '@obol/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { roles } from '../roles/tables.ts';
import { users } from './tables.ts';

let t: TestApp;
const tokens = new Map<string, string>();
const token = async (email: string) => {
  if (!tokens.has(email)) tokens.set(email, await t.signIn(email));
  return tokens.get(email)!;
};
let everyone: string[];
let otherTeamUserId: number;

beforeAll(async () => {
  t = await startTestApp();
  // a user of the second merchant's team, to prove merchants never see each other's teams
  const [reviewer] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Reviewer'));
  const [m2] = await t.deps.db.select().from(users).where(eq(users.email, 'merchant2@obol.example'));
  const [u] = await t.deps.db
    .insert(users)
    .values({
      name: 'Globex Reviewer',
      email: 'reviewer2@obol.example',
      roleId: reviewer.id,
      parentId: m2.id,
      emailVerifiedAt: new Date(),
    })
    .returning();
  otherTeamUserId = u.id;
  everyone = (await t.deps.db.select({ email: users.email }).from(users)).map((r) => r.email).sort();
});
afterAll(async () => {
  await t?.close();
});

const team = ['finance@obol.example', 'payment-ops@obol.example', 'reviewer@obol.example', 'risk-ops@obol.example'];
const expected: Record<RoleName, { status: number; emails?: () => string[] }> = {
  Admin: { status: 200, emails: () => everyone },
  Manager: { status: 200, emails: () => everyone },
  'Supervisor A': { status: 403 },
  'Supervisor B': { status: 403 },
  Accountant: { status: 403 },
  '2D Admin': { status: 403 },
  'Risk Ops': { status: 403 },
  'Payment Ops': { status: 403 },
  Finance: { status: 403 },
  Reviewer: { status: 403 },
  Merchant: { status: 200, emails: () => team },
  Brand: { status: 403 },
};

const emailsOf = (r: { body: { users: { data: { email: string }[] } } }) =>
  r.body.users.data.map((u) => u.email).sort();

describe("POST /api/users in the caller's scope", () => {
  it.each(ROLES.map((r) => [r]))('%s', async (role) => {
    const r = await t.post('/api/users', { per_page: 100, page: 1 }, await token(`${roleSlug(role)}@obol.example`));
    const e = expected[role];
    expect(r.status).toBe(e.status);
    if (e.status !== 200) {
      expect(r.body).toEqual({ error: [expect.any(String)] });
      return;
    }
    const emails = emailsOf(r);
    expect(emails).toEqual(e.emails!());
    expect(r.body.users.total).toBe(emails.length);
    expect(r.body.count).toBe(emails.length);
    expect(r.body.active).toBe(emails.length);
    expect(r.body.inactive).toBe(0);
  });

  it("shows the second merchant its own team only, never the first merchant's", async () => {
    const r = await t.post('/api/users', { per_page: 100 }, await token('merchant2@obol.example'));
    expect(r.status).toBe(200);
    expect(emailsOf(r)).toEqual(['reviewer2@obol.example']);
    expect(r.body).toMatchObject({ count: 1, active: 1, inactive: 0, users: { total: 1 } });
  });

  it('answers rows of the documented shape', async () => {
    const r = await t.post('/api/users', { search: 'finance@' }, await token('merchant@obol.example'));
    expect(r.body.users.data).toHaveLength(1);
    const row = r.body.users.data[0];
    expect(Object.keys(row).sort()).toEqual(
      [
        'created_at',
        'email',
        'id',
        'is_active',
        'last_login',
        'name',
        'parent',
        'remember_token_status',
        'resend_mail',
        'roles',
        'two_fa_as_otp',
      ].sort(),
    );
    expect(row).toMatchObject({
      email: 'finance@obol.example',
      roles: [{ name: 'Finance' }],
      is_active: '1',
      parent: { name: 'Acme Payouts' },
      remember_token_status: 'Verified',
      resend_mail: 0,
    });
    expect(JSON.stringify(row)).not.toMatch(/password|totp|secret/i);
  });

  it('searches name and e-mail, case-insensitively, within the scope only', async () => {
    const admin = await token('admin@obol.example');
    const globex = await t.post('/api/users', { search: 'GLOBEX' }, admin);
    expect(emailsOf(globex)).toEqual(['brand2@obol.example', 'merchant2@obol.example', 'reviewer2@obol.example']);
    expect(globex.body.users.total).toBe(3);
    // the counters describe the whole scope, not the search
    expect(globex.body.count).toBe(everyone.length);
    expect(emailsOf(await t.post('/api/users', { search: 'payment-ops@' }, admin))).toEqual([
      'payment-ops@obol.example',
    ]);
    const merchant = await token('merchant@obol.example');
    const outside = await t.post('/api/users', { search: 'globex' }, merchant);
    expect(outside.status).toBe(200);
    expect(outside.body.users).toEqual({ data: [], total: 0 });
    expect(emailsOf(await t.post('/api/users', { search: 'Demo Risk' }, merchant))).toEqual(['risk-ops@obol.example']);
  });

  it('takes % and _ in a search literally', async () => {
    const admin = await token('admin@obol.example');
    for (const search of ['%', '_', '%_%', '\\'])
      expect((await t.post('/api/users', { search }, admin)).body.users.total, search).toBe(0);
  });

  it('filters by role, within the scope', async () => {
    const admin = await token('admin@obol.example');
    const brands = await t.post('/api/users', { roles: 'Brand' }, admin);
    expect(emailsOf(brands)).toEqual(['brand2@obol.example', 'brand@obol.example']);
    expect(brands.body.users.total).toBe(2);
    const reviewers = await t.post('/api/users', { roles: 'Reviewer' }, admin);
    expect(emailsOf(reviewers)).toEqual(['reviewer2@obol.example', 'reviewer@obol.example']);
    for (const roles of ['All Roles', ''])
      expect((await t.post('/api/users', { roles, per_page: 100 }, admin)).body.users.total).toBe(everyone.length);
    const merchant = await token('merchant@obol.example');
    expect(emailsOf(await t.post('/api/users', { roles: 'Reviewer' }, merchant))).toEqual(['reviewer@obol.example']);
    expect((await t.post('/api/users', { roles: 'Brand' }, merchant)).body.users.total).toBe(0);
    expect((await t.post('/api/users', { roles: 'Admin' }, merchant)).body.users.total).toBe(0);
  });

  it('pages without overlap or gaps, with the total of every page', async () => {
    const admin = await token('admin@obol.example');
    const seen: string[] = [];
    const pages = Math.ceil(everyone.length / 5);
    for (let page = 1; page <= pages; page++) {
      const r = await t.post('/api/users', { per_page: 5, page }, admin);
      expect(r.status).toBe(200);
      expect(r.body.users.total).toBe(everyone.length);
      expect(r.body.users.data.length).toBe(page < pages ? 5 : everyone.length - 5 * (pages - 1));
      seen.push(...emailsOf(r));
    }
    expect(seen.sort()).toEqual(everyone);
    const beyond = await t.post('/api/users', { per_page: 5, page: pages + 1 }, admin);
    expect(beyond.body.users).toEqual({ data: [], total: everyone.length });
    // numbers sent as strings (form style) are taken
    const p2 = await t.post('/api/users', { per_page: '5', page: '2' }, admin);
    expect(p2.body.users.data).toHaveLength(5);
    // the default page size is 10
    expect((await t.post('/api/users', {}, admin)).body.users.data).toHaveLength(10);
  });

  it('counts active and inactive users', async () => {
    const admin = await token('admin@obol.example');
    const merchant = await token('merchant@obol.example');
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer2@obol.example'));
    try {
      const all = await t.post('/api/users', {}, admin);
      expect(all.body).toMatchObject({ count: everyone.length, active: everyone.length - 1, inactive: 1 });
      const row = (await t.post('/api/users', { search: 'reviewer2' }, admin)).body.users.data[0];
      expect(row.is_active).toBe('0');
      // another tenant's inactive user does not show in the merchant's counters
      const mine = await t.post('/api/users', {}, merchant);
      expect(mine.body).toMatchObject({ count: 4, active: 4, inactive: 0 });
    } finally {
      await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer2@obol.example'));
    }
  });

  it.each([
    [{ page: 0 }, 'page', 'page must be at least 1'],
    [{ page: -1 }, 'page', 'page must be at least 1'],
    [{ page: 1.5 }, 'page', 'page must be a whole number'],
    [{ page: 'two' }, 'page', 'page must be a number'],
    [{ per_page: 0 }, 'per_page', 'per_page must be at least 1'],
    [{ per_page: 1000 }, 'per_page', 'per_page must be at most 100'],
    [{ per_page: 'ten' }, 'per_page', 'per_page must be a number'],
    [{ roles: 'Emperor' }, 'roles', 'Unknown role'],
    [{ roles: 7 }, 'roles', 'Unknown role'],
    [{ search: 'x'.repeat(500) }, 'search', 'search must be at most 100 characters'],
  ])('refuses %j naming %s', async (body, field, message) => {
    const r = await t.post('/api/users', body, await token('admin@obol.example'));
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ [field]: [message] });
    expect(r.body.error).toEqual([message]);
  });

  it('answers 401 without a session', async () => {
    expect((await t.post('/api/users', {})).status).toBe(401);
  });
});

describe('POST /api/get-user-detail', () => {
  it('answers a user in scope', async () => {
    const merchant = await token('merchant@obol.example');
    const [own] = await t.deps.db.select().from(users).where(eq(users.email, 'finance@obol.example'));
    const mine = await t.post('/api/get-user-detail', { id: own.id }, merchant);
    expect(mine.status).toBe(200);
    expect(mine.body.user).toMatchObject({ id: own.id, email: 'finance@obol.example', roles: [{ name: 'Finance' }] });
    const admin = await t.post('/api/get-user-detail', { id: otherTeamUserId }, await token('admin@obol.example'));
    expect(admin.status).toBe(200);
    expect(admin.body.user).toMatchObject({ email: 'reviewer2@obol.example', parent: { name: 'Globex Trading' } });
  });

  it("answers 404 for another tenant's user exactly as for a user that does not exist", async () => {
    const merchant = await token('merchant@obol.example');
    const other = await t.post('/api/get-user-detail', { id: otherTeamUserId }, merchant);
    const none = await t.post('/api/get-user-detail', { id: 999_999 }, merchant);
    expect(other.status).toBe(404);
    expect(none.status).toBe(404);
    expect(other.text).toBe(none.text);
    expect(other.body).toEqual({ error: [expect.any(String)] });
    expect(other.text).not.toContain('reviewer2');
    // and the other way round
    const [own] = await t.deps.db.select().from(users).where(eq(users.email, 'finance@obol.example'));
    const back = await t.post('/api/get-user-detail', { id: own.id }, await token('merchant2@obol.example'));
    expect(back.status).toBe(404);
    expect(back.text).toBe(none.text);
    // staff outside the merchant's team are out of scope too
    const [admin] = await t.deps.db.select().from(users).where(eq(users.email, 'admin@obol.example'));
    expect((await t.post('/api/get-user-detail', { id: admin.id }, merchant)).text).toBe(none.text);
  });

  it('answers an id beyond any user with 404, not an error', async () => {
    const admin = await token('admin@obol.example');
    for (const id of [2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const r = await t.post('/api/get-user-detail', { id }, admin);
      expect(r.status, String(id)).toBe(404);
      expect(r.body).toEqual({ error: ['User not found'] });
    }
  });

  it.each([[{}], [{ id: 'abc' }], [{ id: 0 }], [{ id: -3 }], [{ id: 1.5 }]])('refuses %j naming id', async (body) => {
    const r = await t.post('/api/get-user-detail', body, await token('admin@obol.example'));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields)).toEqual(['id']);
  });

  it('refuses roles without the permission', async () => {
    for (const email of ['brand@obol.example', 'risk-ops@obol.example', 'supervisor-a@obol.example']) {
      const r = await t.post('/api/get-user-detail', { id: otherTeamUserId }, await token(email));
      expect(r.status, email).toBe(403);
      expect(r.body).toEqual({ error: [expect.any(String)] });
    }
  });
});
