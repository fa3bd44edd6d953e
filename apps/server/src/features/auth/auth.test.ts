import { DEFAULT_ROLE_PERMISSIONS, MSG } from '@obol/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret, newTotpSecret, sha256, totpAt, totpStep } from '../../platform/crypto.ts';
import { startTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness.ts';
import { users } from '../users/tables.ts';
import { authFailures, backupCodes, oneTimeCodes, sessions } from './tables.ts';

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
    .then((r) => ({ status: r.statusCode, body: r.json(), text: r.body }));

const verify = (challenge_token: string, code: string) => t.post('/api/verify-code', { challenge_token, code });

async function challengeFor(email: string) {
  const r = await login(email);
  expect(r.status).toBe(200);
  return { token: r.body.challenge_token as string, code: t.lastMailTo(email)!.code! };
}

const otherCode = (code: string) => (code === '000000' ? '111111' : '000000');

const userId = async (email: string) =>
  (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;

const sessionCount = async (email: string) =>
  (
    await t.deps.db
      .select({ n: count() })
      .from(sessions)
      .where(eq(sessions.userId, await userId(email)))
  )[0].n;

const codeRows = async (email: string) =>
  (
    await t.deps.db
      .select({ n: count() })
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.userId, await userId(email)))
  )[0].n;

const challengeRow = async (token: string) =>
  (
    await t.deps.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.challengeHash, sha256(token)))
  )[0];

/** clears rate-limit history so one test's failures do not lock the next */
const forgetFailures = () => t.deps.db.delete(authFailures);

describe('POST /api/login', () => {
  it('answers a challenge and nothing about the account, and mails a 6-digit code valid 10 minutes, hashed at rest', async () => {
    await forgetFailures();
    const r = await login('admin@obol.example');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['auth_type', 'challenge_token', 'message']);
    expect(r.body.auth_type).toBe('email');
    expect(r.body.challenge_token).toMatch(/^[\w-]{40,}$/);
    for (const secret of ['Ada Admin', 'Admin"', '"id"', 'role', 'permission']) expect(r.text).not.toContain(secret);

    const mail = t.lastMailTo('admin@obol.example')!;
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.code);
    expect(mail.text).toContain('10 minutes');

    const row = await challengeRow(r.body.challenge_token);
    expect(row).toMatchObject({ purpose: 'login', method: 'email', attempts: 0, maxAttempts: 5, usedAt: null });
    // neither the code nor the challenge token is stored as given, nor as a bare hash of the code
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(mail.code);
    expect(stored).not.toContain(r.body.challenge_token);
    expect(row.codeHash).not.toBe(sha256(mail.code!));
    const ttl = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(ttl).toBeGreaterThan(10 * 60_000 - 5_000);
    expect(ttl).toBeLessThan(10 * 60_000 + 5_000);

    // every sign-in gets its own challenge and code
    const again = await login('admin@obol.example');
    expect(again.body.challenge_token).not.toBe(r.body.challenge_token);
  });

  it('takes the e-mail in any case', async () => {
    await forgetFailures();
    const r = await login('  Admin@OBOL.example ');
    expect(r.status).toBe(200);
    expect(t.lastMailTo('admin@obol.example')!.code).toMatch(/^\d{6}$/);
  });

  it('gives the same status and body for a wrong e-mail and a wrong password, and mails nothing', async () => {
    await forgetFailures();
    const mails = t.mails.length;
    const codes = await codeRows('admin@obol.example');
    const a = await login('nobody@obol.example', DEMO_PASSWORD);
    const b = await login('admin@obol.example', 'Wrong@pass1');
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.text).toBe(b.text);
    expect(a.body).toEqual({ error: [MSG.invalidCredentials] });
    expect(t.mails.length).toBe(mails);
    expect(await codeRows('admin@obol.example')).toBe(codes);
  });

  it('does not let an inactive user sign in, nor keep using an open session', async () => {
    await forgetFailures();
    const open = await t.signIn('reviewer@obol.example');
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer@obol.example'));
    try {
      const mails = t.mails.length;
      const codes = await codeRows('reviewer@obol.example');
      const r = await login('reviewer@obol.example');
      expect(r.status).toBe(403);
      expect(r.body.challenge_token).toBeUndefined();
      expect(r.body.error).toEqual([expect.any(String)]);
      expect(t.mails.length).toBe(mails);
      expect(await codeRows('reviewer@obol.example')).toBe(codes);
      expect((await t.post('/api/auth-permission', {}, open)).status).toBe(401);
    } finally {
      await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer@obol.example'));
    }
    await forgetFailures();
    expect((await login('reviewer@obol.example')).status).toBe(200);
  });

  it('refuses a user deactivated between the password and the code', async () => {
    await forgetFailures();
    const c = await challengeFor('reviewer@obol.example');
    const before = await sessionCount('reviewer@obol.example');
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer@obol.example'));
    try {
      const r = await verify(c.token, c.code);
      expect(r.status).toBe(403);
      expect(r.body.accessToken).toBeUndefined();
      expect(await sessionCount('reviewer@obol.example')).toBe(before);
    } finally {
      await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer@obol.example'));
    }
  });

  it('answers 429 after 5 failures on one account within 15 minutes, whatever the password, sending nothing', async () => {
    await forgetFailures();
    for (let i = 0; i < 5; i++) expect((await login('supervisor-a@obol.example', 'Wrong@pass1')).status).toBe(401);
    const mails = t.mails.length;
    const codes = await codeRows('supervisor-a@obol.example');
    const locked = await login('supervisor-a@obol.example');
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: [MSG.tooManyAttempts] });
    expect(t.mails.length).toBe(mails);
    expect(await codeRows('supervisor-a@obol.example')).toBe(codes);
    // another account from the same address is not affected
    expect((await login('supervisor-b@obol.example')).status).toBe(200);
    // failures older than 15 minutes no longer count
    await t.deps.db
      .update(authFailures)
      .set({ at: new Date(Date.now() - 16 * 60_000) })
      .where(eq(authFailures.email, 'supervisor-a@obol.example'));
    expect((await login('supervisor-a@obol.example')).status).toBe(200);
  });

  it('answers 429 after 20 failures from one address, whichever accounts they tried', async () => {
    await forgetFailures();
    for (let i = 0; i < 20; i++) {
      const r = await login(`nobody${i}@obol.example`, 'Wrong@pass1', 'email', '10.9.9.9');
      expect(r.status).toBe(401);
    }
    const mails = t.mails.length;
    const blocked = await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.9');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: [MSG.tooManyAttempts] });
    expect(t.mails.length).toBe(mails);
    expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.8')).status).toBe(200);
    await forgetFailures();
  });
});

describe('POST /api/verify-code', () => {
  it('exchanges the code for a random session token, stored hashed, with user, permission, account and batch', async () => {
    await forgetFailures();
    const c = await challengeFor('merchant@obol.example');
    const v = await verify(c.token, c.code);
    expect(v.status).toBe(200);
    for (const k of ['accessToken', 'user', 'permission', 'account', 'batch']) expect(v.body).toHaveProperty(k);
    expect(v.body.user).toMatchObject({ email: 'merchant@obol.example', role: 'Merchant', parent: null });
    expect([...v.body.permission].sort()).toEqual([...DEFAULT_ROLE_PERMISSIONS.Merchant].sort());
    expect(v.body.batch).toBeNull();
    expect(v.body.message).toEqual([MSG.loggedIn]);

    const token: string = v.body.accessToken;
    expect(token).toMatch(/^[\w-]{43,}$/);
    const [s] = await t.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    expect(s).toBeTruthy();
    expect(JSON.stringify(s)).not.toContain(token);
    expect(s.revokedAt).toBeNull();

    // a second sign-in gets a different token; both work
    const second = await t.signIn('merchant@obol.example');
    expect(second).not.toBe(token);
    for (const tk of [token, second]) {
      const p = await t.post('/api/auth-permission', {}, tk);
      expect(p.status).toBe(200);
      expect(p.body).toMatchObject({ status: true, data: { permission: v.body.permission } });
    }
    // the challenge is consumed
    expect((await challengeRow(c.token)).usedAt).not.toBeNull();
  });

  it('refuses a wrong code, then still takes the right one', async () => {
    await forgetFailures();
    const c = await challengeFor('finance@obol.example');
    const before = await sessionCount('finance@obol.example');
    const wrong = await verify(c.token, otherCode(c.code));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: [MSG.invalidCode] });
    expect(await sessionCount('finance@obol.example')).toBe(before);
    expect((await challengeRow(c.token)).attempts).toBe(1);
    expect((await verify(c.token, c.code)).status).toBe(200);
  });

  it('refuses an expired code, a reused code, an unknown challenge and a code mailed for another challenge', async () => {
    await forgetFailures();
    const used = await challengeFor('finance@obol.example');
    expect((await verify(used.token, used.code)).status).toBe(200);
    const afterFirst = await sessionCount('finance@obol.example');
    const reused = await verify(used.token, used.code);
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ error: [MSG.invalidCode] });

    const old = await challengeFor('finance@obol.example');
    await t.deps.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.challengeHash, sha256(old.token)));
    const expired = await verify(old.token, old.code);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: [MSG.invalidCode] });

    expect((await verify('no-such-challenge', '123456')).status).toBe(401);

    const a = await challengeFor('finance@obol.example');
    const b = await challengeFor('payment-ops@obol.example');
    if (a.code !== b.code) expect((await verify(a.token, b.code)).status).toBe(401);
    expect(await sessionCount('finance@obol.example')).toBe(afterFirst);
  });

  it('allows 5 tries on one challenge, then answers 429 even for the right code', async () => {
    await forgetFailures();
    const c = await challengeFor('payment-ops@obol.example');
    const before = await sessionCount('payment-ops@obol.example');
    for (let i = 0; i < 4; i++) expect((await verify(c.token, otherCode(c.code))).status).toBe(401);
    await forgetFailures(); // so that the account's lockout (tested apart) is not what answers 429 below
    expect((await verify(c.token, otherCode(c.code))).status).toBe(401);
    const sixth = await verify(c.token, c.code);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: [MSG.tooManyAttempts] });
    const row = await challengeRow(c.token);
    expect(row.attempts).toBe(5);
    expect(row.usedAt).toBeNull();
    expect(await sessionCount('payment-ops@obol.example')).toBe(before);
    await forgetFailures();
  });

  it('refuses even the right code while the account is locked out', async () => {
    await forgetFailures();
    const c = await challengeFor('accountant@obol.example');
    for (let i = 0; i < 5; i++) expect((await login('accountant@obol.example', 'Wrong@pass1')).status).toBe(401);
    const before = await sessionCount('accountant@obol.example');
    const r = await verify(c.token, c.code);
    expect(r.status).toBe(429);
    expect(r.body.accessToken).toBeUndefined();
    expect(await sessionCount('accountant@obol.example')).toBe(before);
    expect((await challengeRow(c.token)).usedAt).toBeNull();
    await forgetFailures();
  });
});

describe('verify-code under concurrent requests', () => {
  it('gives one session for one code, however many requests race with it', async () => {
    await forgetFailures();
    const c = await challengeFor('supervisor-b@obol.example');
    const before = await sessionCount('supervisor-b@obol.example');
    const answers = await Promise.all(Array.from({ length: 6 }, () => verify(c.token, c.code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    // the others are refused: the code is used (401), or the challenge's 5 tries are spent (429)
    for (const a of answers.filter((x) => x.status !== 200)) expect([401, 429]).toContain(a.status);
    expect(await sessionCount('supervisor-b@obol.example')).toBe(before + 1);
  });

  it('counts racing wrong guesses: never more than 5 on one challenge', async () => {
    await forgetFailures();
    const c = await challengeFor('supervisor-b@obol.example');
    const answers = await Promise.all(Array.from({ length: 12 }, () => verify(c.token, otherCode(c.code))));
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(5);
    for (const a of answers) expect([401, 429]).toContain(a.status);
    expect((await challengeRow(c.token)).attempts).toBeLessThanOrEqual(5);
    await forgetFailures();
    expect((await verify(c.token, c.code)).status).toBe(429);
    await forgetFailures();
  });
});

describe('sessions', () => {
  it('end on logout, and only the session logged out', async () => {
    await forgetFailures();
    const a = await t.signIn('accountant@obol.example');
    const other = await t.signIn('accountant@obol.example');
    const out = await t.post('/api/logout', {}, a);
    expect(out.status).toBe(200);
    expect(out.body.message).toEqual([expect.any(String)]);
    const after = await t.post('/api/auth-permission', {}, a);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: [MSG.sessionExpired] });
    expect((await t.post('/api/logout', {}, a)).status).toBe(401);
    const [s] = await t.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(a)));
    expect(s.revokedAt).not.toBeNull();
    expect((await t.post('/api/auth-permission', {}, other)).status).toBe(200);
    expect((await t.post('/api/logout', {})).status).toBe(401);
  });

  it('end after the idle time and at the absolute expiry', async () => {
    await forgetFailures();
    const b = await t.signIn('accountant@obol.example');
    await t.deps.db
      .update(sessions)
      .set({ idleExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256(b)));
    const idle = await t.post('/api/auth-permission', {}, b);
    expect(idle.status).toBe(401);
    expect(idle.body).toEqual({ error: [MSG.sessionExpired] });

    const c = await t.signIn('accountant@obol.example');
    // still idle-fresh, but past its absolute end
    await t.deps.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000), idleExpiresAt: new Date(Date.now() + 600_000) })
      .where(eq(sessions.tokenHash, sha256(c)));
    expect((await t.post('/api/auth-permission', {}, c)).status).toBe(401);
    // and being used does not bring it back
    expect((await t.post('/api/auth-permission', {}, c)).status).toBe(401);
  });

  it('answers auth-permission with {status, data: {permission}} for the caller', async () => {
    await forgetFailures();
    const brand = await t.signIn('brand@obol.example');
    const r = await t.post('/api/auth-permission', {}, brand);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(true);
    expect([...r.body.data.permission].sort()).toEqual([...DEFAULT_ROLE_PERMISSIONS.Brand].sort());
    expect(r.body.data.permission).not.toContain('User can view users');
  });
});

describe('the authenticator app', () => {
  const secret = newTotpSecret();
  beforeAll(async () => {
    await t.deps.db
      .update(users)
      .set({ totpSecretEnc: encryptSecret(t.config.secretsKey, secret), twoFaAsOtp: false, totpLastStep: null })
      .where(eq(users.email, 'manager@obol.example'));
  });

  it('signs in with a correct code, mailing nothing', async () => {
    await forgetFailures();
    const mails = t.mails.length;
    const first = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    expect(first.status).toBe(200);
    expect(first.body.auth_type).toBe('authenticator');
    expect(t.mails.length).toBe(mails);
    const ok = await verify(first.body.challenge_token, totpAt(secret, totpStep()));
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ email: 'manager@obol.example', two_fa_as_otp: false });
  });

  it('refuses a wrong code, a stale code and the same code twice', async () => {
    await forgetFailures();
    const before = await sessionCount('manager@obol.example');
    const c1 = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    const step = totpStep();
    expect((await verify(c1.body.challenge_token, otherCode(totpAt(secret, step)))).status).toBe(401);
    expect((await verify(c1.body.challenge_token, totpAt(secret, step - 10))).status).toBe(401);
    expect((await verify(c1.body.challenge_token, 'abcdef')).status).toBe(401);
    expect(await sessionCount('manager@obol.example')).toBe(before);

    // a fresh step, so this test does not depend on what the previous one used
    await t.deps.db.update(users).set({ totpLastStep: null }).where(eq(users.email, 'manager@obol.example'));
    const code = totpAt(secret, totpStep());
    expect((await verify(c1.body.challenge_token, code)).status).toBe(200);
    const c2 = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    const replay = await verify(c2.body.challenge_token, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: [MSG.invalidCode] });
    expect(await sessionCount('manager@obol.example')).toBe(before + 1);
  });

  it('refuses any code for a user without an authenticator', async () => {
    await forgetFailures();
    const c = await login('supervisor-b@obol.example', DEMO_PASSWORD, 'authenticator');
    expect(c.status).toBe(200);
    expect((await verify(c.body.challenge_token, totpAt(secret, totpStep()))).status).toBe(401);
  });

  it('does not take an e-mailed code for an authenticator challenge, nor the reverse', async () => {
    await forgetFailures();
    const mailed = await challengeFor('manager@obol.example');
    const app = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    expect((await verify(app.body.challenge_token, mailed.code)).status).toBe(401);
    await t.deps.db.update(users).set({ totpLastStep: null }).where(eq(users.email, 'manager@obol.example'));
    const totp = totpAt(secret, totpStep());
    if (totp !== mailed.code) expect((await verify(mailed.token, totp)).status).toBe(401);
  });
});

describe('backup codes', () => {
  const exportCodes = async (authToken: string, email: string) => {
    const file = await t.post('/api/export-backup-code', { email }, authToken);
    expect(file.status).toBe(200);
    return file;
  };
  const codesIn = (text: string) => text.split('\n').filter((l) => /^[A-Z0-9]{5}-[A-Z0-9]{5}$/.test(l));
  const backupLogin = async (email: string, code: string) => {
    const l = await login(email, DEMO_PASSWORD, 'backup');
    expect(l.status).toBe(200);
    return verify(l.body.challenge_token, code);
  };

  it('exports a text file of 10 codes, stored hashed; each signs in once', async () => {
    await forgetFailures();
    const token = await t.signIn('risk-ops@obol.example');
    const file = await exportCodes(token, 'risk-ops@obol.example');
    expect(file.headers['content-type']).toMatch(/^text\/plain/);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".+\.txt"$/);
    const codes = codesIn(file.text);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const rows = await t.deps.db
      .select()
      .from(backupCodes)
      .where(eq(backupCodes.userId, await userId('risk-ops@obol.example')));
    expect(rows).toHaveLength(10);
    for (const c of codes) {
      expect(JSON.stringify(rows)).not.toContain(c);
      expect(JSON.stringify(rows)).not.toContain(c.replace('-', ''));
    }

    const first = await backupLogin('risk-ops@obol.example', codes[0]);
    expect(first.status).toBe(200);
    expect(first.body.user.email).toBe('risk-ops@obol.example');
    const before = await sessionCount('risk-ops@obol.example');
    const reuse = await backupLogin('risk-ops@obol.example', codes[0]);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual({ error: [MSG.invalidCode] });
    expect(await sessionCount('risk-ops@obol.example')).toBe(before);
    // written without the dash, in lower case, is the same code
    expect((await backupLogin('risk-ops@obol.example', codes[1].replace('-', '').toLowerCase())).status).toBe(200);
    const [{ n: unused }] = await t.deps.db
      .select({ n: count() })
      .from(backupCodes)
      .where(and(eq(backupCodes.userId, await userId('risk-ops@obol.example')), isNull(backupCodes.usedAt)));
    expect(unused).toBe(8);
  });

  it("does not take another user's backup code, nor an e-mailed code as a backup code", async () => {
    await forgetFailures();
    const token = await t.signIn('payment-ops@obol.example');
    const codes = codesIn((await exportCodes(token, 'payment-ops@obol.example')).text);
    expect((await backupLogin('finance@obol.example', codes[0])).status).toBe(401);
    const mailed = await challengeFor('payment-ops@obol.example');
    expect((await backupLogin('payment-ops@obol.example', mailed.code)).status).toBe(401);
    // the code is still good for its owner
    expect((await backupLogin('payment-ops@obol.example', codes[0])).status).toBe(200);
  });

  it('lets one backup code sign in once, however many requests race with it', async () => {
    await forgetFailures();
    const token = await t.signIn('brand@obol.example');
    const [code] = codesIn((await exportCodes(token, 'brand@obol.example')).text);
    const challenges = await Promise.all(
      Array.from({ length: 4 }, () => login('brand@obol.example', DEMO_PASSWORD, 'backup')),
    );
    const before = await sessionCount('brand@obol.example');
    const answers = await Promise.all(challenges.map((c) => verify(c.body.challenge_token, code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await sessionCount('brand@obol.example')).toBe(before + 1);
    await forgetFailures();
  });

  it('voids the earlier codes when exporting again', async () => {
    await forgetFailures();
    const token = await t.signIn('finance@obol.example');
    const old = codesIn((await exportCodes(token, 'finance@obol.example')).text);
    const fresh = codesIn((await exportCodes(token, 'finance@obol.example')).text);
    expect(fresh).not.toEqual(old);
    expect((await backupLogin('finance@obol.example', old[0])).status).toBe(401);
    expect((await backupLogin('finance@obol.example', fresh[0])).status).toBe(200);
  });

  it("refuses to export codes for another e-mail (403), or without a session (401), changing nobody's codes", async () => {
    await forgetFailures();
    const token = await t.signIn('reviewer@obol.example');
    const snapshot = async () => (await t.deps.db.select().from(backupCodes).orderBy(backupCodes.id)).map((r) => r.id);
    const before = await snapshot();
    const other = await t.post('/api/export-backup-code', { email: 'admin@obol.example' }, token);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: [expect.any(String)] });
    expect(other.text).not.toMatch(/[A-Z0-9]{5}-[A-Z0-9]{5}/);
    const anonymous = await t.post('/api/export-backup-code', { email: 'reviewer@obol.example' });
    expect(anonymous.status).toBe(401);
    const invalid = await t.post('/api/export-backup-code', { email: 'not-an-email' }, token);
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields.email).toEqual([MSG.emailInvalid]);
    expect(await snapshot()).toEqual(before);
  });
});
