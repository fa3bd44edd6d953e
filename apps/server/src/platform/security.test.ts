import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { activityLog } from './schema.ts';

let t: TestApp; // defaults: no trusted proxy
let p: TestApp; // behind a proxy in 10.0.0.0/8
beforeAll(async () => {
  t = await startTestApp();
  p = await startTestApp({ TRUST_PROXY: '10.0.0.0/8, ::1' });
});
afterAll(async () => {
  await t?.close();
  await p?.close();
});

describe('TRUST_PROXY', () => {
  /** a failed sign-in through a proxy: the address the activity log records for it */
  async function addressOf(app: TestApp, remoteAddress: string) {
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
    return row.ip;
  }

  it('unset: X-Forwarded-For is ignored, the connecting address counts', async () => {
    expect(t.config.trustProxy).toBe(false);
    expect(await addressOf(t, '10.1.2.3')).toBe('10.1.2.3');
  });

  it('set: X-Forwarded-For is honoured from a trusted proxy, and only from one', async () => {
    expect(await addressOf(p, '10.1.2.3')).toBe('203.0.113.9');
    expect(await addressOf(p, '192.0.2.50')).toBe('192.0.2.50');
  });
});
