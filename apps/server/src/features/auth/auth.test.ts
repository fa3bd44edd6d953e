import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sign-in with an e-mailed code', () => {
  it('answers a challenge, mails a 6-digit code and exchanges it for a session', async () => {
    const login = await t.post('/api/login', {
      email: 'admin@obol.example',
      password: 'Test@pass1',
      auth_type: 'email',
    });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['auth_type', 'challenge_token', 'message']);
    const mail = t.lastMailTo('admin@obol.example')!;
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.code);
    const verify = await t.post('/api/verify-code', { challenge_token: login.body.challenge_token, code: mail.code });
    expect(verify.status).toBe(200);
    expect(verify.body.user).toMatchObject({ email: 'admin@obol.example', role: 'Admin' });
    expect(verify.body.permission).toContain('User can view users');
    expect(verify.body).toHaveProperty('account');
    expect(verify.body).toHaveProperty('batch');
    const perms = await t.post('/api/auth-permission', {}, verify.body.accessToken);
    expect(perms.status).toBe(200);
    expect(perms.body.status).toBe(true);
    expect(perms.body.data.permission).toEqual(verify.body.permission);
  });
});
