import { DEFAULT_ROLE_PERMISSIONS, MSG, tryAgainIn } from '@obol/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret, newTotpSecret, sha256, totpAt, totpStep } from '../../platform/crypto.ts';
import { startTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness.ts';
import { users } from '../users/tables.ts';
import { rowsOf } from '../../platform/db.ts';
import { backupCodes, loginThrottle, oneTimeCodes, sessions } from './tables.ts';
import { rateLimits } from '../../platform/tables.ts';
import { delayAfter } from './throttle.ts';

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
    .then((r) => ({ status: r.statusCode, body: r.json(), text: r.body, headers: r.headers }));

const verify = (challenge_token: string, code: string, remoteAddress?: string) =>
  t.app
    .inject({ method: 'POST', url: '/api/verify-code', payload: { challenge_token, code }, remoteAddress })
    .then((r) => ({ status: r.statusCode, body: r.json(), text: r.body, headers: r.headers }));

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

/** clears every sign-in counter so one test's attempts do not delay the next */
const forgetFailures = async () => {
  await t.deps.db.delete(loginThrottle);
  await t.deps.db.delete(rateLimits);
};

/** lets the account's current delay pass, as if the caller had waited */
const waitOut = (email: string) =>
  t.deps.db
    .update(loginThrottle)
    .set({ nextAttemptAt: sql`now() - interval '1 second'` })
    .where(eq(loginThrottle.email, email));

const throttleOf = async (email: string) =>
  rowsOf<{ attempts: number; delay: number }>(
    await t.deps.db.execute(
      sql`SELECT attempts, extract(epoch FROM next_attempt_at - updated_at)::float8 AS delay FROM login_throttle WHERE email = ${email}`,
    ),
  )[0];

/** a 429 that says when to retry, in its message and its Retry-After header */
function expectRetryLater(r: { status: number; body: unknown; headers: Record<string, unknown> }, atMost: number) {
  expect(r.status).toBe(429);
  const wait = Number(r.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(atMost);
  expect(r.body).toEqual({ error: [tryAgainIn(wait)] });
  return wait;
}

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

  it('lets 5 attempts through on an account, then makes each next one wait 1 s, 2 s, 4 s ... up to 60 s', async () => {
    await forgetFailures();
    const email = 'supervisor-a@obol.example';
    for (let i = 0; i < 5; i++) expect((await login(email, 'Wrong@pass1')).status).toBe(401);
    expect(await throttleOf(email)).toMatchObject({ attempts: 5 });
    const delays = [Math.round((await throttleOf(email)).delay)];
    // each attempt once the delay has passed doubles the next delay, up to a minute
    for (let attempts = 6; attempts <= 12; attempts++) {
      await waitOut(email);
      expect((await login(email, 'Wrong@pass1')).status).toBe(401);
      const row = await throttleOf(email);
      expect(row.attempts).toBe(attempts);
      delays.push(Math.round(row.delay));
      // (only where the delay is long enough that a slow machine cannot outlast it)
      if (row.delay >= 8) expectRetryLater(await login(email, 'Wrong@pass1'), Math.round(row.delay));
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(delays).toEqual([5, 6, 7, 8, 9, 10, 11, 12].map((n) => delayAfter(n, t.config.limits.account)));
    expect((await throttleOf(email)).attempts).toBe(12);

    // too early, even with the right password: 429 saying when, and nothing is checked, counted or sent
    const mails = t.mails.length;
    const codes = await codeRows(email);
    expectRetryLater(await login(email), 60);
    expect(t.mails.length).toBe(mails);
    expect(await codeRows(email)).toBe(codes);
    expect((await throttleOf(email)).attempts).toBe(12);
    // another account from the same address is not affected
    expect((await login('supervisor-b@obol.example')).status).toBe(200);
    // once the delay has passed, the right password is taken, and a completed sign-in starts the account over
    await waitOut(email);
    const ok = await login(email);
    expect(ok.status).toBe(200);
    expect((await verify(ok.body.challenge_token, t.lastMailTo(email)!.code!)).status).toBe(200);
    expect(await throttleOf(email)).toBeUndefined();
    // some twenty password checks (argon2id): seconds each on a loaded two-core machine
  }, 120_000);

  it('forgets the attempts of an account after 15 quiet minutes', async () => {
    await forgetFailures();
    const email = 'supervisor-a@obol.example';
    for (let i = 0; i < 7; i++) {
      await waitOut(email);
      expect((await login(email, 'Wrong@pass1')).status).toBe(401);
    }
    await t.deps.db
      .update(loginThrottle)
      .set({ updatedAt: sql`now() - interval '16 minutes'`, nextAttemptAt: sql`now() - interval '15 minutes'` })
      .where(eq(loginThrottle.email, email));
    expect((await login(email, 'Wrong@pass1')).status).toBe(401);
    const row = await throttleOf(email);
    expect(row.attempts).toBe(1);
    expect(row.delay).toBeLessThan(0.5);
  });

  it('answers an unknown e-mail and a known one alike when delayed, so the delay tells nothing', async () => {
    await forgetFailures();
    const emails = ['nobody@obol.example', 'reviewer@obol.example'];
    for (const email of emails)
      for (let i = 0; i < 5; i++) expect((await login(email, 'Wrong@pass1')).status).toBe(401);
    expect((await throttleOf(emails[0])).attempts).toBe((await throttleOf(emails[1])).attempts);
    // the same delay for both (a slow machine may have let the first second pass)
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() + interval '30 seconds'` })
      .where(sql`${loginThrottle.email} IN ('nobody@obol.example', 'reviewer@obol.example')`);
    const unknown = await login(emails[0], 'Wrong@pass1');
    const known = await login(emails[1], 'Wrong@pass1');
    expectRetryLater(unknown, 30);
    expectRetryLater(known, 30);
    const digitless = (text: string) => text.replace(/\d+/g, 'N');
    expect(digitless(known.text)).toBe(digitless(unknown.text));
  });

  it('checks at most the free attempts of 40 guesses sent at once, the right password among them', async () => {
    await forgetFailures();
    const email = 'finance@obol.example';
    const rule = t.config.limits.account;
    const { firstDelaySeconds, maxDelaySeconds } = rule;
    // a long first delay, so that however slowly the guesses arrive none of them comes after it
    Object.assign(rule, { firstDelaySeconds: 600, maxDelaySeconds: 600 });
    try {
      const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? DEMO_PASSWORD : `Wrong@pass${i}`));
      // from 40 addresses, so that only the account's counter is in play
      const answers = await Promise.all(guesses.map((p, i) => login(email, p, 'email', `10.40.0.${i + 1}`)));
      const checked = answers.filter((a) => a.status !== 429);
      expect(checked).toHaveLength(rule.freeAttempts);
      for (const a of checked) expect([200, 401]).toContain(a.status);
      for (const a of answers.filter((x) => x.status === 429)) expectRetryLater(a, 600);
      expect((await throttleOf(email)).attempts).toBe(rule.freeAttempts);
      // the right password, sent after the free attempts, waits like any other guess...
      expect(expectRetryLater(await login(email), 600)).toBeGreaterThan(590);
      // ...and is taken once the delay has passed
      await waitOut(email);
      expect((await login(email)).status).toBe(200);
    } finally {
      Object.assign(rule, { firstDelaySeconds, maxDelaySeconds });
    }
  });

  it('does not let wrong passwords from one address stop the account from another once the delay has passed', async () => {
    await forgetFailures();
    const email = 'payment-ops@obol.example';
    for (let i = 0; i < 10; i++) {
      await waitOut(email);
      expect((await login(email, 'Wrong@pass1', 'email', '10.6.6.6')).status).toBe(401);
    }
    // the owner, elsewhere, waits at most a minute: there is no lock anyone can set
    expectRetryLater(await login(email, DEMO_PASSWORD, 'email', '10.7.7.7'), 60);
    await waitOut(email);
    const ok = await login(email, DEMO_PASSWORD, 'email', '10.7.7.7');
    expect(ok.status).toBe(200);
    // and types the code at once: the first code of a challenge does not wait out the delay its password set
    expect((await throttleOf(email)).delay).toBeGreaterThan(30);
    const v = await verify(ok.body.challenge_token, t.lastMailTo(email)!.code!, '10.7.7.7');
    expect(v.status).toBe(200);
    expect(v.body.accessToken).toBeTruthy();
  });

  it('answers 429 after 20 failures from one address, whichever accounts they tried, to that address only', async () => {
    await forgetFailures();
    for (let i = 0; i < 20; i++) {
      const r = await login(`nobody${i}@obol.example`, 'Wrong@pass1', 'email', '10.9.9.9');
      expect(r.status).toBe(401);
    }
    const mails = t.mails.length;
    const blocked = await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.9');
    expect(expectRetryLater(blocked, 15 * 60)).toBeGreaterThan(14 * 60);
    expect(t.mails.length).toBe(mails);
    // nor did the refused attempt count against the account
    expect(await throttleOf('admin@obol.example')).toBeUndefined();
    expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.8')).status).toBe(200);
    // a window that ended starts over
    await t.deps.db
      .update(rateLimits)
      .set({ windowStart: sql`now() - interval '16 minutes'` })
      .where(eq(rateLimits.key, 'signInAddress:10.9.9.9'));
    expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.9.9.9')).status).toBe(200);
    await forgetFailures();
  }, 120_000);

  it('checks no more failures than the address limit when they are sent at once', async () => {
    await forgetFailures();
    const window = t.config.limits.signInAddress;
    const limit = window.limit;
    window.limit = 5; // the rule of the last test, with fewer password checks for a shared machine
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(`racer${i}@obol.example`, 'Wrong@pass1', 'email', '10.8.8.8')),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      for (const a of answers.filter((x) => x.status !== 401)) expectRetryLater(a, 15 * 60);
      expect((await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.8.8.7')).status).toBe(200);
    } finally {
      window.limit = limit;
    }
    await forgetFailures();
  });

  it('counts only failures against an address: right passwords give their slot back', async () => {
    await forgetFailures();
    const window = t.config.limits.signInAddress;
    const limit = window.limit;
    window.limit = 5;
    try {
      for (let i = 0; i < 4; i++)
        expect((await login(`nobody${i}@obol.example`, 'Wrong@pass1', 'email', '10.5.5.5')).status).toBe(401);
      for (const email of ['admin@obol.example', 'manager@obol.example', 'brand@obol.example'])
        expect((await login(email, DEMO_PASSWORD, 'email', '10.5.5.5')).status).toBe(200);
      expect((await login('nobody4@obol.example', 'Wrong@pass1', 'email', '10.5.5.5')).status).toBe(401);
      expectRetryLater(await login('admin@obol.example', DEMO_PASSWORD, 'email', '10.5.5.5'), 15 * 60);
    } finally {
      window.limit = limit;
    }
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
    const email = 'payment-ops@obol.example';
    const c = await challengeFor(email);
    const before = await sessionCount(email);
    for (let i = 0; i < 5; i++) {
      await waitOut(email); // so that the account's delay (tested apart) is not what answers below
      expect((await verify(c.token, otherCode(c.code))).status).toBe(401);
    }
    await waitOut(email);
    const sixth = await verify(c.token, c.code);
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: [MSG.tooManyAttempts] });
    const row = await challengeRow(c.token);
    expect(row.attempts).toBe(5);
    expect(row.usedAt).toBeNull();
    expect(await sessionCount(email)).toBe(before);
    await forgetFailures();
  });

  it('counts wrong codes as attempts of the account: past the free ones even the right code waits', async () => {
    await forgetFailures();
    const email = 'accountant@obol.example';
    const c = await challengeFor(email); // attempt 1: the password
    for (let i = 0; i < 4; i++) expect((await verify(c.token, otherCode(c.code))).status).toBe(401);
    expect((await throttleOf(email)).attempts).toBe(5);
    // a long delay, so that a slow machine cannot outlast it
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() + interval '20 seconds'` })
      .where(eq(loginThrottle.email, email));
    const before = await sessionCount(email);
    const r = await verify(c.token, c.code);
    expectRetryLater(r, 20);
    expect(await sessionCount(email)).toBe(before);
    // nothing was checked: the challenge keeps its last try and is not used
    expect(await challengeRow(c.token)).toMatchObject({ attempts: 4, usedAt: null });
    await waitOut(email);
    expect((await verify(c.token, c.code)).status).toBe(200);
    expect(await sessionCount(email)).toBe(before + 1);
    expect(await throttleOf(email)).toBeUndefined();
  });

  it('refuses even the right code while wrong passwords keep the account waiting', async () => {
    await forgetFailures();
    const email = 'accountant@obol.example';
    const c = await challengeFor(email);
    for (let i = 0; i < 4; i++) expect((await login(email, 'Wrong@pass1')).status).toBe(401);
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() + interval '20 seconds'` })
      .where(eq(loginThrottle.email, email));
    const before = await sessionCount(email);
    const r = await verify(c.token, c.code);
    expectRetryLater(r, 20);
    expect(r.body.accessToken).toBeUndefined();
    expect(await sessionCount(email)).toBe(before);
    expect((await challengeRow(c.token)).usedAt).toBeNull();
    await forgetFailures();
  });

  it('blocks second-factor failures per address too, that address only', async () => {
    await forgetFailures();
    const email = 'risk-ops@obol.example';
    const c = await challengeFor(email);
    await t.deps.db.insert(rateLimits).values({ key: 'signInAddress:10.11.11.11', windowStart: sql`now()`, count: 20 });
    expectRetryLater(await verify(c.token, c.code, '10.11.11.11'), 15 * 60);
    expect((await challengeRow(c.token)).attempts).toBe(0);
    expect((await verify(c.token, c.code, '10.11.11.12')).status).toBe(200);
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
    // the others are refused: the code is used (401), or the account's attempts are spent (429)
    for (const a of answers.filter((x) => x.status !== 200)) expect([401, 429]).toContain(a.status);
    expect(await sessionCount('supervisor-b@obol.example')).toBe(before + 1);
  });

  it('counts racing wrong guesses: never more than 5 on one challenge', async () => {
    await forgetFailures();
    const rule = t.config.limits.account;
    const free = rule.freeAttempts;
    // the account's own counter is taken out of play, to see the challenge's
    rule.freeAttempts = 1000;
    try {
      const c = await challengeFor('supervisor-b@obol.example');
      const answers = await Promise.all(Array.from({ length: 12 }, () => verify(c.token, otherCode(c.code))));
      expect(answers.filter((a) => a.status === 401)).toHaveLength(5);
      for (const a of answers) expect([401, 429]).toContain(a.status);
      expect((await challengeRow(c.token)).attempts).toBe(5);
      expect((await verify(c.token, c.code)).status).toBe(429);
    } finally {
      rule.freeAttempts = free;
    }
    await forgetFailures();
  });

  it('counts racing wrong guesses against the account: at most its free attempts are checked', async () => {
    await forgetFailures();
    const rule = t.config.limits.account;
    const { firstDelaySeconds, maxDelaySeconds } = rule;
    Object.assign(rule, { firstDelaySeconds: 600, maxDelaySeconds: 600 });
    try {
      const email = 'supervisor-b@obol.example';
      const challenges = [await challengeFor(email), await challengeFor(email)]; // attempts 1 and 2
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const c = challenges[i % 2];
          return verify(c.token, otherCode(c.code), `10.12.0.${i + 1}`);
        }),
      );
      expect(answers.filter((a) => a.status === 401)).toHaveLength(rule.freeAttempts - 2);
      for (const a of answers.filter((x) => x.status !== 401)) expectRetryLater(a, 600);
      expect((await throttleOf(email)).attempts).toBe(rule.freeAttempts);
    } finally {
      Object.assign(rule, { firstDelaySeconds, maxDelaySeconds });
    }
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
    // a code mailed while the user had no authenticator yet
    const enrolled = (await t.deps.db.select().from(users).where(eq(users.email, 'manager@obol.example')))[0];
    await t.deps.db.update(users).set({ totpSecretEnc: null }).where(eq(users.id, enrolled.id));
    const mailed = await challengeFor('manager@obol.example');
    await t.deps.db.update(users).set({ totpSecretEnc: enrolled.totpSecretEnc }).where(eq(users.id, enrolled.id));
    const app = await login('manager@obol.example', DEMO_PASSWORD, 'authenticator');
    expect((await verify(app.body.challenge_token, mailed.code)).status).toBe(401);
    await t.deps.db.update(users).set({ totpLastStep: null }).where(eq(users.email, 'manager@obol.example'));
    const totp = totpAt(secret, totpStep());
    // the mailed challenge is refused outright now that the user has an authenticator (the factor rule)
    if (totp !== mailed.code) expect((await verify(mailed.token, totp)).status).toBe(403);
  });
});

describe('backup codes', () => {
  const exportCodes = async (authToken: string, email: string) => {
    const file = await t.post('/api/export-backup-code', { email, password: DEMO_PASSWORD }, authToken);
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
    const other = await t.post(
      '/api/export-backup-code',
      { email: 'admin@obol.example', password: DEMO_PASSWORD },
      token,
    );
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: [expect.any(String)] });
    expect(other.text).not.toMatch(/[A-Z0-9]{5}-[A-Z0-9]{5}/);
    const anonymous = await t.post('/api/export-backup-code', {
      email: 'reviewer@obol.example',
      password: DEMO_PASSWORD,
    });
    expect(anonymous.status).toBe(401);
    const invalid = await t.post('/api/export-backup-code', { email: 'not-an-email', password: DEMO_PASSWORD }, token);
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields.email).toEqual([MSG.emailInvalid]);
    expect(await snapshot()).toEqual(before);
  });

  it('needs the password as well as the session: missing or wrong, nothing is made, and wrong ones count', async () => {
    await forgetFailures();
    const email = 'reviewer@obol.example';
    const token = await t.signIn(email);
    const snapshot = async () => (await t.deps.db.select().from(backupCodes).orderBy(backupCodes.id)).map((r) => r.id);
    const before = await snapshot();
    const missing = await t.post('/api/export-backup-code', { email }, token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: [MSG.required], fields: { password: [MSG.required] } });
    const wrong = await t.post('/api/export-backup-code', { email, password: 'Wrong@pass1' }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: [MSG.incorrectPassword], fields: { password: [MSG.incorrectPassword] } });
    expect(wrong.text).not.toMatch(/[A-Z0-9]{5}-[A-Z0-9]{5}/);
    expect(await snapshot()).toEqual(before);
    // wrong passwords here are sign-in attempts of the account: a session cannot be used to guess it
    expect((await throttleOf(email)).attempts).toBe(1);
    for (let i = 0; i < 4; i++)
      expect((await t.post('/api/export-backup-code', { email, password: `Wrong@pass${i}` }, token)).status).toBe(400);
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() + interval '20 seconds'` })
      .where(eq(loginThrottle.email, email));
    const early = await t.post('/api/export-backup-code', { email, password: DEMO_PASSWORD }, token);
    expectRetryLater(early, 20);
    expect(await snapshot()).toEqual(before);
    // once the delay has passed, the right password gets the codes and starts the account over
    await waitOut(email);
    const ok = await t.post('/api/export-backup-code', { email, password: DEMO_PASSWORD }, token);
    expect(ok.status).toBe(200);
    expect(codesIn(ok.text)).toHaveLength(10);
    expect(await throttleOf(email)).toBeUndefined();
  });
});
