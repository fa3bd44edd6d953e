import { maskKey, MSG } from '@obol/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../platform/limit-rules.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { activityLog } from '../../platform/tables.ts';
import { loginThrottle } from '../auth/tables.ts';
import { rateLimits } from '../../platform/tables.ts';
import { roles } from '../roles/tables.ts';
import { users } from '../users/tables.ts';
import { ensureApiKeys, findActiveApiKey, issueApiKey } from './service.ts';
import { apiKeys } from './tables.ts';

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

const idOf = async (email: string) => (await t.deps.db.select().from(users).where(eq(users.email, email)))[0].id;
const currentKeys = (userId: number) =>
  t.deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)));
const reveal = (token: string, body: unknown) => t.post('/api/api-key', body, token);

describe('key pairs', () => {
  it('every merchant and brand has one current key pair from the start, the private key encrypted; staff none', async () => {
    const holders = await t.deps.db
      .select({ id: users.id, email: users.email, role: roles.name })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId));
    for (const h of holders) {
      const keys = await currentKeys(h.id);
      expect(keys.length, h.email).toBe(h.role === 'Merchant' || h.role === 'Brand' ? 1 : 0);
      for (const k of keys) {
        expect(k.publicKey).toMatch(/^pk_[\w-]{32}$/);
        const priv = decryptSecret(t.config.secretsKey, k.privateKeyEnc);
        expect(priv).toMatch(/^sk_[\w-]{43}$/);
        expect(k.privateKeyEnc).not.toContain(priv.slice(3));
      }
    }
    const all = await t.deps.db.select({ p: apiKeys.publicKey }).from(apiKeys);
    expect(new Set(all.map((k) => k.p)).size).toBe(all.length);
  });

  it('issues nothing more at the next start, and racing issues give a holder one current key', async () => {
    expect(await ensureApiKeys(t.deps.db, t.config.secretsKey)).toBe(0);
    const merchant = await idOf('merchant2@obol.example');
    const before = (await currentKeys(merchant))[0];
    expect(await issueApiKey(t.deps.db, t.config.secretsKey, merchant)).toBe(false);
    expect(await currentKeys(merchant)).toEqual([before]);

    // a holder without a key (as before the keys existed): many racing issues, one key
    await t.deps.db.delete(apiKeys).where(eq(apiKeys.userId, merchant));
    const issued = await Promise.all(
      Array.from({ length: 5 }, () => issueApiKey(t.deps.db, t.config.secretsKey, merchant)),
    );
    expect(issued.filter(Boolean)).toHaveLength(1);
    expect(await currentKeys(merchant)).toHaveLength(1);
  });
});

describe('the profile overview (/api-key-overview)', () => {
  it('shows a merchant and a brand their account reference and masked public key, nothing more', async () => {
    for (const email of ['merchant@obol.example', 'brand@obol.example']) {
      const token = await t.signIn(email);
      const [key] = await currentKeys(await idOf(email));
      const r = await t.post('/api/api-key-overview', {}, token);
      expect(r.status, email).toBe(200);
      const account = await t.post('/api/login-user-account', {}, token);
      expect(r.body).toEqual({
        account_reference: account.body.account_reference,
        public_key_masked: maskKey(key.publicKey),
        created_at: key.createdAt.toISOString(),
      });
      expect(r.body.account_reference).toBeTruthy();
      expect(r.text).not.toContain(key.publicKey);
    }
  });

  it('is refused to staff and to a merchant team member (403)', async () => {
    for (const email of ['admin@obol.example', 'payment-ops@obol.example']) {
      const r = await t.post('/api/api-key-overview', {}, await t.signIn(email));
      expect(r.status, email).toBe(403);
    }
  });
});

describe('revealing the own keys (/api-key)', () => {
  it('needs the password: required, wrong, another e-mail; then both keys, logged without them', async () => {
    const email = 'merchant@obol.example';
    const id = await idOf(email);
    const token = await t.signIn(email);
    const [key] = await currentKeys(id);
    const privateKey = decryptSecret(t.config.secretsKey, key.privateKeyEnc);

    const absent = await reveal(token, { email });
    expect(absent.status).toBe(400);
    expect(absent.body.fields).toEqual({ current_password: [MSG.required] });
    const empty = await reveal(token, { email, current_password: '' });
    expect(empty.body.fields).toEqual({ current_password: [MSG.requiredShort] });
    const noEmail = await reveal(token, { current_password: DEMO_PASSWORD });
    expect(noEmail.body.fields).toEqual({ email: [MSG.required] });
    const wrong = await reveal(token, { email, current_password: 'Wrong@pass1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: [MSG.incorrectPassword],
      fields: { current_password: [MSG.incorrectPassword] },
    });
    const other = await reveal(token, { email: 'merchant2@obol.example', current_password: DEMO_PASSWORD });
    expect(other.status).toBe(403);
    for (const r of [absent, empty, noEmail, wrong, other]) expect(r.text).not.toContain(privateKey);

    const ok = await reveal(token, { email: 'Merchant@obol.example', current_password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body).toMatchObject({ user_verified: 1, public_key: key.publicKey, private_key: privateKey });
    expect(ok.body.account_reference).toBeTruthy();

    const logs = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'api-key.reveal'), eq(activityLog.userId, id)))
      .orderBy(desc(activityLog.id));
    expect(logs[0]).toMatchObject({ outcome: 'success', targetType: 'api_key', targetId: String(key.id) });
    expect(logs[0].detail).toContain(maskKey(key.publicKey));
    expect(logs.map((l) => l.outcome)).toContain('failure');
    expect(JSON.stringify(logs)).not.toContain(privateKey);
    expect(JSON.stringify(logs)).not.toContain(key.publicKey);
  });

  it('reveals a brand its own keys, and refuses staff (403, logged as denied)', async () => {
    const brand = await t.signIn('brand2@obol.example');
    const [key] = await currentKeys(await idOf('brand2@obol.example'));
    const ok = await reveal(brand, { email: 'brand2@obol.example', current_password: DEMO_PASSWORD });
    expect(ok.body.public_key).toBe(key.publicKey);

    const admin = await t.signIn('admin@obol.example');
    const denied = await reveal(admin, { email: 'admin@obol.example', current_password: DEMO_PASSWORD });
    expect(denied.status).toBe(403);
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.userId, await idOf('admin@obol.example')))
      .orderBy(desc(activityLog.id))
      .limit(1);
    expect(log.outcome).toBe('denied');
  });

  it('counts reveals per user: 429 with Retry-After past the limit', async () => {
    t.deps.config.limits.apiKeyReveal = { limit: 2, seconds: 600 };
    const email = 'brand@obol.example';
    const token = await t.signIn(email);
    expect((await reveal(token, { email, current_password: DEMO_PASSWORD })).status).toBe(200);
    expect((await reveal(token, { email, current_password: 'Wrong@pass1' })).status).toBe(400);
    const over = await reveal(token, { email, current_password: DEMO_PASSWORD });
    expect(over.status).toBe(429);
    expect(over.body.error[0]).toMatch(/^Too many requests\. Please try again in \d+ minutes?\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body.private_key).toBeUndefined();
  });

  it('never puts the private key in any other answer', async () => {
    const email = 'merchant2@obol.example';
    const [key] = await currentKeys(await idOf(email));
    const privateKey = decryptSecret(t.config.secretsKey, key.privateKeyEnc);
    const login = await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'email' });
    const verify = await t.post('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      code: t.lastMailTo(email)!.code,
    });
    expect(verify.status).toBe(200);
    const token = verify.body.accessToken as string;
    const admin = await t.signIn('admin@obol.example');
    const answers = [
      login,
      verify,
      await t.post('/api/auth-permission', {}, token),
      await t.post('/api/login-user-account', {}, token),
      await t.post('/api/api-key-overview', {}, token),
      await t.post('/api/users', { page: 1, per_page: 100 }, admin),
      await t.post('/api/get-user-detail', { id: await idOf(email) }, admin),
    ];
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).not.toContain(privateKey);
      expect(a.text).not.toContain(key.privateKeyEnc);
    }
  });
});

describe('rotating a key (/api/rotate-api-key)', () => {
  it('issues a new pair after the password; the old key works through the grace period, then stops', async () => {
    const token = await t.signIn('brand2@obol.example');
    const userId = await idOf('brand2@obol.example');
    const [before] = await currentKeys(userId);

    const wrong = await t.post('/api/rotate-api-key', { current_password: 'Not@thepass1' }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual([MSG.incorrectPassword]);
    expect((await currentKeys(userId))[0].id).toBe(before.id);

    const r = await t.post('/api/rotate-api-key', { current_password: DEMO_PASSWORD }, token);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body.public_key).toMatch(/^pk_/);
    expect(r.body.previous_public_key_masked).toBe(maskKey(before.publicKey));
    const hours = (new Date(r.body.previous_valid_until).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const [now] = await currentKeys(userId);
    expect(now.publicKey).toBe(r.body.public_key);
    expect(decryptSecret(t.deps.config.secretsKey, now.privateKeyEnc)).toBe(r.body.private_key);
    // both authenticate during the grace period
    expect((await findActiveApiKey(t.deps.db, before.publicKey))?.id).toBe(before.id);
    expect((await findActiveApiKey(t.deps.db, now.publicKey))?.id).toBe(now.id);
    // past it, only the new one
    await t.deps.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, before.id));
    expect(await findActiveApiKey(t.deps.db, before.publicKey)).toBeUndefined();
    expect((await findActiveApiKey(t.deps.db, now.publicKey))?.id).toBe(now.id);
    expect(await findActiveApiKey(t.deps.db, 'pk_unknown')).toBeUndefined();

    // the reveal now shows the new pair; the log names the keys only by their masks
    const shown = await reveal(token, { current_password: DEMO_PASSWORD, email: 'brand2@obol.example' });
    expect(shown.body.public_key).toBe(r.body.public_key);
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'api-key.rotate'), eq(activityLog.outcome, 'success')))
      .orderBy(desc(activityLog.id));
    expect(JSON.stringify(log)).not.toContain(r.body.private_key);
    expect(JSON.stringify(log)).not.toContain(r.body.public_key);
    expect(log.after).toEqual({ public_key: maskKey(r.body.public_key) });
  });

  it('keeps one current key when two rotations race', async () => {
    const token = await t.signIn('merchant2@obol.example');
    const userId = await idOf('merchant2@obol.example');
    const answers = await Promise.all([
      t.post('/api/rotate-api-key', { current_password: DEMO_PASSWORD }, token),
      t.post('/api/rotate-api-key', { current_password: DEMO_PASSWORD }, token),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const current = await currentKeys(userId);
    expect(current).toHaveLength(1);
    expect(answers.map((a) => a.body.public_key)).toContain(current[0].publicKey);
  });

  it('is for merchants and brands only', async () => {
    const token = await t.signIn('admin@obol.example');
    expect((await t.post('/api/rotate-api-key', { current_password: DEMO_PASSWORD }, token)).status).toBe(403);
  });
});

describe('the API Keys screen', () => {
  it('lists merchants with masked public keys and account references, never a private key; a merchant itself', async () => {
    const admin = await t.signIn('admin@obol.example');
    const r = await t.post('/api/api-and-keys', {}, admin);
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toContain('sk_');
    const acme = r.body.data.find((m: { email: string }) => m.email === 'merchant@obol.example');
    const [key] = await currentKeys(await idOf('merchant@obol.example'));
    expect(acme).toMatchObject({ public_key_masked: maskKey(key.publicKey), account_reference: expect.any(String) });
    expect(r.body.total).toBeGreaterThanOrEqual(2);
    const found = await t.post('/api/api-and-keys', { name: 'globex' }, admin);
    expect(found.body.data.map((m: { email: string }) => m.email)).toEqual(['merchant2@obol.example']);

    const merchant = await t.signIn('merchant@obol.example');
    const own = await t.post('/api/api-and-keys', {}, merchant);
    expect(own.body.data.map((m: { email: string }) => m.email)).toEqual(['merchant@obol.example']);
    expect((await t.post('/api/api-and-keys', {}, await t.signIn('brand@obol.example'))).status).toBe(403);
  });

  it("shows a merchant's brands' keys masked, and another merchant's as 404", async () => {
    const merchant = await t.signIn('merchant@obol.example');
    const mine = await t.post('/api/api-key-brands', { id: await idOf('merchant@obol.example') }, merchant);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((b: { email: string }) => b.email)).toContain('brand@obol.example');
    expect(JSON.stringify(mine.body)).not.toContain('sk_');
    const other = await t.post('/api/api-key-brands', { id: await idOf('merchant2@obol.example') }, merchant);
    expect(other.status).toBe(404);
    const share = await t.post(
      '/api/email-keys',
      { id: await idOf('merchant2@obol.example'), email: 'dev@shop.example' },
      merchant,
    );
    expect(share.status).toBe(404);
  });

  it("a merchant's reveal carries its brands' keys too", async () => {
    const merchant = await t.signIn('merchant@obol.example');
    const r = await reveal(merchant, { current_password: DEMO_PASSWORD, email: 'merchant@obol.example' });
    expect(r.status).toBe(200);
    const brandId = await idOf('brand@obol.example');
    const [brandKey] = await currentKeys(brandId);
    expect(r.body.brands).toContainEqual({
      id: brandId,
      name: expect.any(String),
      public_key: brandKey.publicKey,
      private_key: decryptSecret(t.deps.config.secretsKey, brandKey.privateKeyEnc),
    });
  });

  it('shares public keys by e-mail with the e-mail rules, never a private key, and logs it', async () => {
    const admin = await t.signIn('admin@obol.example');
    const id = await idOf('merchant@obol.example');
    const missing = await t.post('/api/email-keys', { id }, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.fields.email).toEqual([MSG.required]);
    const bad = await t.post('/api/email-keys', { id, email: 'nope' }, admin);
    expect(bad.body.fields.email).toEqual([MSG.emailInvalid]);

    const r = await t.post('/api/email-keys', { id, email: 'Dev@Shop.Example' }, admin);
    expect(r.status).toBe(200);
    const mail = t.lastMailTo('dev@shop.example')!;
    const [key] = await currentKeys(id);
    expect(mail.text).toContain(key.publicKey);
    expect(mail.text).not.toContain('sk_');
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'api-key.share'), eq(activityLog.outcome, 'success')));
    expect(log.detail).toContain('dev@shop.example');
  });
});
