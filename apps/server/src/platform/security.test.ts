import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { CONTENT_SECURITY_POLICY, STRICT_TRANSPORT_SECURITY } from './headers.ts';
import { redactUrl } from './logging.ts';
import { activityLog } from '../schema.ts';

/** a web app folder like apps/web/dist: an index.html loading one script file */
const webDist = mkdtempSync(path.join(tmpdir(), 'obol-web-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
);
writeFileSync(path.join(webDist, 'assets/app.js'), 'console.log("obol")\n');

/** every log line of an app, parsed */
function capture() {
  const lines: Record<string, any>[] = [];
  return {
    lines,
    text: () => lines.map((l) => JSON.stringify(l)).join('\n'),
    stream: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, any>) },
  };
}

const plain = capture();
const proxied = capture();
let t: TestApp; // defaults: plain http, no trusted proxy
let p: TestApp; // PUBLIC_URL https, behind a proxy in 10.0.0.0/8
beforeAll(async () => {
  t = await startTestApp(
    { LOG_LEVEL: 'info' },
    {
      webDist,
      logStream: plain.stream,
      listen: true,
      beforeReady: (app) => {
        app.post('/api/test-boom', async () => {
          throw new Error('boom');
        });
        app.get('/api/test-log-headers', async (req) => {
          req.log.info({ headers: req.headers }, 'headers as received');
          return {};
        });
      },
    },
  );
  p = await startTestApp(
    { LOG_LEVEL: 'info', TRUST_PROXY: '10.0.0.0/8, ::1', PUBLIC_URL: 'https://obol.example' },
    { webDist, logStream: proxied.stream },
  );
});
afterAll(async () => {
  await t?.close();
  await p?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const EXPECTED = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const accessControl = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((h) => h.toLowerCase().startsWith('access-control-'));

describe('security headers', () => {
  const samples = [
    { what: 'API', method: 'GET', url: '/api/health', status: 200 },
    { what: 'API with a query', method: 'GET', url: '/api/health?x=1', status: 200 },
    { what: 'invalid input', method: 'POST', url: '/api/login', payload: {}, status: 400 },
    { what: 'body not JSON', method: 'POST', url: '/api/login', payload: '{', json: true, status: 400 },
    { what: 'unauthenticated', method: 'POST', url: '/api/auth-permission', payload: {}, status: 401 },
    { what: 'unexpected error', method: 'POST', url: '/api/test-boom', payload: {}, status: 500 },
    { what: 'API 404', method: 'GET', url: '/api/no-such-route', status: 404 },
    { what: 'non-GET 404', method: 'DELETE', url: '/signin', status: 404 },
    { what: 'malformed path parameter', method: 'GET', url: '/api/download-file/%zz', status: 400 },
    { what: 'index.html', method: 'GET', url: '/', status: 200, type: /text\/html/ },
    { what: 'web app file', method: 'GET', url: '/assets/app.js', status: 200, type: /javascript/ },
    { what: 'index.html fallback', method: 'GET', url: '/payments/batches', status: 200, type: /text\/html/ },
    { what: 'password link', method: 'GET', url: '/new-password/tok/a%40b.c', status: 200, type: /text\/html/ },
  ] as const;

  for (const s of samples) {
    it(`are on every answer: ${s.what} (${s.method} ${s.url} -> ${s.status})`, async () => {
      const res = await t.app.inject({
        method: s.method,
        url: s.url,
        ...('payload' in s ? { payload: s.payload } : {}),
        ...('json' in s ? { headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(res.statusCode).toBe(s.status);
      expect(res.headers).toMatchObject(EXPECTED);
      expect(res.headers['strict-transport-security']).toBeUndefined();
      if ('type' in s) expect(String(res.headers['content-type'])).toMatch(s.type);
    });
  }

  it('are on every declared route, whatever it answers', async () => {
    const routes = t.routes.filter((r) => r.method !== 'HEAD' && !r.url.includes('*'));
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method as 'GET' | 'POST',
        url: r.url.replace(/:\w+/g, '1'),
        ...(r.method === 'GET' ? {} : { payload: {} }),
        headers: { origin: 'https://evil.example' },
      });
      expect(res.headers, `${r.method} ${r.url}`).toMatchObject(EXPECTED);
      expect(accessControl(res.headers), `${r.method} ${r.url}`).toEqual([]);
    }
  });

  it('keep every JSON answer of the API out of every cache, and leave the web files their own caching', async () => {
    // (the API document, public and the same for everyone, is revalidated instead: apidocs.ts)
    const routes = t.routes.filter(
      (r) => r.method !== 'HEAD' && !r.url.includes('*') && r.url.startsWith('/api/') && r.url !== '/api/openapi.json',
    );
    let json = 0;
    for (const r of routes) {
      const res = await t.app.inject({
        method: r.method as 'GET' | 'POST',
        url: r.url.replace(/:\w+/g, '1'),
        ...(r.method === 'GET' ? {} : { payload: {} }),
      });
      if (!String(res.headers['content-type']).startsWith('application/json')) continue;
      json++;
      expect(res.headers['cache-control'], `${r.method} ${r.url} -> ${res.statusCode}`).toBe('no-store');
    }
    expect(json).toBeGreaterThan(100);
    // a signed-in answer with a balance, an error, an unknown API path
    const token = await t.signIn('admin@obol.example');
    const balance = await t.app.inject({
      method: 'POST',
      url: '/api/login-user-account',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(balance.statusCode).toBe(200);
    expect(balance.headers['cache-control']).toBe('no-store');
    for (const url of ['/api/no-such-route', '/api/download-file/%zz'])
      expect((await t.app.inject({ url })).headers['cache-control'], url).toBe('no-store');
    expect((await t.app.inject({ url: '/assets/app.js' })).headers['cache-control']).toMatch(/immutable/);
    expect((await t.app.inject({ url: '/' })).headers['cache-control']).not.toMatch(/no-store/);
  });

  it('reach a browser over a real connection, for the page and its script', async () => {
    for (const url of ['/', '/assets/app.js', '/signin', '/api/health']) {
      const res = await fetch(`${t.address}${url}`);
      expect(res.status, url).toBe(200);
      for (const [name, value] of Object.entries(EXPECTED)) expect(res.headers.get(name), `${url} ${name}`).toBe(value);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('include Strict-Transport-Security only when PUBLIC_URL is https', async () => {
    for (const url of ['/api/health', '/', '/api/no-such-route']) {
      const res = await p.app.inject({ method: 'GET', url });
      expect(res.headers).toMatchObject(EXPECTED);
      expect(res.headers['strict-transport-security'], url).toBe(STRICT_TRANSPORT_SECURITY);
    }
  });
});

describe('cross-origin requests', () => {
  it('get no permission from a preflight', async () => {
    for (const url of ['/api/login', '/api/auth-permission', '/api/health', '/']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode, url).toBe(404);
      expect(accessControl(res.headers), url).toEqual([]);
      expect(res.headers).toMatchObject(EXPECTED);
    }
  });

  it('get no Access-Control-Allow-* headers on an answer', async () => {
    const token = await t.signIn('admin@obol.example');
    for (const [method, url, auth] of [
      ['GET', '/api/health', undefined],
      ['POST', '/api/auth-permission', token],
      ['POST', '/api/login', undefined],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        ...(method === 'POST' ? { payload: {} } : {}),
        headers: { origin: 'https://evil.example', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      });
      expect(accessControl(res.headers), url).toEqual([]);
    }
  });
});

describe('TRUST_PROXY', () => {
  /** a failed sign-in through a proxy: the address the activity log and the request log record for it */
  async function addressOf(app: TestApp, log: ReturnType<typeof capture>, remoteAddress: string) {
    const requestId = `trust-${Math.random().toString(36).slice(2, 12)}`;
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'nobody@obol.example', password: 'wrong-password', auth_type: 'email' },
      remoteAddress,
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': requestId },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    const [row] = await app.deps.db.select().from(activityLog).where(eq(activityLog.requestId, requestId));
    const logged = log.lines.find((l) => l.reqId === requestId && l.req)?.req.remoteAddress;
    return { audited: row.ip, logged };
  }

  it('unset: X-Forwarded-For is ignored, the connecting address counts', async () => {
    expect(t.config.trustProxy).toBe(false);
    expect(await addressOf(t, plain, '10.1.2.3')).toEqual({ audited: '10.1.2.3', logged: '10.1.2.3' });
  });

  it('set: X-Forwarded-For is honoured from a trusted proxy, and only from one', async () => {
    expect(await addressOf(p, proxied, '10.1.2.3')).toEqual({ audited: '203.0.113.9', logged: '203.0.113.9' });
    expect(await addressOf(p, proxied, '192.0.2.50')).toEqual({ audited: '192.0.2.50', logged: '192.0.2.50' });
  });
});

describe('the request log', () => {
  it('records method, redacted url, request id and remote address', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'log-shape-0001' } });
    const line = plain.lines.find((l) => l.reqId === 'log-shape-0001' && l.req);
    // (and its remote port, which an injected request has none of)
    expect(line?.req).toEqual({ id: 'log-shape-0001', method: 'GET', url: '/api/health', remoteAddress: '127.0.0.1' });
    expect(plain.lines.find((l) => l.reqId === 'log-shape-0001' && l.res)?.res).toEqual({ statusCode: 200 });
  });

  it('never holds the token of a password link opened in the browser', async () => {
    const email = 'accountant@obol.example';
    expect((await t.post('/api/forgot-password', { email })).status).toBe(200);
    const link = new URL(/https?:\/\/\S+/.exec(t.lastMailTo(email)!.text)![0]);
    const [, , token] = link.pathname.split('/');
    expect(token.length).toBeGreaterThan(16);
    const res = await t.app.inject({
      method: 'GET',
      url: link.pathname,
      headers: { 'x-request-id': 'reset-link-0001' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const lines = plain.lines.filter((l) => l.reqId === 'reset-link-0001');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.find((l) => l.req)?.req.url).toBe('/new-password/[redacted]');
    for (const l of lines) expect(JSON.stringify(l)).not.toContain(encodeURIComponent(email));
    expect(plain.text()).not.toContain(token);
    expect(plain.text()).not.toContain(decodeURIComponent(token));
  });

  it('never holds a query string value', async () => {
    await t.app.inject({
      method: 'GET',
      url: '/api/health?token=s3cr3t-query-value&code=918273&flag',
      headers: { 'x-request-id': 'query-0000001' },
    });
    expect(plain.lines.find((l) => l.reqId === 'query-0000001' && l.req)?.req.url).toBe(
      '/api/health?token=[redacted]&code=[redacted]&[redacted]',
    );
    expect(plain.text()).not.toContain('s3cr3t-query-value');
    expect(plain.text()).not.toContain('918273');
  });

  it('never holds an authorization header or a cookie', async () => {
    const token = await t.signIn('admin@obol.example');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/test-log-headers',
      headers: {
        authorization: `Bearer ${token}`,
        cookie: 'session=cookie-secret-value',
        'x-request-id': 'headers-0000001',
      },
    });
    expect(res.statusCode).toBe(200);
    const line = plain.lines.find((l) => l.reqId === 'headers-0000001' && l.msg === 'headers as received');
    expect(line?.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]' });
    await t.post('/api/auth-permission', {}, token);
    expect(plain.text()).not.toContain(token);
    expect(plain.text()).not.toContain('cookie-secret-value');
  });
});

describe('redactUrl', () => {
  it('keeps ordinary paths and hides secret ones and query values', () => {
    expect(redactUrl('/api/payments')).toBe('/api/payments');
    expect(redactUrl('/new-password')).toBe('/new-password');
    expect(redactUrl('/new-password/abc/me%40x.io')).toBe('/new-password/[redacted]');
    expect(redactUrl('/NEW-PASSWORD/abc/me%40x.io')).toBe('/NEW-PASSWORD/[redacted]');
    expect(redactUrl('//new-password//abc/x')).toBe('//new-password/[redacted]');
    expect(redactUrl('/new%2Dpassword/abc/x')).toBe('/new%2Dpassword/[redacted]');
    expect(redactUrl('/new-password/abc/x?next=/y')).toBe('/new-password/[redacted]?next=[redacted]');
    expect(redactUrl('/x?a=1&&b')).toBe('/x?a=[redacted]&[redacted]');
    expect(redactUrl('/x?')).toBe('/x?');
  });
});
