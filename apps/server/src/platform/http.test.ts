import { DEFAULT_ROLE_PERMISSIONS, MSG, ROLES, roleSlug, type Permission, type RoleName } from '@obol/contract';
import { count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestApp, type RouteInfo, type TestApp } from '../test/harness.ts';
import { activityLog, permissions, rolePermissions, roles, users } from '../schema.ts';
import type { Access } from './http.ts';

let t: TestApp;
const tokens = new Map<string, string>();
const token = async (role: RoleName) => {
  const email = `${roleSlug(role)}@obol.example`;
  if (!tokens.has(email)) tokens.set(email, await t.signIn(email));
  return tokens.get(email)!;
};

beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      beforeReady: (app) => {
        app.post('/api/test-boom', async () => {
          throw new Error('secret internals: password=hunter2 at /srv/obol/db.ts:42');
        });
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
});

const call = (r: RouteInfo, authToken?: string) =>
  t.app.inject({
    method: r.method as 'GET' | 'POST',
    url: r.url,
    ...(r.method === 'GET' ? {} : { payload: {} }),
    headers: authToken ? { authorization: `Bearer ${authToken}` } : {},
  });

/** does a role hold the access, by the seeded default matrix */
function holds(role: RoleName, access: Access): boolean {
  const perms = DEFAULT_ROLE_PERMISSIONS[role] as readonly Permission[];
  if (access === 'public' || access === 'authenticated') return true;
  if (typeof access === 'string') return perms.includes(access);
  if (Array.isArray(access)) return access.some((p) => perms.includes(p));
  return (access as { roles: readonly RoleName[] }).roles.includes(role);
}

/**
 * routes outside the permission model on purpose: the health probe, the provider's signed webhook, the API's
 * description
 */
const OPEN_BY_DESIGN = [
  'GET /api/health',
  'HEAD /api/health',
  // readiness for the load balancer; metrics answer 404 without METRICS_TOKEN and check it themselves
  'GET /api/ready',
  'HEAD /api/ready',
  'GET /api/metrics',
  'HEAD /api/metrics',
  'POST /api/provider/webhook',
  'GET /api/openapi.json',
  'HEAD /api/openapi.json',
  'GET /api/docs',
  'HEAD /api/docs',
  'GET /api/docs/',
  'HEAD /api/docs/',
  'GET /api/docs/init.js',
  'HEAD /api/docs/init.js',
  'GET /api/docs/:asset',
  'HEAD /api/docs/:asset',
];
const PUBLIC_AUTH = [
  'POST /api/login',
  'POST /api/verify-code',
  'POST /api/forgot-password',
  'POST /api/check-link-expiry',
  'POST /api/set-password',
];
/** the merchant API: public to the session check, authenticated by the API key or its token (payins.test.ts) */
const MERCHANT_API = ['POST /api/token', 'POST /api/test', 'POST /api/create-payin-link'];
/** a company's account holder approving Obol's access, by the link mailed to them (accounting.test.ts) */
const CONSENT = ['POST /api/consent-details', 'POST /api/consent-approve'];
/** the demo storefront's webhook receiver and its page's read of it (webhooks.test.ts: only Obol's own bodies) */
const DEMO_SHOP = [
  'POST /api/demo-shop/:inbox/webhook',
  'GET /api/demo-shop/:inbox/events',
  'HEAD /api/demo-shop/:inbox/events',
];

describe('every route declares who may call it', () => {
  const apiRoutes = () => t.routes.filter((r) => r.url.startsWith('/api/') && r.url !== '/api/test-boom');
  const key = (r: RouteInfo) => `${r.method} ${r.url}`;

  it('declares an access rule on every API route; the public ones are exactly the sign-in flow, the merchant API, the consent link and the demo shop', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(10);
    const undeclared = routes.filter((r) => r.access === undefined && !OPEN_BY_DESIGN.includes(key(r))).map(key);
    expect(undeclared).toEqual([]);
    const publicOnes = routes
      .filter((r) => r.access === 'public' && !OPEN_BY_DESIGN.includes(key(r)))
      .map(key)
      .sort();
    expect(publicOnes).toEqual([...PUBLIC_AUTH, ...MERCHANT_API, ...CONSENT, ...DEMO_SHOP].sort());
  });

  it('answers 401 without a token, or with an unknown or malformed one, on every non-public route', async () => {
    const guarded = apiRoutes().filter((r) => r.access !== 'public' && r.access !== undefined && r.method !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(10);
    for (const r of guarded) {
      for (const auth of [undefined, 'not-a-session-token']) {
        const res = await call(r, auth);
        expect(res.statusCode, `${key(r)} with ${auth ?? 'no token'}`).toBe(401);
        expect(res.json(), key(r)).toEqual({ error: [MSG.sessionExpired] });
      }
      const basic = await t.app.inject({
        method: r.method as 'GET' | 'POST',
        url: r.url,
        headers: { authorization: 'Basic YWRtaW46cGFzcw==' },
        ...(r.method === 'GET' ? {} : { payload: {} }),
      });
      expect(basic.statusCode, `${key(r)} with basic auth`).toBe(401);
    }
  });

  it('answers 403 {error} on every route with a permission, to a role without it, and records the refusal', async () => {
    const guarded = apiRoutes().filter(
      (r) => r.access !== 'public' && r.access !== 'authenticated' && r.access !== undefined && r.method !== 'HEAD',
    );
    expect(guarded.length).toBeGreaterThan(5);
    for (const r of guarded) {
      const lacking = ROLES.filter((role) => !holds(role, r.access!));
      // a route every role may call by default (the wallet checker needs payments or profile) is tested below
      if (!lacking.length) continue;
      // the first role without it, and the Brand when the Brand lacks it too (the least privileged tenant)
      for (const role of new Set([lacking[0], ...(lacking.includes('Brand') ? ['Brand' as const] : [])])) {
        const roleToken = await token(role);
        const [{ n: before }] = await t.deps.db.select({ n: count() }).from(activityLog);
        const res = await call(r, roleToken);
        expect(res.statusCode, `${key(r)} as ${role}`).toBe(403);
        const body = res.json();
        expect(Object.keys(body), key(r)).toEqual(['error']);
        expect(body.error, key(r)).toEqual([expect.any(String)]);
        const [row] = await t.deps.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1);
        const [{ n: after }] = await t.deps.db.select({ n: count() }).from(activityLog);
        expect(after, `${key(r)} writes one log row`).toBe(before + 1);
        expect(row).toMatchObject({
          outcome: 'denied',
          statusCode: 403,
          userEmail: `${roleSlug(role)}@obol.example`,
          requestId: res.headers['x-request-id'],
        });
      }
    }
  });

  it('answers 403 on every route with a permission to a role stripped of every permission', async () => {
    const guarded = apiRoutes().filter(
      (r) => r.access !== 'public' && r.access !== 'authenticated' && r.access !== undefined && r.method !== 'HEAD',
    );
    const reviewer = await token('Reviewer');
    const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Reviewer'));
    const granted = await t.deps.db.select().from(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    await t.deps.db.delete(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    try {
      for (const r of guarded) {
        const res = await call(r, reviewer);
        expect(res.statusCode, key(r)).toBe(403);
        expect(res.json(), key(r)).toEqual({ error: [expect.any(String)] });
      }
      // routes for any signed-in user still answer
      expect((await t.post('/api/auth-permission', {}, reviewer)).status).toBe(200);
    } finally {
      await t.deps.db.insert(rolePermissions).values(granted);
    }
  });

  it('follows an edited role matrix at once: a permission taken away is refused on the next call', async () => {
    const merchant = await token('Merchant');
    expect((await t.post('/api/users', {}, merchant)).status).toBe(200);
    const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Merchant'));
    await t.deps.db.delete(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    try {
      expect((await t.post('/api/users', {}, merchant)).status).toBe(403);
      const perms = await t.post('/api/auth-permission', {}, merchant);
      expect(perms.body.data.permission).toEqual([]);
    } finally {
      const all = await t.deps.db.select().from(permissions);
      const ids = new Map(all.map((p) => [p.name, p.id]));
      await t.deps.db
        .insert(rolePermissions)
        .values(DEFAULT_ROLE_PERMISSIONS.Merchant.map((p) => ({ roleId: role.id, permissionId: ids.get(p)! })));
    }
    expect((await t.post('/api/users', {}, merchant)).status).toBe(200);
  });

  it('holds a list read to the session check of its own request: taken permissions, deactivation, logout', async () => {
    const list = (tk: string) => t.post('/api/payout-transactions', { per_page: 10 }, tk);
    const merchant = await t.signIn('merchant@obol.example');
    expect((await list(merchant)).status).toBe(200);
    expect((await list(merchant)).status).toBe(200);
    const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Merchant'));
    const granted = await t.deps.db.select().from(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    await t.deps.db.delete(rolePermissions).where(eq(rolePermissions.roleId, role.id));
    try {
      const refused = await list(merchant);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: [MSG.forbidden] });
      expect((await list(merchant)).status).toBe(403);
    } finally {
      await t.deps.db.insert(rolePermissions).values(granted);
    }
    expect((await list(merchant)).status).toBe(200); // a permission given back counts at once too

    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'merchant@obol.example'));
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    try {
      const r = await list(merchant);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: [MSG.sessionExpired] });
    } finally {
      await t.deps.db.update(users).set({ isActive: user.isActive }).where(eq(users.id, user.id));
    }

    const other = await t.signIn('merchant@obol.example');
    expect((await list(other)).status).toBe(200);
    expect((await t.post('/api/logout', {}, other)).status).toBe(200);
    const out = await list(other);
    expect(out.status).toBe(401);
    expect(out.body).toEqual({ error: [MSG.sessionExpired] });
  });
});

describe('the error envelope', () => {
  it('answers an invalid body with 400 naming each field', async () => {
    const r = await t.post('/api/login', { email: 'admin@obol.example', password: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ auth_type: [expect.any(String)] });
    expect(r.body.error).toEqual(r.body.fields.auth_type);
    const missing = await t.post('/api/login', {});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ email: [MSG.required], password: [MSG.required], auth_type: [MSG.required] });
    // present but wrong is not 'required': each keeps its own message
    const wrong = await t.post('/api/login', { email: 'admin@obol.example', password: 12345678, auth_type: 'sms' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.auth_type).toEqual(['auth_type must be email, authenticator, backup or passkey']);
    const nulls = await t.post('/api/login', { email: null, password: null, auth_type: null });
    expect(nulls.body.fields).toEqual({ email: [MSG.required], password: [MSG.required], auth_type: [MSG.required] });
  });

  it.each([
    ['truncated JSON', '{"email":'],
    ['not JSON at all', 'email=admin@obol.example'],
    ['a trailing comma', '{"email":"a@b.c",}'],
  ])('answers malformed JSON (%s) with a 400 in the envelope', async (_name, payload) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({ error: ['The request body is not valid JSON'] });
    expect(r.headers['x-request-id']).toBeTruthy();
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"admin@obol.example"'],
    ['a number', '42'],
  ])('answers a JSON body that is %s with a 400', async (_name, payload) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.length).toBeGreaterThan(0);
    expect(r.json().fields).toBeTruthy();
  });

  it('answers an empty or non-JSON body with a 400 or 415 in the envelope, never a 500', async () => {
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: [expect.any(String)] });
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ error: ['The request body must be JSON'] });
  });

  it('answers an unknown API route with a JSON 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const r = await t.app.inject({ method, url: '/api/no-such-thing?x=1' });
      expect(r.statusCode, method).toBe(404);
      expect(r.headers['content-type']).toContain('application/json');
      expect(r.json()).toEqual({ error: [`No route ${method} /api/no-such-thing`] });
      expect(r.headers['x-request-id']).toBeTruthy();
    }
    // a known path with the wrong method is no route either
    const wrongMethod = await t.app.inject({ method: 'GET', url: '/api/users' });
    expect(wrongMethod.statusCode).toBe(404);
  });

  it('answers an unexpected error with a 500, a request id and no internals', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/test-boom' });
    expect(r.statusCode).toBe(500);
    const body = r.json();
    expect(body).toEqual({ error: [MSG.somethingWrong], request_id: expect.any(String) });
    expect(body.request_id).toBe(r.headers['x-request-id']);
    for (const leak of ['secret', 'hunter2', 'db.ts', 'stack', 'Error']) expect(r.body).not.toContain(leak);
  });

  it('puts an x-request-id header on every answer, unique per request, keeping a well-formed one the client sent', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'POST', url: '/api/auth-permission' }),
      t.app.inject({ method: 'POST', url: '/api/nowhere' }),
      t.app.inject({ method: 'POST', url: '/api/login', payload: {} }),
    ]);
    const ids = answers.map((a) => a.headers['x-request-id']);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 400]);
    for (const id of ids) expect(id).toMatch(/^[\w-]{8,64}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const given = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'client-abc-12345' },
    });
    expect(given.headers['x-request-id']).toBe('client-abc-12345');
    // an ill-formed one is replaced by one of ours
    for (const bad of ['short', 'has spaces; and=more', 'x'.repeat(65)]) {
      const r = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(r.headers['x-request-id']).not.toBe(bad);
      expect(r.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    }
  });
});

describe('GET /api/health', () => {
  it('answers ok with the kind of the engine under test and that it is reachable', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok', database: { kind: engine, reachable: true } });
  });
});
