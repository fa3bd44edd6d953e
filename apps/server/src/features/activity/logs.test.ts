import { ACTIVITY_PER_PAGE, activityLabel, FILTER_MSG, type ActivityRow } from '@obol/contract';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { permissions, rolePermissions, roles } from '../roles/tables.ts';
import { users } from '../users/tables.ts';
import { activityLog } from '../../platform/tables.ts';

const PERM = 'User can view activity&logs panel';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.signIn('admin@obol.example');
});
afterAll(async () => {
  await t?.close();
});

const logs = (body: object, token = admin) => t.post('/api/get-logs', body, token);
const rowsOf = (r: { body: { data: { data: ActivityRow[]; total: number }[] } }) => r.body.data[0].data;
const totalOf = (r: { body: { data: { data: ActivityRow[]; total: number }[] } }) => r.body.data[0].total;
const recordCount = async () => (await t.deps.db.select({ n: count() }).from(activityLog))[0].n;
const dayIn = (tz: string, offsetDays = 0) =>
  new Date(Date.now() + offsetDays * 86_400_000).toLocaleDateString('en-CA', { timeZone: tz });

async function grant(role: string, permission = PERM) {
  const [r] = await t.deps.db.select().from(roles).where(eq(roles.name, role));
  const [p] = await t.deps.db.select().from(permissions).where(eq(permissions.name, permission));
  await t.deps.db.insert(rolePermissions).values({ roleId: r.id, permissionId: p.id }).onConflictDoNothing();
}

describe('POST /api/get-logs', () => {
  it("answers the spec's shape, 20 a page, newest first, with the readable action and the details", async () => {
    // more records than a page: sign-ins of several users
    for (const who of [
      'merchant2',
      'brand2',
      'manager',
      'finance',
      'reviewer',
      'accountant',
      'supervisor-a',
      'supervisor-b',
      'risk-ops',
      'merchant',
      'brand',
    ])
      await t.signIn(`${who}@obol.example`);
    const r = await logs({});
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    const page = rowsOf(r);
    expect(page).toHaveLength(ACTIVITY_PER_PAGE);
    expect(totalOf(r)).toBe(await recordCount());
    const times = page.map((x) => Date.parse(x.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // the newest: the last sign-in, of the brand (its code step)
    expect(page[0]).toMatchObject({
      user_name: 'Acme Brand',
      user_email: 'brand@obol.example',
      action: 'auth.verify-code',
      activity: 'Signed in',
      outcome: 'success',
      status_code: 200,
      target: null,
      ip: expect.any(String),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(page[0].prev_hash).toBe(page.find((x) => x.seq === page[0].seq - 1)?.hash);

    const second = await logs({ page: 2, per_page: 20 });
    expect(rowsOf(second)[0].seq).toBeLessThan(page[page.length - 1].seq);
    const small = await logs({ per_page: 3, page: '2' });
    expect(rowsOf(small).map((x) => x.id)).toEqual(page.slice(3, 6).map((x) => x.id));
  });

  it('carries target, before and after for the details view', async () => {
    const token = await t.signIn('payment-ops@obol.example');
    const me = (await t.deps.db.select().from(users).where(eq(users.email, 'payment-ops@obol.example')))[0];
    const changed = await t.post(
      '/api/change-password',
      { current_password: 'Test@pass1', password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      token,
    );
    expect(changed.status).toBe(200);
    const [row] = rowsOf(await logs({ per_page: 1 }));
    expect(row).toMatchObject({
      action: 'auth.change-password',
      activity: 'Changed the password',
      target: { type: 'user', id: String(me.id) },
      user_email: 'payment-ops@obol.example',
    });
    // an admin action's before and after come back as they were recorded
    await t.deps.db.insert(activityLog).values({
      action: 'fee.update-fee',
      outcome: 'success',
      statusCode: 200,
      userId: me.id,
      userName: me.name,
      userEmail: me.email,
      targetType: 'merchant',
      targetId: '7',
      before: { fee: '1.50', name: 'Acme' },
      after: { fee: '1.75', name: 'Acme' },
    });
    const [fee] = rowsOf(await logs({ per_page: 1 }));
    expect(fee).toMatchObject({
      activity: 'Fee: update fee',
      target: { type: 'merchant', id: '7' },
      before: { fee: '1.50', name: 'Acme' },
      after: { fee: '1.75', name: 'Acme' },
    });
  });

  it("filters one day in the caller's time zone: today holds the records, yesterday none of them", async () => {
    const all = totalOf(await logs({}));
    const today = await logs({ date: dayIn('UTC'), tz: 'UTC' });
    expect(today.status).toBe(200);
    expect(totalOf(today)).toBe(all);
    // a record of another day, written through the chain like any other
    await t.deps.db.insert(activityLog).values({
      action: 'auth.logout',
      outcome: 'success',
      statusCode: 200,
      userEmail: 'old@obol.example',
      createdAt: new Date(Date.now() - 3 * 86_400_000),
    });
    const old = await logs({ date: dayIn('UTC', -3), tz: 'UTC' });
    expect(rowsOf(old).map((x) => x.user_email)).toEqual(['old@obol.example']);
    expect(totalOf(await logs({ date: dayIn('UTC'), tz: 'UTC' }))).toBe(all);
    expect(totalOf(await logs({ date: dayIn('UTC', -1), tz: 'UTC' }))).toBe(0);
    // far east, today may already be tomorrow in UTC: allowed, since it is not in the future there
    expect((await logs({ date: dayIn('Pacific/Kiritimati'), tz: 'Pacific/Kiritimati' })).status).toBe(200);
  });

  it('refuses a future date, a malformed date, a bad page and a bad time zone with 400 naming the field', async () => {
    const before = await recordCount();
    const cases: [object, string, string][] = [
      [{ date: dayIn('UTC', 2), tz: 'UTC' }, 'date', FILTER_MSG.dateFuture],
      [{ date: dayIn('Pacific/Kiritimati', 1), tz: 'Pacific/Kiritimati' }, 'date', FILTER_MSG.dateFuture],
      [{ date: '2026-02-30' }, 'date', FILTER_MSG.dateInvalid],
      [{ date: '23/11/2026' }, 'date', FILTER_MSG.dateInvalid],
      [{ date: 20261123 }, 'date', FILTER_MSG.dateInvalid],
      [{ page: 0 }, 'page', 'page must be at least 1'],
      [{ per_page: 101 }, 'per_page', 'per_page must be at most 100'],
      [{ per_page: 'ten' }, 'per_page', 'per_page must be a number'],
      [{ tz: 'Mars/Olympus' }, 'tz', FILTER_MSG.timeZone],
    ];
    for (const [body, field, message] of cases) {
      const r = await logs(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.fields[field], JSON.stringify(body)).toEqual([message]);
    }
    // reading writes nothing
    expect(await recordCount()).toBe(before);
  });

  it('refuses 401 without a session and 403 without the permission (a Brand, Finance by default)', async () => {
    expect((await t.post('/api/get-logs', {})).status).toBe(401);
    expect((await t.post('/api/verify-logs', {})).status).toBe(401);
    for (const who of ['brand', 'finance', 'merchant']) {
      const token = await t.signIn(`${who}@obol.example`);
      const before = await recordCount();
      const r = await logs({}, token);
      expect(r.status, who).toBe(403);
      expect(r.body).toEqual({ error: [expect.any(String)] });
      const v = await t.post('/api/verify-logs', {}, token);
      expect(v.status, who).toBe(403);
      // the two refusals are recorded, nothing else
      expect(await recordCount()).toBe(before + 2);
    }
  });

  it("a merchant given the permission sees its own users' records only; a brand given it sees none", async () => {
    await grant('Merchant');
    await grant('Brand');
    const merchant = await t.signIn('merchant@obol.example');
    await t.signIn('risk-ops@obol.example'); // the merchant's team
    await t.signIn('merchant2@obol.example'); // another merchant
    const mine = await t.deps.db
      .select({ id: users.id })
      .from(users)
      .where(
        sql`${users.email} = 'merchant@obol.example'
          OR ${users.parentId} = (SELECT id FROM users WHERE email = 'merchant@obol.example')`,
      );
    const ids = mine.map((u) => u.id);
    const [{ n: expected }] = await t.deps.db
      .select({ n: count() })
      .from(activityLog)
      .where(inArray(activityLog.userId, ids));
    const r = await logs({ per_page: 100 }, merchant);
    expect(r.status).toBe(200);
    expect(totalOf(r)).toBe(expected);
    const emails = new Set(rowsOf(r).map((x) => x.user_email));
    expect(emails).toContain('merchant@obol.example');
    expect(emails).toContain('risk-ops@obol.example');
    for (const other of ['admin@obol.example', 'merchant2@obol.example', 'manager@obol.example', null])
      expect(emails).not.toContain(other);
    expect(totalOf(await logs({ date: dayIn('UTC'), tz: 'UTC' }, merchant))).toBe(expected);
    // the chain is the platform's: a merchant may not walk it
    expect((await t.post('/api/verify-logs', {}, merchant)).status).toBe(403);

    const brand = await t.signIn('brand@obol.example');
    const b = await logs({}, brand);
    expect(b.status).toBe(200);
    expect(b.body).toEqual({ data: [{ data: [], total: 0 }] });
    const [{ n: brandRecords }] = await t.deps.db
      .select({ n: count() })
      .from(activityLog)
      .where(and(eq(activityLog.userEmail, 'brand@obol.example')));
    expect(brandRecords).toBeGreaterThan(0);
  });
});

describe('activityLabel', () => {
  it('labels known actions, falls back to the name, and marks failures and refusals', () => {
    expect(activityLabel('users.invite')).toBe('Invited a user');
    expect(activityLabel('auth.verify-code', 'failure')).toBe('Signed in (failed)');
    expect(activityLabel('fee.update-fee')).toBe('Fee: update fee');
    expect(activityLabel('denied POST /api/users', 'denied')).toBe('Refused: POST /api/users');
    expect(activityLabel('odd')).toBe('odd');
  });
});
