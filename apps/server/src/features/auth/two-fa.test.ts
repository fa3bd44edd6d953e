import { MSG, TWO_FA_MSG } from '@obol/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, newTotpSecret, totpAt, totpStep } from '../../platform/crypto.ts';
import { DEFAULT_LIMITS } from '../../platform/limit-rules.ts';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { activityLog } from '../../platform/tables.ts';
import { users } from '../users/tables.ts';
import { oneTimeCodes, loginThrottle } from './tables.ts';
import { rateLimits } from '../../platform/tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  t.deps.config.limits = structuredClone(DEFAULT_LIMITS);
  await t.deps.db.delete(loginThrottle);
  await t.deps.db.delete(rateLimits);
});

const row = async (email: string) => (await t.deps.db.select().from(users).where(eq(users.email, email)))[0];
const setup = (token: string, body: unknown) => t.post('/api/two-fa-setup', body, token);
const enable = (token: string, body: unknown) => t.post('/api/enable-two-fa', body, token);
const lastLog = async (action: string, userId: number) =>
  (
    await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, action), eq(activityLog.userId, userId)))
      .orderBy(desc(activityLog.id))
      .limit(1)
  )[0];

/** signs in with an authenticator code; the answer of /verify-code */
async function signInWithApp(email: string, code: string) {
  const login = await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'authenticator' });
  expect(login.status).toBe(200);
  return t.post('/api/verify-code', { challenge_token: login.body.challenge_token, code });
}

describe('authenticator setup (/two-fa-setup)', () => {
  it('needs the password: missing, wrong (nothing pending), then a pending secret with its URI and QR code', async () => {
    const email = 'accountant@obol.example';
    const token = await t.signIn(email);
    const missing = await setup(token, {});
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ current_password: [MSG.required] });
    const wrong = await setup(token, { current_password: 'Wrong@pass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: [MSG.incorrectPassword],
      fields: { current_password: [MSG.incorrectPassword] },
    });
    expect((await row(email)).totpPendingEnc).toBeNull();

    const ok = await setup(token, { current_password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const { secret, otpauth_url, qr_code } = ok.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // 20 random bytes, base32 without padding
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toBe(
      `otpauth://totp/Obol:${encodeURIComponent(email)}?secret=${secret}&issuer=Obol&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr_code.split(',')[1], 'base64').toString()).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
    expect(new Date(ok.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);

    const u = await row(email);
    expect(u.totpPendingEnc).not.toContain(secret);
    expect(decryptSecret(t.config.secretsKey, u.totpPendingEnc!)).toBe(secret);
    expect(u.totpSecretEnc).toBeNull();
    expect(u.twoFaAsOtp).toBe(true);
    const log = await lastLog('auth.two-fa-setup', u.id);
    expect(log).toMatchObject({ outcome: 'success', targetType: 'user', targetId: String(u.id) });
    expect(log.after).toMatchObject({ authenticator_pending: true, two_fa_as_otp: true });
    expect(JSON.stringify(log)).not.toContain(secret);
  });

  it('is refused without a session', async () => {
    expect((await t.post('/api/two-fa-setup', { current_password: DEMO_PASSWORD })).status).toBe(401);
  });
});

describe('the switch (/enable-two-fa)', () => {
  it('switches to the authenticator only with a code of the pending secret; the old secret works until then', async () => {
    const email = 'supervisor-a@obol.example';
    // signed in before the authenticator (an e-mailed code no longer signs such a user in)
    const token = await t.signIn(email);
    // an authenticator already in use (secret A)
    const oldSecret = newTotpSecret();
    await t.deps.db
      .update(users)
      .set({ totpSecretEnc: encryptSecret(t.config.secretsKey, oldSecret), twoFaAsOtp: false, totpLastStep: null })
      .where(eq(users.email, email));
    const started = await setup(token, { current_password: DEMO_PASSWORD });
    const secret: string = started.body.secret;
    const u = await row(email);

    // refusals, none of which changes anything
    const noCode = await enable(token, { enable_two_fa: true, current_password: DEMO_PASSWORD });
    expect(noCode.status).toBe(400);
    expect(noCode.body.fields).toEqual({ code: [MSG.required] });
    const letters = await enable(token, { enable_two_fa: true, current_password: DEMO_PASSWORD, code: '12ab56' });
    expect(letters.body.fields).toEqual({ code: [TWO_FA_MSG.codeDigits] });
    const badSwitch = await enable(token, { enable_two_fa: 'yes', current_password: DEMO_PASSWORD, code: '123456' });
    expect(badSwitch.status).toBe(400);
    expect(Object.keys(badSwitch.body.fields)).toEqual(['enable_two_fa']);
    const wrongPassword = await enable(token, {
      enable_two_fa: true,
      current_password: 'Wrong@pass1',
      code: totpAt(secret, totpStep()),
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.fields).toEqual({ current_password: [MSG.incorrectPassword] });
    // a code of the active secret does not confirm the new one
    const oldCode = await enable(token, {
      enable_two_fa: true,
      current_password: DEMO_PASSWORD,
      code: totpAt(oldSecret, totpStep()),
    });
    expect(oldCode.status).toBe(422);
    expect(oldCode.body).toEqual({ error: [MSG.invalidCode], fields: { code: [MSG.invalidCode] } });
    expect(await row(email)).toMatchObject({ totpSecretEnc: u.totpSecretEnc, totpPendingEnc: u.totpPendingEnc });

    // until confirmed, sign-in takes the old secret's codes, not the new one's
    const step = totpStep();
    expect((await signInWithApp(email, totpAt(secret, step))).status).toBe(401);
    expect((await signInWithApp(email, totpAt(oldSecret, step))).status).toBe(200);

    await t.deps.db.delete(loginThrottle);
    const ok = await enable(token, { enable_two_fa: 1, current_password: DEMO_PASSWORD, code: totpAt(secret, step) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ two_fa_as_otp: false, message: [TWO_FA_MSG.toAuthenticator] });
    const after = await row(email);
    expect(after).toMatchObject({
      twoFaAsOtp: false,
      totpPendingEnc: null,
      totpPendingUntil: null,
      totpLastStep: step,
    });
    expect(decryptSecret(t.config.secretsKey, after.totpSecretEnc!)).toBe(secret);

    // the confirming code is used up; the next step signs in; the old secret no longer does
    expect((await signInWithApp(email, totpAt(secret, step))).status).toBe(401);
    expect((await signInWithApp(email, totpAt(oldSecret, step + 1))).status).toBe(401);
    const signedIn = await signInWithApp(email, totpAt(secret, step + 1));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.two_fa_as_otp).toBe(false);

    const log = await lastLog('auth.enable-two-fa', u.id);
    expect(log).toMatchObject({ outcome: 'success', targetType: 'user', targetId: String(u.id) });
    expect(log.before).toMatchObject({ two_fa_as_otp: false });
    expect(log.after).toMatchObject({ two_fa_as_otp: false, codes_by: 'authenticator' });
    const everything = JSON.stringify(await t.deps.db.select().from(activityLog).where(eq(activityLog.userId, u.id)));
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(oldSecret);
  });

  it('refuses a confirmation without a setup, or after the setup expired', async () => {
    const email = 'finance@obol.example';
    const token = await t.signIn(email);
    const none = await enable(token, { enable_two_fa: true, current_password: DEMO_PASSWORD, code: '123456' });
    expect(none.status).toBe(422);
    expect(none.body.error).toEqual([TWO_FA_MSG.noPendingSetup]);

    const { secret } = (await setup(token, { current_password: DEMO_PASSWORD })).body;
    await t.deps.db
      .update(users)
      .set({ totpPendingUntil: new Date(Date.now() - 1000) })
      .where(eq(users.email, email));
    const late = await enable(token, {
      enable_two_fa: true,
      current_password: DEMO_PASSWORD,
      code: totpAt(secret, totpStep()),
    });
    expect(late.status).toBe(422);
    expect(late.body.error).toEqual([TWO_FA_MSG.noPendingSetup]);
    expect(await row(email)).toMatchObject({ twoFaAsOtp: true, totpSecretEnc: null });
  });

  it('switches back to e-mail codes only with the password, forgetting the authenticator', async () => {
    const email = 'reviewer@obol.example';
    const token = await t.signIn(email);
    const { secret } = (await setup(token, { current_password: DEMO_PASSWORD })).body;
    const step = totpStep();
    expect(
      (await enable(token, { enable_two_fa: true, current_password: DEMO_PASSWORD, code: totpAt(secret, step) }))
        .status,
    ).toBe(200);

    const noPassword = await enable(token, { enable_two_fa: false });
    expect(noPassword.body.fields).toEqual({ current_password: [MSG.required] });
    const wrong = await enable(token, { enable_two_fa: false, current_password: 'Wrong@pass1' });
    expect(wrong.status).toBe(400);
    expect((await row(email)).twoFaAsOtp).toBe(false);

    const ok = await enable(token, { enable_two_fa: false, current_password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ two_fa_as_otp: true, message: [TWO_FA_MSG.toEmail] });
    expect(await row(email)).toMatchObject({ twoFaAsOtp: true, totpSecretEnc: null, totpPendingEnc: null });
    expect((await signInWithApp(email, totpAt(secret, step + 1))).status).toBe(401);
    const log = await lastLog('auth.enable-two-fa', (await row(email)).id);
    expect(log.before).toMatchObject({ two_fa_as_otp: false });
    expect(log.after).toMatchObject({ two_fa_as_otp: true, codes_by: 'email' });
  });

  it('counts setups and switches per user (429 with Retry-After), and wrong passwords in the sign-in delay', async () => {
    const email = 'risk-ops@obol.example';
    const token = await t.signIn(email);
    t.deps.config.limits.twoFa = { limit: 2, seconds: 600 };
    expect((await setup(token, { current_password: DEMO_PASSWORD })).status).toBe(200);
    const pending = (await row(email)).totpPendingEnc;
    expect((await enable(token, { enable_two_fa: false, current_password: DEMO_PASSWORD })).status).toBe(200);
    const over = await setup(token, { current_password: DEMO_PASSWORD });
    expect(over.status).toBe(429);
    expect(over.body.error[0]).toMatch(/^Too many requests\. Please try again in \d+ minutes?\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const overSwitch = await enable(token, { enable_two_fa: false, current_password: DEMO_PASSWORD });
    expect(overSwitch.status).toBe(429);
    // the switch back to e-mail forgot the pending secret; the refused setup made no new one
    expect(pending).not.toBeNull();
    expect((await row(email)).totpPendingEnc).toBeNull();

    // wrong passwords: 5 free, then the account's delay answers 429 before the password is checked (a long first
    // delay, so that however slowly a loaded machine answers the fifth, the sixth comes within it)
    t.deps.config.limits.twoFa = { limit: 100, seconds: 600 };
    const rule = t.deps.config.limits.account;
    const saved = { ...rule };
    Object.assign(rule, { firstDelaySeconds: 600, maxDelaySeconds: 600 });
    try {
      for (let i = 0; i < 5; i++)
        expect((await setup(token, { current_password: 'Wrong@pass1' })).status, `try ${i + 1}`).toBe(400);
      const delayed = await setup(token, { current_password: DEMO_PASSWORD });
      expect(delayed.status).toBe(429);
      expect(Number(delayed.headers['retry-after'])).toBeGreaterThan(500);
      expect((await row(email)).totpPendingEnc).toBeNull();
    } finally {
      Object.assign(rule, saved);
    }
  });
});

describe('the factor rule: an authenticator user no longer signs in with an e-mailed code', () => {
  const login = (email: string, auth_type: string) =>
    t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type });

  it('refuses auth_type email (403, nothing mailed), takes the app and backup codes, and e-mail again once switched back', async () => {
    const email = 'payment-ops@obol.example';
    const token = await t.signIn(email);
    // a code mailed before the switch, not yet used
    const early = await login(email, 'email');
    expect(early.status).toBe(200);
    const earlyCode = t.lastMailTo(email)!.code;
    const { secret } = (await setup(token, { current_password: DEMO_PASSWORD })).body;
    const step = totpStep();
    expect(
      (await enable(token, { enable_two_fa: true, current_password: DEMO_PASSWORD, code: totpAt(secret, step) }))
        .status,
    ).toBe(200);
    const file = await t.post('/api/export-backup-code', { email, password: DEMO_PASSWORD }, token);
    const backup = file.text.match(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/m)![0];
    await t.deps.db.delete(loginThrottle);

    const mailsBefore = t.mails.length;
    const codesBefore = (await t.deps.db.select().from(oneTimeCodes)).length;
    const refused = await login(email, 'email');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: [MSG.emailCodeRefused], fields: { auth_type: [MSG.emailCodeRefused] } });
    expect(t.mails.length).toBe(mailsBefore);
    expect((await t.deps.db.select().from(oneTimeCodes)).length).toBe(codesBefore);
    // a wrong password still answers 401 first: the refusal tells nothing to someone without the password
    const wrong = await t.post('/api/login', { email, password: 'Wrong@pass1', auth_type: 'email' });
    expect(wrong.status).toBe(401);
    // the code mailed before the switch no longer completes the sign-in
    const stale = await t.post('/api/verify-code', { challenge_token: early.body.challenge_token, code: earlyCode });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toEqual([MSG.emailCodeRefused]);

    expect((await signInWithApp(email, totpAt(secret, step + 1))).status).toBe(200);
    const viaBackup = await login(email, 'backup');
    expect(viaBackup.status).toBe(200);
    const recovered = await t.post('/api/verify-code', {
      challenge_token: viaBackup.body.challenge_token,
      code: backup,
    });
    expect(recovered.status).toBe(200);

    // back to e-mail codes (the secret is forgotten): the e-mailed code signs in again
    expect((await enable(token, { enable_two_fa: false, current_password: DEMO_PASSWORD })).status).toBe(200);
    await t.deps.db.delete(loginThrottle);
    await expect(t.signIn(email)).resolves.toEqual(expect.any(String));
  });

  it('a pending (unconfirmed) authenticator does not change the factor: e-mail codes still sign in', async () => {
    const email = 'finance@obol.example';
    const token = await t.signIn(email);
    expect((await setup(token, { current_password: DEMO_PASSWORD })).status).toBe(200);
    expect((await row(email)).totpPendingEnc).not.toBeNull();
    await expect(t.signIn(email)).resolves.toEqual(expect.any(String));
  });
});
