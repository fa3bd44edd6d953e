import { MSG } from '@obol/contract';
import { count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { users } from '../users/tables.ts';
import { activityLog } from '../../platform/tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** a POST from a given address; answers the status, the body and the request id the client saw */
async function call(url: string, body: object, opts: { token?: string; ip?: string } = {}) {
  const r = await t.app.inject({
    method: 'POST',
    url,
    payload: body,
    remoteAddress: opts.ip ?? '10.20.30.40',
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
  });
  return { status: r.statusCode, body: r.json(), requestId: String(r.headers['x-request-id']) };
}

/** the one activity row written for a request */
async function rowOf(requestId: string) {
  const rows = await t.deps.db.select().from(activityLog).where(eq(activityLog.requestId, requestId));
  expect(rows, `one row for request ${requestId}`).toHaveLength(1);
  return rows[0];
}

async function signIn(email: string, ip: string) {
  const login = await call('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'email' }, { ip });
  expect(login.status).toBe(200);
  const verify = await call(
    '/api/verify-code',
    { challenge_token: login.body.challenge_token, code: t.lastMailTo(email)!.code },
    { ip },
  );
  expect(verify.status).toBe(200);
  return { login, verify, token: verify.body.accessToken as string };
}

const idOf = async (email: string) =>
  (await t.deps.db.select().from(users).where(eq(users.email, email)))[0] as typeof users.$inferSelect;

describe('the activity log records', () => {
  it('a sign-in: the password step and the code step, with who, outcome, status, address and request id', async () => {
    const admin = await idOf('admin@obol.example');
    const s = await signIn('admin@obol.example', '10.0.0.7');
    expect(await rowOf(s.login.requestId)).toMatchObject({
      action: 'auth.login',
      outcome: 'success',
      statusCode: 200,
      userId: admin.id,
      userName: admin.name,
      userEmail: 'admin@obol.example',
      ip: '10.0.0.7',
      detail: 'second factor: email',
    });
    const v = await rowOf(s.verify.requestId);
    expect(v).toMatchObject({
      action: 'auth.verify-code',
      outcome: 'success',
      statusCode: 200,
      userId: admin.id,
      userEmail: 'admin@obol.example',
      ip: '10.0.0.7',
    });
    expect(v.createdAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('failed sign-ins: unknown e-mail, wrong password, wrong code', async () => {
    const unknown = await call('/api/login', {
      email: 'ghost@obol.example',
      password: 'Wrong@pass1',
      auth_type: 'email',
    });
    expect(unknown.status).toBe(401);
    expect(await rowOf(unknown.requestId)).toMatchObject({
      action: 'auth.login',
      outcome: 'failure',
      statusCode: 401,
      userId: null,
      userEmail: 'ghost@obol.example',
      ip: '10.20.30.40',
    });
    const wrong = await call('/api/login', {
      email: 'manager@obol.example',
      password: 'Wrong@pass1',
      auth_type: 'email',
    });
    expect(await rowOf(wrong.requestId)).toMatchObject({
      action: 'auth.login',
      outcome: 'failure',
      statusCode: 401,
      userEmail: 'manager@obol.example',
    });
    const login = await call('/api/login', {
      email: 'manager@obol.example',
      password: DEMO_PASSWORD,
      auth_type: 'email',
    });
    const code = t.lastMailTo('manager@obol.example')!.code!;
    const bad = await call('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(bad.status).toBe(401);
    const manager = await idOf('manager@obol.example');
    expect(await rowOf(bad.requestId)).toMatchObject({
      action: 'auth.verify-code',
      outcome: 'failure',
      statusCode: 401,
      userId: manager.id,
      userEmail: 'manager@obol.example',
    });
  });

  it('a refusal for a missing permission, naming the permission', async () => {
    const { token } = await signIn('brand@obol.example', '10.0.0.8');
    const brand = await idOf('brand@obol.example');
    const refused = await call('/api/users', {}, { token, ip: '10.0.0.8' });
    expect(refused.status).toBe(403);
    const row = await rowOf(refused.requestId);
    expect(row).toMatchObject({
      action: 'denied POST /api/users',
      outcome: 'denied',
      statusCode: 403,
      userId: brand.id,
      userEmail: 'brand@obol.example',
      ip: '10.0.0.8',
    });
    expect(row.detail).toContain('User can view users');
  });

  it('a logout', async () => {
    const { token } = await signIn('finance@obol.example', '10.0.0.9');
    const out = await call('/api/logout', {}, { token, ip: '10.0.0.9' });
    expect(out.status).toBe(200);
    expect(await rowOf(out.requestId)).toMatchObject({
      action: 'auth.logout',
      outcome: 'success',
      statusCode: 200,
      userId: (await idOf('finance@obol.example')).id,
      userEmail: 'finance@obol.example',
      ip: '10.0.0.9',
    });
  });

  it('a password change, refused and done, with the user as target', async () => {
    const { token } = await signIn('payment-ops@obol.example', '10.0.0.10');
    const me = await idOf('payment-ops@obol.example');
    const refused = await call(
      '/api/change-password',
      { current_password: 'Wrong@pass1', password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      { token, ip: '10.0.0.10' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.fields.current_password).toEqual([MSG.incorrectPassword]);
    expect(await rowOf(refused.requestId)).toMatchObject({
      action: 'auth.change-password',
      outcome: 'failure',
      statusCode: 400,
      userId: me.id,
      targetType: 'user',
      targetId: String(me.id),
    });
    const done = await call(
      '/api/change-password',
      { current_password: DEMO_PASSWORD, password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      { token, ip: '10.0.0.10' },
    );
    expect(done.status).toBe(200);
    expect(await rowOf(done.requestId)).toMatchObject({
      action: 'auth.change-password',
      outcome: 'success',
      statusCode: 200,
      userId: me.id,
      userEmail: 'payment-ops@obol.example',
      targetType: 'user',
      targetId: String(me.id),
      ip: '10.0.0.10',
    });
  });

  it('no secret: no password, code or token is written', async () => {
    const s = await signIn('risk-ops@obol.example', '10.0.0.11');
    const code = t.lastMailTo('risk-ops@obol.example')!.code!;
    const rows = JSON.stringify(await t.deps.db.select().from(activityLog));
    for (const secret of [DEMO_PASSWORD, 'Next@pass1', 'Wrong@pass1', s.token, s.login.body.challenge_token, code])
      expect(rows).not.toContain(secret);
  });
});

describe('the activity log is append-only', () => {
  const snapshot = async () => JSON.stringify(await t.deps.db.select().from(activityLog).orderBy(activityLog.id));

  it('refuses UPDATE and DELETE in the database, changing nothing', async () => {
    await signIn('reviewer@obol.example', '10.0.0.12');
    const before = await snapshot();
    const [{ n }] = await t.deps.db.select({ n: count() }).from(activityLog);
    expect(n).toBeGreaterThan(0);
    const [last] = await t.deps.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1);

    await expect(t.deps.db.update(activityLog).set({ action: 'x' })).rejects.toThrow();
    await expect(
      t.deps.db.update(activityLog).set({ outcome: 'success' }).where(eq(activityLog.id, last.id)),
    ).rejects.toThrow();
    await expect(t.deps.db.delete(activityLog).where(eq(activityLog.id, last.id))).rejects.toThrow();
    await expect(t.deps.db.delete(activityLog)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`update activity_log set ip = '0.0.0.0'`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from activity_log`)).rejects.toThrow();
    // inside a transaction too
    await expect(
      t.deps.db.transaction(async (tx) => {
        await tx.delete(activityLog).where(eq(activityLog.id, last.id));
      }),
    ).rejects.toThrow();
    expect(await snapshot()).toBe(before);
  });
});
