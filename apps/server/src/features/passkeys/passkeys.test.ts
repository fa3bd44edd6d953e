import { MAX_PASSKEYS, MSG } from '@obol/contract';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.ts';
import { sha256 } from '../../platform/crypto.ts';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../../test/harness.ts';
import { SoftAuthenticator } from '../../test/webauthn.ts';
import { activityLog } from '../../platform/tables.ts';
import { loginThrottle, oneTimeCodes } from '../auth/tables.ts';
import { rateLimits } from '../../platform/tables.ts';
import { permissions, rolePermissions, roles } from '../roles/tables.ts';
import { users } from '../users/tables.ts';
import { relyingParty } from './rp.ts';
import { passkeyChallenges, passkeys } from './tables.ts';

// app.inject sends Host: localhost:80, so outside production the relying party is http://localhost, RP ID localhost
const ORIGIN = 'http://localhost';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
/** one test's sign-in attempts must not delay the next */
beforeEach(async () => {
  await t.deps.db.delete(loginThrottle);
  await t.deps.db.delete(rateLimits);
});

const userId = async (email: string) =>
  (await t.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0].id;
const keysOf = async (email: string) =>
  t.deps.db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, await userId(email)));
const lastLog = async (action: string) =>
  (
    await t.deps.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, action))
      .orderBy(desc(activityLog.id))
      .limit(1)
  )[0];

/** registers a passkey of `auth` for the user signed in with `token`; returns the new row's answer */
async function addPasskey(token: string, auth: SoftAuthenticator, name = 'Laptop') {
  const options = await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, token);
  expect(options.status).toBe(200);
  const { response } = auth.create(options.body.options);
  const r = await t.post('/api/passkey-register', { response, name }, token);
  expect(r.status).toBe(201);
  return r.body.passkey as { id: number; name: string };
}

/**
 * One session per user for the whole file, opened with an e-mailed code before the user has a passkey (once one is
 * registered, an e-mailed code no longer signs the user in).
 */
const sessions = new Map<string, string>();
async function session(email: string) {
  if (!sessions.has(email)) sessions.set(email, await t.signIn(email));
  return sessions.get(email)!;
}

const loginPasskey = (email: string, password = DEMO_PASSWORD) =>
  t.post('/api/login', { email, password, auth_type: 'passkey' });

describe('the relying party', () => {
  it('comes from WEBAUTHN_ORIGIN / WEBAUTHN_RP_ID, else PUBLIC_URL in production, else the request', () => {
    const req = { protocol: 'http', host: 'localhost:5173' };
    const dev = loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir });
    expect(relyingParty(dev, req)).toEqual({ origin: 'http://localhost:5173', rpID: 'localhost' });
    const set = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      WEBAUTHN_ORIGIN: 'https://pay.obol.example',
      WEBAUTHN_RP_ID: 'obol.example',
    });
    expect(relyingParty(set, req)).toEqual({ origin: 'https://pay.obol.example', rpID: 'obol.example' });
    const prod = { ...dev, production: true, publicUrl: 'https://obol.example/app' };
    expect(relyingParty(prod, req)).toEqual({ origin: 'https://obol.example', rpID: 'obol.example' });
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir, WEBAUTHN_ORIGIN: 'obol.example' })).toThrow(
      /WEBAUTHN_ORIGIN/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir, WEBAUTHN_RP_ID: 'https://obol.example' })).toThrow(
      /WEBAUTHN_RP_ID/,
    );
  });
});

describe('registering a passkey', () => {
  it('asks for the password, then keeps the verified credential, listed and audited', async () => {
    const token = await session('manager@obol.example');
    const before = (await keysOf('manager@obol.example')).length;
    const missing = await t.post('/api/passkey-register-options', {}, token);
    expect(missing.status).toBe(400);
    expect(missing.body.fields).toEqual({ current_password: [MSG.required] });
    const wrong = await t.post('/api/passkey-register-options', { current_password: 'Wrong@pass1' }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ current_password: [MSG.incorrectPassword] });

    const options = await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, token);
    expect(options.status).toBe(200);
    expect(options.body.options.rp).toEqual({ name: 'Obol', id: 'localhost' });
    expect(options.body.options.user.name).toBe('manager@obol.example');
    // the user handle is opaque: not the e-mail, not the id
    expect(Buffer.from(options.body.options.user.id, 'base64url').length).toBe(32);
    const auth = new SoftAuthenticator(ORIGIN);
    const { response } = auth.create(options.body.options);
    const r = await t.post('/api/passkey-register', { response, name: '  Work laptop ' }, token);
    expect(r.status).toBe(201);
    expect(r.body.message).toEqual([MSG.passkeyAdded]);
    expect(r.body.passkey).toMatchObject({ name: 'Work laptop', last_used_at: null });

    const keys = await keysOf('manager@obol.example');
    expect(keys).toHaveLength(before + 1);
    const kept = keys.find((k) => k.id === r.body.passkey.id)!;
    expect(kept).toMatchObject({ credentialId: response.id, counter: 0, transports: ['internal'] });

    const list = await t.post('/api/passkeys', {}, token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: number }) => p.id)).toContain(r.body.passkey.id);
    expect(list.body.total).toBe(before + 1);

    const log = await lastLog('passkeys.register');
    expect(log).toMatchObject({ outcome: 'success', targetType: 'passkey', targetId: String(r.body.passkey.id) });
    expect(log.before).toBeNull();
    expect(log.after).toMatchObject({ id: r.body.passkey.id, name: 'Work laptop' });

    // the next options exclude what is registered
    const again = await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, token);
    expect(again.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toContain(response.id);
  });

  it('refuses a used, expired, foreign-session or forged registration, changing nothing', async () => {
    const email = 'finance@obol.example';
    const token = await session(email);
    const other = await t.signIn(email);
    const auth = new SoftAuthenticator(ORIGIN);
    const count0 = (await keysOf(email)).length;
    const ask = async (tok = token) =>
      (await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, tok)).body.options;

    // the name is required and at most 50 characters
    let options = await ask();
    const noName = await t.post('/api/passkey-register', { response: auth.create(options).response }, token);
    expect(noName.status).toBe(400);
    expect(noName.body.fields).toEqual({ name: [MSG.required] });
    const long = await t.post(
      '/api/passkey-register',
      { response: auth.create(options).response, name: 'x'.repeat(51) },
      token,
    );
    expect(long.body.fields).toEqual({ name: ['Maximum 50 characters allowed'] });
    const noResponse = await t.post('/api/passkey-register', { name: 'Key' }, token);
    expect(noResponse.status).toBe(400);
    expect(Object.keys(noResponse.body.fields)).toEqual(['response']);

    // a challenge asked for by another session of the same user
    options = await ask(other);
    const foreign = await t.post(
      '/api/passkey-register',
      { response: auth.create(options).response, name: 'K' },
      token,
    );
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toEqual([MSG.passkeyExpired]);

    // a challenge nobody asked for
    const made = await t.post(
      '/api/passkey-register',
      { response: auth.create(await ask(), { challenge: 'bm90LWFza2VkLWZvcg' }).response, name: 'K' },
      token,
    );
    expect(made.status).toBe(422);
    expect(made.body.error).toEqual([MSG.passkeyExpired]);

    // signed for another origin or RP ID: the challenge is used up, nothing kept
    options = await ask();
    const phished = auth.create(options, { origin: 'https://obol.evil.example' }).response;
    const evil = await t.post('/api/passkey-register', { response: phished, name: 'K' }, token);
    expect(evil.status).toBe(422);
    expect(evil.body.error).toEqual([MSG.passkeyInvalid]);
    const genuineLate = auth.create(options).response;
    expect((await t.post('/api/passkey-register', { response: genuineLate, name: 'K' }, token)).status).toBe(422);
    options = await ask();
    const wrongRp = auth.create(options, { rpId: 'obol.evil.example' }).response;
    expect((await t.post('/api/passkey-register', { response: wrongRp, name: 'K' }, token)).body.error).toEqual([
      MSG.passkeyInvalid,
    ]);

    // expired
    options = await ask();
    await t.deps.db
      .update(passkeyChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passkeyChallenges.challengeHash, sha256(options.challenge)));
    const late = await t.post('/api/passkey-register', { response: auth.create(options).response, name: 'K' }, token);
    expect(late.status).toBe(422);

    // a newer challenge of the session voids the older one
    const older = await ask();
    await ask();
    const voided = await t.post('/api/passkey-register', { response: auth.create(older).response, name: 'K' }, token);
    expect(voided.body.error).toEqual([MSG.passkeyExpired]);

    expect((await keysOf(email)).length).toBe(count0);

    // a good one, then the same response again: its challenge is used
    options = await ask();
    const { response } = auth.create(options);
    expect((await t.post('/api/passkey-register', { response, name: 'K' }, token)).status).toBe(201);
    const replay = await t.post('/api/passkey-register', { response, name: 'K' }, token);
    expect(replay.status).toBe(422);
    expect(replay.body.error).toEqual([MSG.passkeyExpired]);
    expect((await keysOf(email)).length).toBe(count0 + 1);
  });

  it('refuses a credential that is already registered, to anyone (409)', async () => {
    const a = await session('accountant@obol.example');
    const b = await session('reviewer@obol.example');
    const auth = new SoftAuthenticator(ORIGIN);
    await addPasskey(a, auth);
    // the same credential (same id, same key) offered by another user's registration
    const options = (await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, b)).body
      .options;
    const dup = auth.create(options, { credential: auth.credentials[0] });
    const conflict = await t.post('/api/passkey-register', { response: dup.response, name: 'Dup' }, b);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toEqual([MSG.passkeyExists]);
    expect(await keysOf('reviewer@obol.example')).toHaveLength(0);
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys per user (422)`, async () => {
    const email = 'brand@obol.example';
    const token = await session(email);
    const uid = await userId(email);
    const have = (await keysOf(email)).length;
    await t.deps.db.insert(passkeys).values(
      Array.from({ length: MAX_PASSKEYS - have }, (_, i) => ({
        userId: uid,
        credentialId: `filler-${uid}-${i}`,
        publicKey: 'AA',
        name: `Filler ${i}`,
      })),
    );
    const r = await t.post('/api/passkey-register-options', { current_password: DEMO_PASSWORD }, token);
    expect(r.status).toBe(422);
    expect(r.body.error).toEqual([MSG.passkeyLimit]);
    await t.deps.db.delete(passkeys).where(eq(passkeys.userId, uid));
  });
});

describe('managing passkeys', () => {
  it('renames and removes only the caller’s own (404 for another user’s), removal after the password', async () => {
    const mine = await session('manager@obol.example');
    const theirs = await session('admin@obol.example');
    const key = await addPasskey(mine, new SoftAuthenticator(ORIGIN), 'Phone');

    const foreignRename = await t.post('/api/rename-passkey', { id: key.id, name: 'Mine now' }, theirs);
    expect(foreignRename.status).toBe(404);
    expect(foreignRename.body.error).toEqual([MSG.passkeyNotFound]);
    const foreignDelete = await t.post('/api/delete-passkey', { id: key.id, current_password: DEMO_PASSWORD }, theirs);
    expect(foreignDelete.status).toBe(404);
    const blank = await t.post('/api/rename-passkey', { id: key.id, name: '   ' }, mine);
    expect(blank.body.fields).toEqual({ name: [MSG.required] });

    const renamed = await t.post('/api/rename-passkey', { id: key.id, name: 'Old phone' }, mine);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ passkey: { id: key.id, name: 'Old phone' }, message: [MSG.passkeyRenamed] });
    const renameLog = await lastLog('passkeys.rename');
    expect(renameLog.before).toMatchObject({ name: 'Phone' });
    expect(renameLog.after).toMatchObject({ name: 'Old phone' });

    const noPassword = await t.post('/api/delete-passkey', { id: key.id }, mine);
    expect(noPassword.body.fields).toEqual({ current_password: [MSG.required] });
    const wrong = await t.post('/api/delete-passkey', { id: key.id, current_password: 'Wrong@pass1' }, mine);
    expect(wrong.status).toBe(400);
    expect(wrong.body.fields).toEqual({ current_password: [MSG.incorrectPassword] });
    expect((await keysOf('manager@obol.example')).some((k) => k.id === key.id && k.name === 'Old phone')).toBe(true);

    const gone = await t.post('/api/delete-passkey', { id: key.id, current_password: DEMO_PASSWORD }, mine);
    expect(gone.status).toBe(200);
    expect(gone.body.message).toEqual([MSG.passkeyRemoved]);
    expect((await keysOf('manager@obol.example')).some((k) => k.id === key.id)).toBe(false);
    const log = await lastLog('passkeys.delete');
    expect(log.before).toMatchObject({ id: key.id, name: 'Old phone' });
    expect(log.after).toBeNull();
    expect((await t.post('/api/delete-passkey', { id: key.id, current_password: DEMO_PASSWORD }, mine)).status).toBe(
      404,
    );
  });

  it('needs the profile permission (403) and a session (401)', async () => {
    const [{ roleId }] = await t.deps.db.select({ roleId: roles.id }).from(roles).where(eq(roles.name, 'Reviewer'));
    const [{ permissionId }] = await t.deps.db
      .select({ permissionId: permissions.id })
      .from(permissions)
      .where(eq(permissions.name, 'User can view profile'));
    const challenges = async () =>
      t.deps.db
        .select({ n: count() })
        .from(passkeyChallenges)
        .where(eq(passkeyChallenges.userId, await userId('reviewer@obol.example')));
    const before = await challenges();
    const token = await session('reviewer@obol.example');
    await t.deps.db
      .delete(rolePermissions)
      .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, permissionId)));
    try {
      for (const [url, body] of [
        ['/api/passkeys', {}],
        ['/api/passkey-register-options', { current_password: DEMO_PASSWORD }],
        ['/api/passkey-register', { name: 'K' }],
        ['/api/rename-passkey', { id: 1, name: 'K' }],
        ['/api/delete-passkey', { id: 1, current_password: DEMO_PASSWORD }],
      ] as const) {
        expect((await t.post(url, body, token)).status, url).toBe(403);
        expect((await t.post(url, body)).status, url).toBe(401);
      }
      expect(await challenges()).toEqual(before);
    } finally {
      await t.deps.db.insert(rolePermissions).values({ roleId, permissionId });
    }
  });

  it('limits passkey changes per user (429 with Retry-After)', async () => {
    const token = await session('manager@obol.example');
    const saved = t.deps.config.limits.passkey;
    t.deps.config.limits.passkey = { limit: 2, seconds: 600 };
    try {
      const key = await addPasskey(token, new SoftAuthenticator(ORIGIN), 'Limited');
      const r = await t.post('/api/rename-passkey', { id: key.id, name: 'Over' }, token);
      expect(r.status).toBe(429);
      expect(r.body.error[0]).toMatch(/^Too many passkey changes\. Please try again in \d+ minutes?\.$/);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect((await keysOf('manager@obol.example')).find((k) => k.id === key.id)?.name).toBe('Limited');
    } finally {
      t.deps.config.limits.passkey = saved;
    }
  });
});

describe('signing in with a passkey', () => {
  it('after the right password, only for a user with a passkey', async () => {
    const wrong = await loginPasskey('accountant@obol.example', 'Wrong@pass1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual([MSG.invalidCredentials]);
    const none = await loginPasskey('brand@obol.example');
    expect(none.status).toBe(422);
    expect(none.body.error).toEqual([MSG.noPasskey]);
  });

  it('opens a session with a verified assertion, raising the counter; the assertion works once', async () => {
    const email = 'admin@obol.example';
    const auth = new SoftAuthenticator(ORIGIN);
    const key = await addPasskey(await session(email), auth, 'YubiKey');
    const login = await loginPasskey(email);
    expect(login.status).toBe(200);
    expect(login.body.auth_type).toBe('passkey');
    const options = login.body.passkey_options;
    expect(options.rpId).toBe('localhost');
    const ids = (await keysOf(email)).map((k) => k.credentialId).sort();
    expect(options.allowCredentials.map((c: { id: string }) => c.id).sort()).toEqual(ids);

    const assertion = auth.get(options);
    const r = await t.post('/api/verify-code', { challenge_token: login.body.challenge_token, assertion });
    expect(r.status).toBe(200);
    expect(r.body.user.email).toBe(email);
    expect((await t.post('/api/auth-permission', {}, r.body.accessToken)).status).toBe(200);
    const kept = (await keysOf(email)).find((k) => k.id === key.id)!;
    expect(kept.counter).toBe(1);
    expect(kept.lastUsedAt).not.toBeNull();

    // the same assertion again: the challenge is used
    const replay = await t.post('/api/verify-code', { challenge_token: login.body.challenge_token, assertion });
    expect(replay.status).toBe(401);
    // and on a new challenge it signs the wrong one
    const next = await loginPasskey(email);
    const old = await t.post('/api/verify-code', { challenge_token: next.body.challenge_token, assertion });
    expect(old.status).toBe(401);
    expect(old.body.error).toEqual([MSG.passkeyInvalid]);
    expect((await keysOf(email)).find((k) => k.id === key.id)!.counter).toBe(1);
  });

  it('refuses a wrong challenge, origin or RP ID, a code, another user’s credential and a counter that did not rise', async () => {
    const alice = 'finance@obol.example';
    const bob = 'accountant@obol.example';
    const aliceAuth = new SoftAuthenticator(ORIGIN);
    const bobAuth = new SoftAuthenticator(ORIGIN);
    await addPasskey(await session(alice), aliceAuth);
    await addPasskey(await session(bob), bobAuth);
    const attempt = async (email: string, make: (options: any) => unknown) => {
      await t.deps.db.delete(loginThrottle);
      const login = await loginPasskey(email);
      expect(login.status).toBe(200);
      const r = await t.post('/api/verify-code', {
        challenge_token: login.body.challenge_token,
        ...(make(login.body.passkey_options) as object),
      });
      return r;
    };
    const refused = [
      await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { challenge: 'c29tZXRoaW5nLWVsc2U' }) })),
      await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { origin: 'https://obol.evil.example' }) })),
      await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { rpId: 'obol.evil.example' }) })),
      // Bob's own credential, signed over Alice's challenge
      await attempt(alice, (o) => ({ assertion: bobAuth.get(o, { credential: bobAuth.credentials[0] }) })),
    ];
    for (const r of refused) {
      expect(r.status).toBe(401);
      expect(r.body.error).toEqual([MSG.passkeyInvalid]);
    }
    // a code on a passkey challenge, a passkey on a code challenge
    expect((await attempt(alice, () => ({ code: '123456' }))).body.error).toEqual([MSG.passkeyInvalid]);
    const emailLogin = await t.post('/api/login', { email: alice, password: DEMO_PASSWORD, auth_type: 'backup' });
    const crossed = await t.post('/api/verify-code', {
      challenge_token: emailLogin.body.challenge_token,
      assertion: aliceAuth.get({ challenge: 'eA', rpId: 'localhost' }),
    });
    expect(crossed.body.error).toEqual([MSG.invalidCode]);
    // neither, or both
    const neither = await t.post('/api/verify-code', { challenge_token: emailLogin.body.challenge_token });
    expect(neither.body.fields).toEqual({ code: [MSG.required] });
    const both = await t.post('/api/verify-code', {
      challenge_token: emailLogin.body.challenge_token,
      code: '123456',
      assertion: aliceAuth.get({ challenge: 'eA', rpId: 'localhost' }),
    });
    expect(Object.keys(both.body.fields)).toEqual(['assertion']);

    // the counter: good with a higher one, refused when it stays or goes back
    const good = await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { counter: 10 }) }));
    expect(good.status).toBe(200);
    const same = await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { counter: 10 }) }));
    expect(same.status).toBe(401);
    const back = await attempt(alice, (o) => ({ assertion: aliceAuth.get(o, { counter: 3 }) }));
    expect(back.status).toBe(401);
    const kept = (await keysOf(alice)).find(
      (k) => k.credentialId === aliceAuth.credentials[0].id.toString('base64url'),
    );
    expect(kept?.counter).toBe(10);
  });

  it('counts the tries of a challenge (429 past them) and a deleted passkey no longer signs in', async () => {
    const email = 'reviewer@obol.example';
    const auth = new SoftAuthenticator(ORIGIN);
    const token = await session(email);
    const key = await addPasskey(token, auth);
    const login = await loginPasskey(email);
    await t.deps.db
      .update(oneTimeCodes)
      .set({ attempts: 5 })
      .where(eq(oneTimeCodes.challengeHash, sha256(login.body.challenge_token)));
    await t.deps.db.delete(loginThrottle);
    const over = await t.post('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      assertion: auth.get(login.body.passkey_options),
    });
    expect(over.status).toBe(429);

    await t.deps.db.delete(loginThrottle);
    const pending = await loginPasskey(email);
    expect((await t.post('/api/delete-passkey', { id: key.id, current_password: DEMO_PASSWORD }, token)).status).toBe(
      200,
    );
    await t.deps.db.delete(loginThrottle);
    const r = await t.post('/api/verify-code', {
      challenge_token: pending.body.challenge_token,
      assertion: auth.get(pending.body.passkey_options),
    });
    expect(r.status).toBe(401);
    await t.deps.db.delete(loginThrottle);
    expect((await loginPasskey(email)).status).toBe(422);
  });
});

describe('the factor rule: a passkey user no longer signs in with an e-mailed code', () => {
  it('refuses auth_type email (403, nothing mailed) while a passkey is registered; passkey and backup codes sign in', async () => {
    const email = 'payment-ops@obol.example';
    const auth = new SoftAuthenticator(ORIGIN);
    const token = await session(email);
    // a code mailed before the passkey, not yet used
    const early = await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'email' });
    expect(early.status).toBe(200);
    const earlyCode = t.lastMailTo(email)!.code;
    const key = await addPasskey(token, auth);
    const file = await t.post('/api/export-backup-code', { email, password: DEMO_PASSWORD }, token);
    const backup = file.text.match(/^[A-Z0-9]{5}-[A-Z0-9]{5}$/m)![0];
    await t.deps.db.delete(loginThrottle);

    const mails = t.mails.length;
    const refused = await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'email' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: [MSG.emailCodeRefused], fields: { auth_type: [MSG.emailCodeRefused] } });
    expect(t.mails.length).toBe(mails);
    const stale = await t.post('/api/verify-code', { challenge_token: early.body.challenge_token, code: earlyCode });
    expect(stale.status).toBe(403);
    expect(stale.body.error).toEqual([MSG.emailCodeRefused]);

    const login = await loginPasskey(email);
    const signed = await t.post('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      assertion: auth.get(login.body.passkey_options),
    });
    expect(signed.status).toBe(200);
    const viaBackup = await t.post('/api/login', { email, password: DEMO_PASSWORD, auth_type: 'backup' });
    expect(viaBackup.status).toBe(200);
    expect(
      (await t.post('/api/verify-code', { challenge_token: viaBackup.body.challenge_token, code: backup })).status,
    ).toBe(200);

    // with the passkey removed, the e-mailed code signs in again
    expect((await t.post('/api/delete-passkey', { id: key.id, current_password: DEMO_PASSWORD }, token)).status).toBe(
      200,
    );
    await t.deps.db.delete(loginThrottle);
    await expect(t.signIn(email)).resolves.toEqual(expect.any(String));
  });
});

// The session's foreign key is declared in SQL only: passkeys lie below auth, whose tables they do not import
// (decisions/039).
describe('a registration challenge', () => {
  it('belongs to a session: the database refuses one for a session that does not exist', async () => {
    const err = await t.deps.db
      .insert(passkeyChallenges)
      .values({
        userId: await userId('reviewer@obol.example'),
        sessionId: -1,
        challengeHash: sha256(`orphan-${Date.now()}`),
        expiresAt: new Date(Date.now() + 60_000),
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(`${String(err)} ${String((err as { cause?: unknown })?.cause)}`).toMatch(
      /passkey_challenges_session_id_sessions_id_fk/,
    );
  });
});
