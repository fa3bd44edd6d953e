import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@obol/contract';
import { encryptSecret, newTotpSecret, sha256, totpAt, totpStep } from '../../platform/crypto.ts';
import { startTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness.ts';
import { activityLog } from '../activity/tables.ts';
import { users } from '../users/tables.ts';
import { authFailures, oneTimeCodes, sessions } from './tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password = DEMO_PASSWORD, auth_type = 'email', remoteAddress?: string) =>
  t.app
    .inject({ method: 'POST', url: '/api/login', payload: { email, password, auth_type }, remoteAddress })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

async function challengeFor(email: string) {
  const r = await login(email);
  expect(r.status).toBe(200);
  return { token: r.body.challenge_token as string, code: t.lastMailTo(email)!.code! };
}

/** clears rate-limit history so one test's failures do not lock the next */
const forgetFailures = () => t.deps.db.delete(authFailures);

describe('sign-in with an e-mailed code', () => {
  it('answers a challenge and nothing about the account, mails a 6-digit code, and exchanges it for a session', async () => {
    const r = await login('admin@obol.example');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['auth_type', 'challenge_token', 'message']);
    const mail = t.lastMailTo('admin@obol.example')!;
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.code);
    // the code is not stored as given
    const [row] = await t.deps.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.challengeHash, sha256(r.body.challenge_token)));
    expect(row.codeHash).not.toContain(mail.code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(10 * 60_000 + 1000);
    const v = await t.post('/api/verify-code', { challenge_token: r.body.challenge_token, code: mail.code });
    expect(v.status).toBe(200);
    expect(v.body.user).toMatchObject({ email: 'admin@obol.example', role: 'Admin' });
    expect(v.body.permission).toContain('User can view users');
    expect(v.body).toHaveProperty('account');
    expect(v.body).toHaveProperty('batch');
    // the token is random and stored hashed
    const [s] = await t.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(v.body.accessToken)));
    expect(s).toBeTruthy();
    expect(s.tokenHash).not.toBe(v.body.accessToken);
    const perms = await t.post('/api/auth-permission', {}, v.body.accessToken);
    expect(perms.status).toBe(200);
    expect(perms.body).toMatchObject({ status: true, data: { permission: v.body.permission } });
  });

  it('gives the same error for a wrong e-mail and a wrong password', async () => {
    await forgetFailures();
    const a = await login('nobody@obol.example', DEMO_PASSWORD);
    const b = await login('admin@obol.example', 'Wrong@pass1');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual(b.body);
    expect(a.body.error).toEqual([MSG.invalidCredentials]);
  });

  it('refuses bad input with the field named', async () => {
    const r = await t.post('/api/login', { email: 'not-an-email', password: '', auth_type: 'sms' });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.fields).sort()).toEqual(['auth_type', 'email', 'password']);
    expect(r.body.fields.email).toEqual([MSG.emailInvalid]);
  });

  it('does not let an inactive user sign in', async () => {
    await forgetFailures();
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer@obol.example'));
    const r = await login('reviewer@obol.example');
    expect(r.status).toBe(403);
    expect(r.body.challenge_token).toBeUndefined();
    await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer@obol.example'));
  });

  it('refuses a wrong code, an expired code and a reused code', async () => {
    await forgetFailures();
    const c1 = await challengeFor('finance@obol.example');
    const wrong = await t.post('/api/verify-code', {
      challenge_token: c1.token,
      code: c1.code === '000000' ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual([MSG.invalidCode]);
    const ok = await t.post('/api/verify-code', { challenge_token: c1.token, code: c1.code });
    expect(ok.status).toBe(200);
    const reused = await t.post('/api/verify-code', { challenge_token: c1.token, code: c1.code });
    expect(reused.status).toBe(401);

    const c2 = await challengeFor('finance@obol.example');
    await t.deps.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.challengeHash, sha256(c2.token)));
    const expired = await t.post('/api/verify-code', { challenge_token: c2.token, code: c2.code });
    expect(expired.status).toBe(401);
    const sessionsBefore = await t.deps.db.select().from(sessions);
    expect(sessionsBefore.filter((s) => s.userId === ok.body.user.id)).toHaveLength(1);
  });

  it('allows 5 tries of a code, then answers 429 even for the right code', async () => {
    await forgetFailures();
    const c = await challengeFor('payment-ops@obol.example');
    const bad = c.code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 4; i++)
      expect((await t.post('/api/verify-code', { challenge_token: c.token, code: bad })).status).toBe(401);
    await forgetFailures(); // the per-account limit is tested apart
    expect((await t.post('/api/verify-code', { challenge_token: c.token, code: bad })).status).toBe(401);
    const sixth = await t.post('/api/verify-code', { challenge_token: c.token, code: c.code });
    expect(sixth.status).toBe(429);
  });

  it('locks an account out after 5 failures, whatever the password', async () => {
    await forgetFailures();
    for (let i = 0; i < 5; i++) expect((await login('supervisor-a@obol.example', 'Wrong@pass1')).status).toBe(401);
    const mailsBefore = t.mails.length;
    const locked = await login('supervisor-a@obol.example');
    expect(locked.status).toBe(429);
    expect(locked.body.error).toEqual([MSG.tooManyAttempts]);
    // no code went out for the refused attempt
    expect(t.mails.length).toBe(mailsBefore);
    await forgetFailures();
    expect((await login('supervisor-a@obol.example')).status).toBe(200);
  });

  it('limits failures per address', async () => {
    await forgetFailures();
    for (let i = 0; i < 20; i++) await login(`nobody${i}@obol.example`, 'Wrong@pass1', 'email', '10.9.9.9');
    expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.9')).status).toBe(429);
    expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.8')).status).toBe(200);
    await forgetFailures();
  });
});

describe('sessions', () => {
  it('end on logout, on idle expiry and on absolute expiry', async () => {
    await forgetFailures();
    const a = await t.signIn('accountant@obol.example');
    expect((await t.post('/api/logout', {}, a)).status).toBe(200);
    expect((await t.post('/api/auth-permission', {}, a)).status).toBe(401);

    const b = await t.signIn('accountant@obol.example');
    await t.deps.db
      .update(sessions)
      .set({ idleExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(b)));
    const idle = await t.post('/api/auth-permission', {}, b);
    expect(idle.status).toBe(401);
    expect(idle.body.error).toEqual([MSG.sessionExpired]);

    const c = await t.signIn('accountant@obol.example');
    await t.deps.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(c)));
    expect((await t.post('/api/auth-permission', {}, c)).status).toBe(401);
    expect((await t.post('/api/auth-permission', {}, 'made-up-token')).status).toBe(401);
    expect((await t.post('/api/auth-permission', {})).status).toBe(401);
  });
});

describe('other second factors', () => {
  it('signs in with an authenticator code, once per code', async () => {
    await forgetFailures();
    const secret = newTotpSecret();
    await t.deps.db
      .update(users)
      .set({ totpSecretEnc: encryptSecret(t.config.secretsKey, secret), twoFaAsOtp: false, totpLastStep: null })
      .where(eq(users.email, 'manager@obol.example'));
    const first = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    expect(first.status).toBe(200);
    const code = totpAt(secret, totpStep());
    const wrong = await t.post('/api/verify-code', {
      challenge_token: first.body.challenge_token,
      code: code === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(401);
    const ok = await t.post('/api/verify-code', { challenge_token: first.body.challenge_token, code });
    expect(ok.status).toBe(200);
    expect(ok.body.user.two_fa_as_otp).toBe(false);
    const again = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    const replay = await t.post('/api/verify-code', { challenge_token: again.body.challenge_token, code });
    expect(replay.status).toBe(401);
  });

  it('signs in once with each exported backup code', async () => {
    await forgetFailures();
    const token = await t.signIn('risk-ops@obol.example');
    const other = await t.post('/api/export-backup-code', { email: 'admin@obol.example' }, token);
    expect(other.status).toBe(403);
    const file = await t.post('/api/export-backup-code', { email: 'risk-ops@obol.example' }, token);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    const codes = file.text.split('\n').filter((l) => /^[A-Z0-9]{5}-[A-Z0-9]{5}$/.test(l));
    expect(codes).toHaveLength(10);
    const l1 = await login('risk-ops@obol.example', DEMO_PASSWORD, 'backup');
    expect(
      (await t.post('/api/verify-code', { challenge_token: l1.body.challenge_token, code: codes[0] })).status,
    ).toBe(200);
    const l2 = await login('risk-ops@obol.example', DEMO_PASSWORD, 'backup');
    expect(
      (await t.post('/api/verify-code', { challenge_token: l2.body.challenge_token, code: codes[0] })).status,
    ).toBe(401);
    expect(
      (await t.post('/api/verify-code', { challenge_token: l2.body.challenge_token, code: codes[1].toLowerCase() }))
        .status,
    ).toBe(200);
  });
});

describe('passwords', () => {
  it('set a new one through a single-use link; the same answer whatever the e-mail', async () => {
    await forgetFailures();
    const unknown = await t.post('/api/forgot-password', { email: 'nobody@obol.example' });
    const known = await t.post('/api/forgot-password', { email: 'supervisor-b@obol.example' });
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const mail = t.lastMailTo('supervisor-b@obol.example')!;
    const m = /\/new-password\/([^/\s]+)\/([^\s]+)/.exec(mail.text)!;
    const token = decodeURIComponent(m[1]);
    const email = decodeURIComponent(m[2]);
    expect(email).toBe('supervisor-b@obol.example');
    const open = await t.signIn('supervisor-b@obol.example');
    expect((await t.post('/api/check-link-expiry', { token, email })).status).toBe(200);
    expect((await t.post('/api/check-link-expiry', { token: 'nope', email })).status).toBe(400);
    const weak = await t.post('/api/set-password', { token, email, password: 'short', password_confirmation: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.fields.password).toContain(MSG.passwordMin);
    const ok = await t.post('/api/set-password', {
      token,
      email,
      password: 'New@pass99',
      password_confirmation: 'New@pass99',
    });
    expect(ok.status).toBe(200);
    expect(
      (await t.post('/api/set-password', { token, email, password: 'New@pass98', password_confirmation: 'New@pass98' }))
        .status,
    ).toBe(400);
    expect((await t.post('/api/check-link-expiry', { token, email })).status).toBe(400);
    // open sessions end; the new password signs in and the old one does not
    expect((await t.post('/api/auth-permission', {}, open)).status).toBe(401);
    expect((await login('supervisor-b@obol.example', DEMO_PASSWORD)).status).toBe(401);
    await forgetFailures();
    expect((await login('supervisor-b@obol.example', 'New@pass99')).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    await t.post('/api/forgot-password', { email: '2d-admin@obol.example' });
    const m = /\/new-password\/([^/\s]+)\//.exec(t.lastMailTo('2d-admin@obol.example')!.text)!;
    await t.deps.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(oneTimeCodes.purpose, 'password_reset'));
    const r = await t.post('/api/check-link-expiry', {
      token: decodeURIComponent(m[1]),
      email: '2d-admin@obol.example',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual([MSG.linkExpired]);
  });

  it.each([
    ['', MSG.required],
    ['Ab1!', MSG.passwordMin],
    ['Abcdefg!', MSG.passwordNumber],
    ['1234567!', MSG.passwordAlphabet],
    ['Abcdefg1', MSG.passwordSpecial],
  ])('change-password refuses %j with %s', async (password, message) => {
    await forgetFailures();
    const token = await t.signIn('brand2@obol.example');
    const r = await t.post(
      '/api/change-password',
      { current_password: DEMO_PASSWORD, password, password_confirmation: password },
      token,
    );
    expect(r.status).toBe(400);
    expect(r.body.fields.password).toContain(message);
  });

  it('change-password checks the current password and the confirmation, then changes it', async () => {
    await forgetFailures();
    const token = await t.signIn('merchant2@obol.example');
    const wrong = await t.post(
      '/api/change-password',
      { current_password: 'Wrong@pass1', password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      token,
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields.current_password).toEqual([MSG.incorrectPassword]);
    const mismatch = await t.post(
      '/api/change-password',
      { current_password: DEMO_PASSWORD, password: 'Next@pass1', password_confirmation: 'Next@pass2' },
      token,
    );
    expect(mismatch.body.fields.password_confirmation).toEqual([MSG.passwordMismatch]);
    const ok = await t.post(
      '/api/change-password',
      { current_password: DEMO_PASSWORD, password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      token,
    );
    expect(ok.status).toBe(200);
    expect((await t.post('/api/auth-permission', {}, token)).status).toBe(200);
    expect((await login('merchant2@obol.example', 'Next@pass1')).status).toBe(200);
  });
});

describe('the activity log', () => {
  it('records sign-ins, failed sign-ins and refusals with who, outcome, status, address and request id', async () => {
    await forgetFailures();
    await login('admin@obol.example', 'Wrong@pass1');
    const token = await t.signIn('brand@obol.example');
    const refused = await t.post('/api/users', {}, token);
    expect(refused.status).toBe(403);
    const rows = await t.deps.db
      .select()
      .from(activityLog)
      .orderBy(sql`${activityLog.id} desc`)
      .limit(20);
    const failed = rows.find(
      (r) => r.action === 'auth.login' && r.outcome === 'failure' && r.userEmail === 'admin@obol.example',
    );
    expect(failed).toMatchObject({ statusCode: 401, ip: '127.0.0.1' });
    expect(failed!.requestId).toBeTruthy();
    expect(
      rows.find(
        (r) => r.action === 'auth.verify-code' && r.outcome === 'success' && r.userEmail === 'brand@obol.example',
      ),
    ).toBeTruthy();
    const denied = rows.find((r) => r.outcome === 'denied' && r.userEmail === 'brand@obol.example');
    expect(denied).toMatchObject({ statusCode: 403 });
    expect(denied!.detail).toContain('User can view users');
    await t.post('/api/logout', {}, token);
    const [last] = await t.deps.db
      .select()
      .from(activityLog)
      .orderBy(sql`${activityLog.id} desc`)
      .limit(1);
    expect(last).toMatchObject({ action: 'auth.logout', outcome: 'success', userEmail: 'brand@obol.example' });
  });

  it('is never updated or deleted', async () => {
    await expect(t.deps.db.update(activityLog).set({ action: 'x' })).rejects.toThrow();
    await expect(t.deps.db.delete(activityLog)).rejects.toThrow();
  });
});
