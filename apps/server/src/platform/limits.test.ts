import { tryAgainIn } from '@obol/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, startTestApp, type TestApp } from '../test/harness.ts';
import { loginThrottle } from '../features/auth/tables.ts';
import { trustedDevice } from '../features/auth/devices.ts';
import { userIdByEmail } from '../seed.ts';
import { holderReference } from '../features/ledger/accounts.ts';
import { giveBack, hit } from './limits.ts';
import { mailOutbox, rateLimits } from '../schema.ts';
import { makePayouts } from '../test/payouts.ts';
import { settleMovement } from '../features/engine/settle.ts';
import { payoutMovement } from '../features/batches/payout-movement.ts';
import { payouts } from '../features/payouts/tables.ts';

let t: TestApp;
beforeAll(async () => {
  // behind a proxy on the loopback address, as a deployment behind a reverse proxy is
  t = await startTestApp({ TRUST_PROXY: 'loopback' });
});
afterAll(async () => {
  await t?.close();
});

const row = async (key: string) => (await t.deps.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0];
/** moves a window's start back, as if that much time had passed */
const age = (key: string, seconds: number) =>
  t.deps.db
    .update(rateLimits)
    .set({ windowStart: sql`${rateLimits.windowStart} - make_interval(secs => ${seconds}::int)` })
    .where(eq(rateLimits.key, key));

describe('hit: a fixed-window counter', () => {
  it('allows up to the limit, refuses after without counting, and says when the window ends', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await hit(t.deps.db, 'unit:a', 3, 600));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false, false]);
    expect(answers.map((a) => a.count)).toEqual([1, 2, 3, 3, 3]);
    expect(answers[2].retryAfter).toBe(0);
    expect(answers[3].retryAfter).toBeGreaterThan(590);
    expect(answers[3].retryAfter).toBeLessThanOrEqual(600);
    expect((await row('unit:a')).count).toBe(3);
    // another key has its own window
    expect((await hit(t.deps.db, 'unit:b', 3, 600)).allowed).toBe(true);
  });

  it('starts a new window once the last one ended', async () => {
    for (let i = 0; i < 2; i++) await hit(t.deps.db, 'unit:c', 2, 60);
    expect((await hit(t.deps.db, 'unit:c', 2, 60)).allowed).toBe(false);
    await age('unit:c', 50);
    const later = await hit(t.deps.db, 'unit:c', 2, 60);
    expect(later.allowed).toBe(false);
    expect(later.retryAfter).toBeLessThanOrEqual(10);
    await age('unit:c', 11);
    const fresh = await hit(t.deps.db, 'unit:c', 2, 60);
    expect(fresh).toMatchObject({ allowed: true, count: 1 });
    expect(Date.now() - (await row('unit:c')).windowStart.getTime()).toBeLessThan(5_000);
  });

  it('takes an event back within its window only', async () => {
    const first = await hit(t.deps.db, 'unit:d', 2, 60);
    const second = await hit(t.deps.db, 'unit:d', 2, 60);
    expect((await hit(t.deps.db, 'unit:d', 2, 60)).allowed).toBe(false);
    await giveBack(t.deps.db, 'unit:d', second);
    expect((await row('unit:d')).count).toBe(1);
    const third = await hit(t.deps.db, 'unit:d', 2, 60);
    expect(third).toMatchObject({ allowed: true, count: 2 });
    // a refused event has nothing to give back
    await giveBack(t.deps.db, 'unit:d', await hit(t.deps.db, 'unit:d', 2, 60));
    expect((await row('unit:d')).count).toBe(2);
    // once a new window started, an event of the old one is not taken from it
    await age('unit:d', 61);
    expect((await hit(t.deps.db, 'unit:d', 2, 60)).count).toBe(1);
    await giveBack(t.deps.db, 'unit:d', first);
    expect((await row('unit:d')).count).toBe(1);
  });

  it('never allows more than the limit, however many requests race on one key', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => hit(t.deps.db, 'unit:race', 25, 600)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(25);
    expect(new Set(answers.filter((a) => a.allowed).map((a) => a.count)).size).toBe(25);
    expect((await row('unit:race')).count).toBe(25);
  });
});

describe('the client address the limits per address count', () => {
  it('is what a trusted proxy forwards, and the peer itself otherwise', async () => {
    const fail = (headers: Record<string, string>, remoteAddress?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: 'nobody@obol.example', password: 'Wrong@pass1', auth_type: 'email' },
        headers,
        remoteAddress,
      });
    // through the proxy (loopback): the address it forwards
    expect((await fail({ 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(401);
    // straight from a client: its own address, whatever header it sends
    expect((await fail({ 'x-forwarded-for': '203.0.113.8' }, '192.0.2.9')).statusCode).toBe(401);
    const keys = await t.deps.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(sql`${rateLimits.key} LIKE 'signInAddress:%'`)
      .orderBy(rateLimits.key);
    expect(keys.map((k) => k.key)).toEqual(['signInAddress:192.0.2.9', 'signInAddress:203.0.113.7']);
  });
});

describe("the account's delay cannot be turned against its owner (device marks)", () => {
  const email = 'supervisor-b@obol.example';
  /** a POST through the proxy, from `from`, with the browser's cookie */
  const send = (url: string, payload: object, from: string, cookie?: string, proto = 'http') =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'x-forwarded-for': from, 'x-forwarded-proto': proto, ...(cookie ? { cookie } : {}) },
    });
  const login = (from: string, cookie?: string, password = DEMO_PASSWORD, who = email) =>
    send('/api/login', { email: who, password, auth_type: 'email' }, from, cookie);
  /** password and mailed code; the answers of both steps */
  async function signIn(from: string, cookie?: string, who = email, proto = 'http') {
    const first = await send(
      '/api/login',
      { email: who, password: DEMO_PASSWORD, auth_type: 'email' },
      from,
      cookie,
      proto,
    );
    if (first.statusCode !== 200) return { first };
    const code = t.lastMailTo(who)!.code;
    const second = await send(
      '/api/verify-code',
      { challenge_token: first.json().challenge_token, code },
      from,
      cookie,
      proto,
    );
    return { first, second };
  }
  const markOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0];

  it('lets the owner in first try from a marked browser while 40 addresses guess; without the mark the owner waits', async () => {
    const rule = t.deps.config.limits.account;
    const saved = { ...rule };
    // a minute between attempts once the free ones are spent, so that a slow machine cannot outwait the delay
    Object.assign(rule, { firstDelaySeconds: 60, maxDelaySeconds: 60 });
    try {
      const earlier = await signIn('198.51.100.10');
      expect(earlier.second?.statusCode).toBe(200);
      const setCookie = String(earlier.second!.headers['set-cookie']);
      expect(setCookie).toMatch(
        /^obol_device=[A-Za-z0-9_-]{24}\.[0-9a-f]{32}; Max-Age=31536000; Path=\/api; HttpOnly; SameSite=Strict$/,
      );
      const mark = markOf(earlier.second!);

      // 40 addresses, each far under its own limit, guess the password: 5 are checked, then the account waits
      const guesses: number[] = [];
      for (let i = 1; i <= 40; i++)
        guesses.push((await login(`203.0.113.${i}`, undefined, `Wrong@pass${i}`)).statusCode);
      expect(guesses.filter((s) => s === 401)).toHaveLength(5);
      expect(guesses.filter((s) => s === 429)).toHaveLength(35);

      // the owner without the mark, from a clean address, waits behind the guessers
      const bare = await login('198.51.100.20');
      expect(bare.statusCode).toBe(429);
      expect(Number(bare.headers['retry-after'])).toBeGreaterThan(30);
      // a mark that does not verify for this account counts as none: forged, or another account's
      const [id] = mark.slice('obol_device='.length).split('.');
      expect((await login('198.51.100.20', `obol_device=${id}.${'0'.repeat(32)}`)).statusCode).toBe(429);
      const other = await signIn('198.51.100.30', undefined, 'reviewer@obol.example');
      expect((await login('198.51.100.20', markOf(other.second!))).statusCode).toBe(429);

      // the owner with the mark, from yet another address: password and code, first try
      const owner = await signIn('198.51.100.21', mark);
      expect(owner.first.statusCode).toBe(200);
      expect(owner.second?.statusCode).toBe(200);
      expect(markOf(owner.second!)).toBe(mark);
      // which did not give the guessers fresh attempts
      expect((await login('203.0.113.99', undefined, 'Wrong@pass99')).statusCode).toBe(429);

      // the mark has a delay of its own: 5 wrong passwords, then it waits too (a stolen mark guesses no faster)
      for (let i = 0; i < 5; i++) expect((await login('198.51.100.22', mark, 'Wrong@pass0')).statusCode).toBe(401);
      expect((await login('198.51.100.22', mark)).statusCode).toBe(429);
    } finally {
      Object.assign(rule, saved);
      await t.deps.db.delete(loginThrottle);
    }
  });

  it("keeps the browser's marks of other accounts, and is Secure on https", async () => {
    const a = await signIn('198.51.100.40', undefined, 'finance@obol.example');
    const markA = markOf(a.second!);
    const b = await signIn('198.51.100.40', markA, 'accountant@obol.example', 'https');
    const setCookie = String(b.second!.headers['set-cookie']);
    expect(setCookie.split('; ')).toContain('Secure');
    const marks = markOf(b.second!).slice('obol_device='.length).split('~');
    expect(marks).toHaveLength(2);
    expect(marks[1]).toBe(markA.slice('obol_device='.length));
    // both accounts' marks verify from the one cookie, each for its own account only
    const cookie = markOf(b.second!);
    const key = t.deps.config.secretsKey;
    expect(trustedDevice(key, cookie, 'finance@obol.example')).toBe(markA.slice('obol_device='.length).split('.')[0]);
    expect(trustedDevice(key, cookie, 'accountant@obol.example')).toBe(marks[0].split('.')[0]);
    expect(trustedDevice(key, cookie, 'manager@obol.example')).toBeUndefined();
  });
});

describe('per-user limits through the API', () => {
  let merchant: string;
  let merchant2: string;
  let merchantId: number;
  beforeAll(async () => {
    merchant = await t.signIn('merchant@obol.example');
    merchant2 = await t.signIn('merchant2@obol.example');
    merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  });

  const expect429 = (
    r: { status: number; body: { error: string[] }; headers: Record<string, unknown> },
    what: string,
  ) => {
    expect(r.status).toBe(429);
    const wait = Number(r.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(600);
    expect(r.body).toEqual({ error: [tryAgainIn(wait, what)] });
  };

  it('approval codes: 20 per 10 minutes per user, then 429 sending nothing', async () => {
    const ask = (token: string) => t.post('/api/request-code', { amount: 1000, obol_id: '100000001' }, token);
    for (let i = 0; i < 20; i++) expect((await ask(merchant)).status).toBe(200);
    const mails = t.mails.length;
    const outbox = (await t.deps.db.select().from(mailOutbox)).length;
    expect429(await ask(merchant), 'code requests');
    expect(t.mails.length).toBe(mails);
    expect(await t.deps.db.select().from(mailOutbox)).toHaveLength(outbox);
    // another user is not affected
    expect((await ask(merchant2)).status).toBe(200);
  });

  it('uploads: 30 per 10 minutes per user, counted before the file is read', async () => {
    const upload = (token: string) =>
      t.upload(
        '/api/upload-transactions',
        { file_name: 'notes.txt', behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) },
        { name: 'notes.txt', content: 'hello' },
        token,
      );
    for (let i = 0; i < 30; i++) expect((await upload(merchant)).status).toBe(400);
    expect429(await upload(merchant), 'uploads');
    // a window that ended starts over
    await age(`upload:${merchantId}`, 601);
    expect((await upload(merchant)).status).toBe(400);
  });

  it('exports: 20 per 10 minutes per user, all kinds together', async () => {
    // each merchant has a payout and a completed one to export (an export that matches nothing is a 404)
    for (const email of ['merchant@obol.example', 'merchant2@obol.example']) {
      const [, done] = await makePayouts(t.deps, (await userIdByEmail(t.deps.db, email))!, 2, 'limits');
      const [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, done));
      await settleMovement(t.deps, payoutMovement, { key: p.idempotencyKey, status: 'Completed' });
    }
    const before = (await t.post('/api/download-files', { type: 0 }, merchant)).body.total;
    for (let i = 0; i < 10; i++)
      expect((await t.post('/api/export-payout-transactions', {}, merchant)).status).toBe(200);
    for (let i = 0; i < 10; i++)
      expect((await t.post('/api/export-completed-transactions', {}, merchant)).status).toBe(200);
    expect429(await t.post('/api/export-payout-transactions', {}, merchant), 'exports');
    expect429(await t.post('/api/export-batch-history', { batch_id: 'B-ANY' }, merchant), 'exports');
    expect((await t.post('/api/download-files', { type: 0 }, merchant)).body.total).toBe(before + 20);
    expect((await t.post('/api/export-payout-transactions', {}, merchant2)).status).toBe(200);
  });
});
