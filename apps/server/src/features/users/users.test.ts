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

describe("POST /api/users in the caller's scope", () => {
  it.each(ROLES.map((r) => [r]))('%s', async (role) => {
    const r = await t.post('/api/users', { per_page: 100, page: 1 }, await token(`${roleSlug(role)}@obol.example`));
    const e = expected[role];
    expect(r.status).toBe(e.status);
    if (e.status !== 200) {
      expect(r.body).toEqual({ error: [expect.any(String)] });
      return;
    }
    const emails = r.body.users.data.map((u: { email: string }) => u.email).sort();
    expect(emails).toEqual(e.emails!());
    expect(r.body.users.total).toBe(emails.length);
    expect(r.body.count).toBe(emails.length);
    expect(r.body.active + r.body.inactive).toBe(r.body.count);
  });

  it('searches, filters by role, pages and counts', async () => {
    const admin = await token('admin@obol.example');
    const search = await t.post('/api/users', { search: 'globex' }, admin);
    expect(search.body.users.data.map((u: { email: string }) => u.email).sort()).toEqual([
      'brand2@obol.example',
      'merchant2@obol.example',
      'reviewer2@obol.example',
    ]);
    const brands = await t.post('/api/users', { roles: 'Brand' }, admin);
    expect(brands.body.users.data.every((u: { roles: { name: string }[] }) => u.roles[0].name === 'Brand')).toBe(true);
    expect(brands.body.users.total).toBe(2);
    const all = await t.post('/api/users', { roles: 'All Roles' }, admin);
    expect(all.body.users.total).toBe(everyone.length);
    const p1 = await t.post('/api/users', { per_page: 5, page: 1 }, admin);
    const p2 = await t.post('/api/users', { per_page: 5, page: 2 }, admin);
    expect(p1.body.users.data).toHaveLength(5);
    expect(p2.body.users.data).toHaveLength(5);
    expect(p1.body.users.data[0].id).not.toBe(p2.body.users.data[0].id);
    expect(p1.body.users.total).toBe(everyone.length);
    const row = p1.body.users.data[0];
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
    // a deactivated user counts as inactive
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer2@obol.example'));
    const counted = await t.post('/api/users', {}, admin);
    expect(counted.body.inactive).toBe(1);
    await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer2@obol.example'));
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ per_page: 0 }, 'per_page'],
    [{ per_page: 1000 }, 'per_page'],
    [{ page: 'two' }, 'page'],
    [{ roles: 'Emperor' }, 'roles'],
    [{ search: 'x'.repeat(500) }, 'search'],
  ])('refuses %j naming %s', async (body, field) => {
    const r = await t.post('/api/users', body, await token('admin@obol.example'));
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields)).toContain(field);
  });
});

describe('POST /api/get-user-detail', () => {
  it("answers a user in scope, and 404 for another tenant's user exactly as for none", async () => {
    const merchant = await token('merchant@obol.example');
    const [own] = await t.deps.db.select().from(users).where(eq(users.email, 'finance@obol.example'));
    const mine = await t.post('/api/get-user-detail', { id: own.id }, merchant);
    expect(mine.status).toBe(200);
    expect(mine.body.user.email).toBe('finance@obol.example');
    const other = await t.post('/api/get-user-detail', { id: otherTeamUserId }, merchant);
    const none = await t.post('/api/get-user-detail', { id: 999_999 }, merchant);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(none.body);
    expect(
      (await t.post('/api/get-user-detail', { id: otherTeamUserId }, await token('admin@obol.example'))).status,
    ).toBe(200);
  });
});

describe('the platform', () => {
  it('answers health with the database kind', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok', database: { kind: t.database.kind, reachable: true } });
  });

  it('answers unknown API routes with a JSON 404, and malformed JSON with a 400', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/no-such-thing' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error[0]).toContain('/api/no-such-thing');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: ['The request body is not valid JSON'] });
    expect(bad.headers['x-request-id']).toBeTruthy();
  });

  it('answers an unexpected error with a 500, a request id and no internals', async () => {
    const { startTestApp: start } = await import('../../test/harness.ts');
    const t2 = await start(
      {},
      {
        beforeReady: (app) =>
          app.post('/api/test-boom', async () => {
            throw new Error('secret internals: password=hunter2');
          }),
      },
    );
    try {
      const r = await t2.app.inject({ method: 'POST', url: '/api/test-boom' });
      expect(r.statusCode).toBe(500);
      const body = r.json();
      expect(body.error).toEqual(['Something went wrong!']);
      expect(body.request_id).toBe(r.headers['x-request-id']);
      expect(r.body).not.toContain('secret');
    } finally {
      await t2.close();
    }
  });
});
