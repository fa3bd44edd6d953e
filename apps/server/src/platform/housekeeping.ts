import { sql } from 'drizzle-orm';
import { rowsOf } from './db.ts';
import type { Deps } from './deps.ts';
import type { Limits, RateWindow } from './limit-rules.ts';

/** How long a used or expired passkey challenge is kept (for an investigation of a failed registration). */
export const PASSKEY_CHALLENGE_KEEP_SECONDS = 24 * 60 * 60;

/** The longest fixed window of the rate limits: a counter older than it can only be reset by its next event. */
export function longestWindowSeconds(limits: Limits): number {
  const windows = Object.values(limits).filter((v): v is RateWindow => typeof v?.seconds === 'number');
  return Math.max(0, ...windows.map((w) => w.seconds));
}

export interface Pruned {
  rateLimits: number;
  loginThrottle: number;
  passkeyChallenges: number;
}

/**
 * Deletes the rows of the throttles and challenges that no longer decide anything, so the tables do not grow with
 * every address and e-mail ever seen. Each delete removes only rows whose next use would start over anyway:
 * - rate_limits: a window that ended longer ago than the longest window (its next event starts a new one);
 * - login_throttle: an account quiet for `quietSeconds` whose delay has passed (its next attempt counts as the
 *   first, see claimAttempt);
 * - passkey_challenges: expired or used a day ago (a challenge is only ever accepted unused and unexpired).
 * One statement each, so an event racing a delete either counts in the old row before it goes or creates a new
 * row after it; neither outcome lets more attempts through than the rules allow.
 */
export async function pruneThrottles(deps: Pick<Deps, 'db' | 'config'>): Promise<Pruned> {
  const longest = longestWindowSeconds(deps.config.limits);
  const quiet = deps.config.limits.account.quietSeconds;
  const count = async (q: ReturnType<typeof sql>) => Number(rowsOf<{ n: number }>(await deps.db.execute(q))[0]?.n ?? 0);
  const rateLimits = await count(sql`
    WITH d AS (DELETE FROM rate_limits WHERE window_start <= now() - make_interval(secs => ${longest}::int) RETURNING 1)
    SELECT count(*)::int AS n FROM d`);
  const loginThrottle = await count(sql`
    WITH d AS (DELETE FROM login_throttle
      WHERE updated_at <= now() - make_interval(secs => ${quiet}::int) AND next_attempt_at <= now() RETURNING 1)
    SELECT count(*)::int AS n FROM d`);
  const passkeyChallenges = await count(sql`
    WITH d AS (DELETE FROM passkey_challenges
      WHERE coalesce(used_at, expires_at) <= now() - make_interval(secs => ${PASSKEY_CHALLENGE_KEEP_SECONDS}::int)
      RETURNING 1)
    SELECT count(*)::int AS n FROM d`);
  return { rateLimits, loginThrottle, passkeyChallenges };
}
