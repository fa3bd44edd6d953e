import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { claimAttempt } from '../features/auth/throttle.ts';
import { userIdByEmail } from '../seed.ts';
import { hit } from './limits.ts';
import { longestWindowSeconds } from './housekeeping.ts';
import { PASSKEY_CHALLENGE_KEEP_SECONDS } from '../features/passkeys/registration.ts';
import { pruneThrottles } from '../workers.ts';
import { DEFAULT_LIMITS } from './limit-rules.ts';
import { loginThrottle, passkeyChallenges, rateLimits, sessions } from '../schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const back = (seconds: number) => sql`now() - make_interval(secs => ${seconds}::int)`;

describe('pruneThrottles', () => {
  it('takes the longest window of every rate limit', () => {
    expect(longestWindowSeconds(DEFAULT_LIMITS)).toBe(
      Math.max(...Object.values(DEFAULT_LIMITS).flatMap((v) => ('seconds' in v ? [v.seconds] : []))),
    );
  });

  it('deletes only the rows whose next use would start over, and a pruned key counts from one again', async () => {
    const longest = longestWindowSeconds(t.deps.config.limits);
    await hit(t.deps.db, 'prune:old', 5, 60);
    await hit(t.deps.db, 'prune:live', 5, longest);
    await t.deps.db
      .update(rateLimits)
      .set({ windowStart: back(longest + 1) })
      .where(inArray(rateLimits.key, ['prune:old']));
    await t.deps.db
      .update(rateLimits)
      .set({ windowStart: back(longest - 60) })
      .where(inArray(rateLimits.key, ['prune:live']));

    const quiet = t.deps.config.limits.account.quietSeconds;
    await claimAttempt(t.deps, 'quiet@prune.test');
    await claimAttempt(t.deps, 'recent@prune.test');
    await t.deps.db.execute(
      sql`UPDATE login_throttle SET updated_at = ${back(quiet + 1)}, next_attempt_at = ${back(quiet)}
          WHERE email = 'quiet@prune.test'`,
    );
    // quiet long enough but still waiting out a delay: kept
    await claimAttempt(t.deps, 'waiting@prune.test');
    await t.deps.db.execute(
      sql`UPDATE login_throttle SET updated_at = ${back(quiet + 1)}, next_attempt_at = now() + interval '1 minute'
          WHERE email = 'waiting@prune.test'`,
    );

    const userId = (await userIdByEmail(t.deps.db, 'admin@obol.example'))!;
    const [session] = await t.deps.db
      .insert(sessions)
      .values({
        userId,
        tokenHash: `prune-${Date.now()}`,
        idleExpiresAt: sql`now() + interval '1 hour'`,
        expiresAt: sql`now() + interval '1 hour'`,
      })
      .returning({ id: sessions.id });
    const challenge = (hash: string, expiresAt: ReturnType<typeof sql>, usedAt: ReturnType<typeof sql> | null) =>
      t.deps.db
        .insert(passkeyChallenges)
        .values({ userId, sessionId: session.id, challengeHash: hash, expiresAt, usedAt });
    await challenge('prune-expired', back(PASSKEY_CHALLENGE_KEEP_SECONDS + 1), null);
    await challenge('prune-used', sql`now() + interval '5 minutes'`, back(PASSKEY_CHALLENGE_KEEP_SECONDS + 1));
    await challenge('prune-open', sql`now() + interval '5 minutes'`, null);
    await challenge('prune-just-expired', back(60), null);

    const pruned = await pruneThrottles(t.deps);
    expect(pruned.rateLimits).toBeGreaterThanOrEqual(1);
    expect(pruned.loginThrottle).toBeGreaterThanOrEqual(1);
    expect(pruned.passkeyChallenges).toBeGreaterThanOrEqual(2);

    const keys = (
      await t.deps.db
        .select()
        .from(rateLimits)
        .where(inArray(rateLimits.key, ['prune:old', 'prune:live']))
    ).map((r) => r.key);
    expect(keys).toEqual(['prune:live']);
    const emails = (await t.deps.db.select().from(loginThrottle))
      .map((r) => r.email)
      .filter((e) => e.endsWith('@prune.test'));
    expect(emails.sort()).toEqual(['recent@prune.test', 'waiting@prune.test']);
    const hashes = (await t.deps.db.select().from(passkeyChallenges))
      .map((r) => r.challengeHash)
      .filter((h) => h.startsWith('prune-'));
    expect(hashes.sort()).toEqual(['prune-just-expired', 'prune-open']);

    // the pruned counter starts a new window, as its next event would have without the prune
    expect(await hit(t.deps.db, 'prune:old', 5, 60)).toMatchObject({ allowed: true, count: 1 });
    // and a second run has nothing left to do
    expect(await pruneThrottles(t.deps)).toEqual({ rateLimits: 0, loginThrottle: 0, passkeyChallenges: 0 });
  });
});
