import { MSG, tryAgainIn } from '@obol/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/crypto.ts';
import { startTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness.ts';
import { users } from '../users/tables.ts';
import { loginThrottle, oneTimeCodes, sessions } from './tables.ts';
import { rateLimits } from '../../platform/tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** clears every counter (sign-in attempts, reset mails) so one test's requests do not limit the next */
const forgetFailures = async () => {
  await t.deps.db.delete(loginThrottle);
  await t.deps.db.delete(rateLimits);
};

const forgot = (email: string, remoteAddress?: string) =>
  t.app
    .inject({ method: 'POST', url: '/api/forgot-password', payload: { email }, remoteAddress })
    .then((r) => ({ status: r.statusCode, text: r.body, headers: r.headers }));

const mailsTo = (email: string) => t.mails.filter((m) => m.to === email).length;

/** whether the password signs in (the first step of sign-in) */
const passwordWorks = async (email: string, password: string) => {
  await forgetFailures();
  const r = await t.post('/api/login', { email, password, auth_type: 'email' });
  expect([200, 401]).toContain(r.status);
  return r.status === 200;
};

const passwordHash = async (email: string) =>
  (await t.deps.db.select({ h: users.passwordHash }).from(users).where(eq(users.email, email)))[0].h;

const openSessions = async (email: string) => {
  const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
  return (
    await t.deps.db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, u.id), isNull(sessions.revokedAt)))
  )[0].n;
};

/** asks for a link and returns its token and e-mail as the mail gives them */
async function resetLink(email: string) {
  const before = t.mails.length;
  const r = await t.post('/api/forgot-password', { email });
  expect(r.status).toBe(200);
  expect(t.mails.length).toBe(before + 1);
  const mail = t.lastMailTo(email)!;
  const m = new RegExp(`${t.config.publicUrl.replace(/[.:/]/g, '\\$&')}/new-password/([^/\\s]+)/([^\\s/]+)`).exec(
    mail.text,
  );
  expect(m, mail.text).toBeTruthy();
  return { token: decodeURIComponent(m![1]), email: decodeURIComponent(m![2]) };
}

const RULES: [string, string][] = [
  ['Ab1!', MSG.passwordMin],
  ['Abcdefg!', MSG.passwordNumber],
  ['1234567!', MSG.passwordAlphabet],
  ['Abcdefg1', MSG.passwordSpecial],
  ['Abc 123!', MSG.passwordCharset],
];

describe('POST /api/forgot-password', () => {
  it('gives the same answer for an unknown, an inactive and a known e-mail, and mails only the known one', async () => {
    await forgetFailures();
    const mails = t.mails.length;
    const unknown = await t.post('/api/forgot-password', { email: 'nobody@obol.example' });
    await t.deps.db.update(users).set({ isActive: false }).where(eq(users.email, 'reviewer@obol.example'));
    const inactive = await t.post('/api/forgot-password', { email: 'reviewer@obol.example' });
    await t.deps.db.update(users).set({ isActive: true }).where(eq(users.email, 'reviewer@obol.example'));
    expect(t.mails.length).toBe(mails);
    const known = await t.post('/api/forgot-password', { email: 'supervisor-b@obol.example' });
    expect(t.mails.length).toBe(mails + 1);
    for (const r of [unknown, inactive, known]) {
      expect(r.status).toBe(200);
      expect(r.text).toBe(known.text);
    }
    expect(known.body).toEqual({ message: [MSG.resetMailSent] });
  });

  it('mails a link /new-password/{token}/{email} whose token is not stored as given', async () => {
    await forgetFailures();
    const link = await resetLink('supervisor-b@obol.example');
    expect(link.email).toBe('supervisor-b@obol.example');
    expect(link.token).toMatch(/^[\w-]{40,}$/);
    const rows = await t.deps.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.purpose, 'password_reset'));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(link.token);
    expect(JSON.stringify(rows)).not.toContain(sha256(link.token));
  });

  it('mails an account at most 3 links an hour, answering every request alike', async () => {
    await forgetFailures();
    const email = 'supervisor-b@obol.example';
    const before = mailsTo(email);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await forgot(email, `10.30.0.${i + 1}`));
    expect(mailsTo(email)).toBe(before + 3);
    // a request over the limit sends nothing and answers as any other: nothing to learn from it
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toBe(answers[0].text);
      expect(a.headers['retry-after']).toBeUndefined();
    }
    expect(JSON.parse(answers[5].text)).toEqual({ message: [MSG.resetMailSent] });
    // the hour over, a new one may be asked for
    await t.deps.db
      .update(rateLimits)
      .set({ windowStart: sql`now() - interval '61 minutes'` })
      .where(eq(rateLimits.key, `resetAccount:${email}`));
    expect((await forgot(email)).status).toBe(200);
    expect(mailsTo(email)).toBe(before + 4);
  });

  it('sends no more than 3 links when the requests race', async () => {
    await forgetFailures();
    const email = 'manager@obol.example';
    const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
    const links = async () =>
      (
        await t.deps.db
          .select({ n: count() })
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.userId, u.id), eq(oneTimeCodes.purpose, 'password_reset')))
      )[0].n;
    const before = { mails: mailsTo(email), links: await links() };
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => forgot(email, `10.31.0.${i + 1}`)));
    for (const a of answers) expect(a.text).toBe(answers[0].text);
    expect(mailsTo(email)).toBe(before.mails + 3);
    expect(await links()).toBe(before.links + 3);
  });

  it('takes at most 10 requests an hour from one address, whichever e-mails they name', async () => {
    await forgetFailures();
    for (let i = 0; i < 10; i++) expect((await forgot(`nobody${i}@obol.example`, '10.32.0.1')).status).toBe(200);
    const email = 'accountant@obol.example';
    const before = mailsTo(email);
    const refused = await forgot(email, '10.32.0.1');
    expect(refused.status).toBe(200);
    expect(JSON.parse(refused.text)).toEqual({ message: [MSG.resetMailSent] });
    expect(mailsTo(email)).toBe(before);
    // another address is not affected
    expect((await forgot(email, '10.32.0.2')).status).toBe(200);
    expect(mailsTo(email)).toBe(before + 1);
    await forgetFailures();
  });

  it('refuses an invalid e-mail naming the field', async () => {
    const r = await t.post('/api/forgot-password', { email: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ email: [MSG.emailInvalid] });
  });
});

describe('POST /api/check-link-expiry', () => {
  it('answers a valid link, and refuses a wrong token, a wrong e-mail, an expired and a used link', async () => {
    await forgetFailures();
    const link = await resetLink('manager@obol.example');
    expect((await t.post('/api/check-link-expiry', link)).status).toBe(200);
    // checking does not use it up
    expect((await t.post('/api/check-link-expiry', link)).status).toBe(200);

    const refusals = [
      { ...link, token: 'not-the-token' },
      { ...link, email: 'admin@obol.example' },
      { ...link, email: 'nobody@obol.example' },
    ];
    for (const body of refusals) {
      const r = await t.post('/api/check-link-expiry', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toEqual({ error: [MSG.linkExpired], fields: { token: [MSG.linkExpired] } });
    }

    const used = await resetLink('manager@obol.example');
    expect(
      (await t.post('/api/set-password', { ...used, password: 'Used@pass1', password_confirmation: 'Used@pass1' }))
        .status,
    ).toBe(200);
    const usedCheck = await t.post('/api/check-link-expiry', used);
    expect(usedCheck.status).toBe(400);
    expect(usedCheck.body.error).toEqual([MSG.linkExpired]);

    const old = await resetLink('manager@obol.example');
    await t.deps.db
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(oneTimeCodes.purpose, 'password_reset'), isNull(oneTimeCodes.usedAt)));
    const expired = await t.post('/api/check-link-expiry', old);
    expect(expired.status).toBe(400);
    expect(expired.body.error).toEqual([MSG.linkExpired]);
    const hash = await passwordHash('manager@obol.example');
    const late = await t.post('/api/set-password', {
      ...old,
      password: 'Late@pass1',
      password_confirmation: 'Late@pass1',
    });
    expect(late.status).toBe(400);
    expect(await passwordHash('manager@obol.example')).toBe(hash);
  });
});

describe('guessing password links', () => {
  const check = (body: unknown, remoteAddress: string) =>
    t.app
      .inject({ method: 'POST', url: '/api/check-link-expiry', payload: body as object, remoteAddress })
      .then((r) => ({ status: r.statusCode, body: r.json(), headers: r.headers }));
  const set = (body: object, remoteAddress: string) =>
    t.app
      .inject({ method: 'POST', url: '/api/set-password', payload: body, remoteAddress })
      .then((r) => ({ status: r.statusCode, body: r.json(), headers: r.headers }));

  it('takes 20 wrong links from one address per 15 minutes, check and set together, then answers 429', async () => {
    await forgetFailures();
    const hash = await passwordHash('supervisor-b@obol.example');
    const link = await resetLink('supervisor-b@obol.example');
    const guess = (i: number) => ({ ...link, token: `guess-${i}`.padEnd(43, 'x') });
    const limit = t.config.limits.passwordLinkAddress.limit;
    expect(limit).toBe(20);
    for (let i = 0; i < limit; i++) {
      const r =
        i % 2
          ? await check(guess(i), '10.31.0.1')
          : await set({ ...guess(i), password: 'Guess@pass1', password_confirmation: 'Guess@pass1' }, '10.31.0.1');
      expect(r.status, String(i)).toBe(400);
    }
    for (const r of [
      await check(guess(99), '10.31.0.1'),
      // the right link too: past the limit nothing is looked up
      await check(link, '10.31.0.1'),
      await set({ ...link, password: 'Right@pass1', password_confirmation: 'Right@pass1' }, '10.31.0.1'),
    ]) {
      expect(r.status).toBe(429);
      const wait = Number(r.headers['retry-after']);
      expect(wait).toBeGreaterThan(14 * 60);
      expect(r.body).toEqual({ error: [tryAgainIn(wait)] });
    }
    // another address is not held back, and the owner's link still works from it
    expect((await check(link, '10.31.0.2')).status).toBe(200);
    expect(
      (await set({ ...link, password: 'Owner@pass1', password_confirmation: 'Owner@pass1' }, '10.31.0.2')).status,
    ).toBe(200);
    expect(await passwordWorks('supervisor-b@obol.example', 'Owner@pass1')).toBe(true);
    // a window that ended starts over
    await t.deps.db
      .update(rateLimits)
      .set({ windowStart: sql`now() - interval '16 minutes'` })
      .where(eq(rateLimits.key, 'passwordLinkAddress:10.31.0.1'));
    expect((await check(guess(100), '10.31.0.1')).status).toBe(400);
    await t.deps.db.update(users).set({ passwordHash: hash }).where(eq(users.email, 'supervisor-b@obol.example'));
  });

  it('counts only links that do not check: valid ones give their slot back', async () => {
    await forgetFailures();
    const link = await resetLink('supervisor-b@obol.example');
    for (let i = 0; i < 30; i++) expect((await check(link, '10.31.0.3')).status).toBe(200);
    expect((await check({ ...link, token: 'wrong' }, '10.31.0.3')).status).toBe(400);
  });

  it('counts racing guesses: no more than the limit are looked up', async () => {
    await forgetFailures();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        check({ token: `race-${i}`.padEnd(43, 'x'), email: 'supervisor-b@obol.example' }, '10.31.0.4'),
      ),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(20);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    await forgetFailures();
  });
});

describe('POST /api/set-password', () => {
  it.each(RULES)(
    'refuses %j with its message, leaving the password and the link as they were',
    async (password, msg) => {
      await forgetFailures();
      const link = await resetLink('2d-admin@obol.example');
      const hash = await passwordHash('2d-admin@obol.example');
      const r = await t.post('/api/set-password', { ...link, password, password_confirmation: password });
      expect(r.status).toBe(400);
      expect(r.body.fields).toEqual({ password: [msg] });
      expect(await passwordHash('2d-admin@obol.example')).toBe(hash);
      expect((await t.post('/api/check-link-expiry', link)).status).toBe(200);
    },
  );

  it('refuses a confirmation that does not match, and missing fields', async () => {
    await forgetFailures();
    const link = await resetLink('2d-admin@obol.example');
    const hash = await passwordHash('2d-admin@obol.example');
    const r = await t.post('/api/set-password', {
      ...link,
      password: 'Good@pass1',
      password_confirmation: 'Good@pass2',
    });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ password_confirmation: [MSG.passwordMismatch] });
    const empty = await t.post('/api/set-password', {});
    expect(empty.status).toBe(400);
    for (const f of ['token', 'email', 'password', 'password_confirmation'])
      expect(empty.body.fields[f]?.[0], f).toBe(MSG.required);
    expect(await passwordHash('2d-admin@obol.example')).toBe(hash);
  });

  it("refuses a link used with another account's e-mail, changing neither", async () => {
    await forgetFailures();
    const link = await resetLink('2d-admin@obol.example');
    const mine = await passwordHash('2d-admin@obol.example');
    const theirs = await passwordHash('admin@obol.example');
    const r = await t.post('/api/set-password', {
      ...link,
      email: 'admin@obol.example',
      password: 'Hijack@pass1',
      password_confirmation: 'Hijack@pass1',
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual([MSG.linkExpired]);
    expect(await passwordHash('2d-admin@obol.example')).toBe(mine);
    expect(await passwordHash('admin@obol.example')).toBe(theirs);
  });

  it('sets the password once: the new one signs in, the old one does not, and open sessions end', async () => {
    await forgetFailures();
    const s1 = await t.signIn('supervisor-a@obol.example');
    const s2 = await t.signIn('supervisor-a@obol.example');
    expect(await openSessions('supervisor-a@obol.example')).toBe(2);
    const link = await resetLink('supervisor-a@obol.example');
    const ok = await t.post('/api/set-password', {
      ...link,
      password: 'New@pass99',
      password_confirmation: 'New@pass99',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: [MSG.passwordSet] });

    const hash = await passwordHash('supervisor-a@obol.example');
    const again = await t.post('/api/set-password', {
      ...link,
      password: 'Other@pass98',
      password_confirmation: 'Other@pass98',
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toEqual([MSG.linkExpired]);
    expect(await passwordHash('supervisor-a@obol.example')).toBe(hash);

    for (const s of [s1, s2]) expect((await t.post('/api/auth-permission', {}, s)).status).toBe(401);
    expect(await openSessions('supervisor-a@obol.example')).toBe(0);
    expect(await passwordWorks('supervisor-a@obol.example', DEMO_PASSWORD)).toBe(false);
    expect(await passwordWorks('supervisor-a@obol.example', 'New@pass99')).toBe(true);
    expect(await t.signIn('supervisor-a@obol.example', 'New@pass99')).toBeTruthy();
  });

  it('voids the other links of the account once a password is set', async () => {
    await forgetFailures();
    const first = await resetLink('accountant@obol.example');
    const second = await resetLink('accountant@obol.example');
    expect(
      (
        await t.post('/api/set-password', {
          ...second,
          password: 'Second@pass1',
          password_confirmation: 'Second@pass1',
        })
      ).status,
    ).toBe(200);
    expect((await t.post('/api/check-link-expiry', first)).status).toBe(400);
    const stale = await t.post('/api/set-password', {
      ...first,
      password: 'First@pass1',
      password_confirmation: 'First@pass1',
    });
    expect(stale.status).toBe(400);
    expect(await passwordWorks('accountant@obol.example', 'Second@pass1')).toBe(true);
  });
});

describe('POST /api/change-password', () => {
  let token: string;
  let hash: string | null;
  beforeAll(async () => {
    await forgetFailures();
    token = await t.signIn('brand2@obol.example');
    hash = await passwordHash('brand2@obol.example');
  });
  const change = (body: object, tk = token) => t.post('/api/change-password', body, tk);

  it.each(RULES)('refuses the new password %j with %s, changing nothing', async (password, msg) => {
    const r = await change({ current_password: DEMO_PASSWORD, password, password_confirmation: password });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ password: [msg] });
    expect(r.body.error).toEqual([msg]);
    expect(await passwordHash('brand2@obol.example')).toBe(hash);
  });

  it('refuses empty and missing fields with "This field is required"', async () => {
    const empty = await change({ current_password: '', password: '', password_confirmation: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.fields.current_password).toEqual([MSG.required]);
    expect(empty.body.fields.password[0]).toBe(MSG.required);
    expect(empty.body.fields.password_confirmation).toEqual([MSG.required]);
    const missing = await change({});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({
      current_password: [MSG.required],
      password: [MSG.required],
      password_confirmation: [MSG.required],
    });
    expect(await passwordHash('brand2@obol.example')).toBe(hash);
  });

  it('refuses a confirmation that does not match', async () => {
    const r = await change({
      current_password: DEMO_PASSWORD,
      password: 'Next@pass1',
      password_confirmation: 'Next@pass2',
    });
    expect(r.status).toBe(400);
    expect(r.body.fields).toEqual({ password_confirmation: [MSG.passwordMismatch] });
    expect(await passwordHash('brand2@obol.example')).toBe(hash);
  });

  it("refuses a wrong current password with 'Incorrect Password.'", async () => {
    const r = await change({
      current_password: 'Wrong@pass1',
      password: 'Next@pass1',
      password_confirmation: 'Next@pass1',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: [MSG.incorrectPassword], fields: { current_password: ['Incorrect Password.'] } });
    expect(await passwordHash('brand2@obol.example')).toBe(hash);
  });

  it('refuses a new password equal to the current one, and a caller without a session', async () => {
    const same = await change({
      current_password: DEMO_PASSWORD,
      password: DEMO_PASSWORD,
      password_confirmation: DEMO_PASSWORD,
    });
    expect(same.status).toBe(400);
    expect(Object.keys(same.body.fields)).toEqual(['password']);
    const anonymous = await t.post('/api/change-password', {
      current_password: DEMO_PASSWORD,
      password: 'Next@pass1',
      password_confirmation: 'Next@pass1',
    });
    expect(anonymous.status).toBe(401);
    expect(await passwordHash('brand2@obol.example')).toBe(hash);
  });

  it('counts wrong current passwords as sign-in attempts, so a session cannot be used to guess it', async () => {
    await forgetFailures();
    const email = 'merchant2@obol.example';
    const tk = await t.signIn(email);
    const before = await passwordHash(email);
    for (let i = 0; i < 5; i++) {
      const r = await change(
        { current_password: `Guess@pass${i}`, password: 'Next@pass1', password_confirmation: 'Next@pass1' },
        tk,
      );
      expect(r.status).toBe(400);
    }
    const [row] = await t.deps.db.select().from(loginThrottle).where(eq(loginThrottle.email, email));
    expect(row.attempts).toBe(5);
    // past the free attempts each next one waits (made long here, so that a slow machine cannot outlast it)
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() + interval '20 seconds'` })
      .where(eq(loginThrottle.email, email));
    const sixth = await change(
      { current_password: DEMO_PASSWORD, password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      tk,
    );
    expect(sixth.status).toBe(429);
    const wait = Number(sixth.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(20);
    expect(sixth.body).toEqual({ error: [tryAgainIn(wait)] });
    expect(await passwordHash(email)).toBe(before);
    // the same counter as the sign-in: the account's password is refused there too
    expect((await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'email' })).status).toBe(429);
    // once the delay has passed, the right password is taken: there is no lock
    await t.deps.db
      .update(loginThrottle)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(loginThrottle.email, email));
    const ok = await change(
      { current_password: DEMO_PASSWORD, password: 'Next@pass1', password_confirmation: 'Next@pass1' },
      tk,
    );
    expect(ok.status).toBe(200);
    expect(await passwordHash(email)).not.toBe(before);
    await forgetFailures();
  });

  it('changes it: this session stays, the others end, the new password signs in and the old does not', async () => {
    const other = await t.signIn('brand2@obol.example');
    const link = await resetLink('brand2@obol.example');
    const r = await change({
      current_password: DEMO_PASSWORD,
      password: 'Next@pass1',
      password_confirmation: 'Next@pass1',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: [MSG.passwordChanged] });
    expect(await passwordHash('brand2@obol.example')).not.toBe(hash);
    expect((await t.post('/api/auth-permission', {}, token)).status).toBe(200);
    expect((await t.post('/api/auth-permission', {}, other)).status).toBe(401);
    expect(await passwordWorks('brand2@obol.example', DEMO_PASSWORD)).toBe(false);
    expect(await passwordWorks('brand2@obol.example', 'Next@pass1')).toBe(true);
    // a reset link asked for before the change no longer works
    expect((await t.post('/api/check-link-expiry', link)).status).toBe(400);
  });
});
