import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from './db.ts';
import type { Deps } from './deps.ts';
import type { Limits, RateWindow } from './limit-rules.ts';

/** The longest fixed window of the rate limits: a counter older than it can only be reset by its next event. */
export function longestWindowSeconds(limits: Limits): number {
  const windows = Object.values(limits).filter((v): v is RateWindow => typeof v?.seconds === 'number');
  return Math.max(0, ...windows.map((w) => w.seconds));
}

/** Runs a `WITH d AS (DELETE … RETURNING 1) SELECT count(*)::int AS n FROM d` and answers the count. */
export async function countDeleted(db: Executor, query: ReturnType<typeof sql>): Promise<number> {
  return Number(rowsOf<{ n: number }>(await db.execute(query))[0]?.n ?? 0);
}

/**
 * Deletes the rate-limit windows that ended longer ago than the longest window (their next event starts a new one),
 * so the table does not grow with every address ever seen. One statement: an event racing it either counts in the
 * old row before it goes or creates a new row after it. The features prune their own throttles the same way
 * (auth's login_throttle, passkeys' challenges); the maintenance.prune job (workers.ts) runs them all.
 */
export async function pruneRateLimits(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const longest = longestWindowSeconds(deps.config.limits);
  return countDeleted(
    deps.db,
    sql`WITH d AS (DELETE FROM rate_limits WHERE window_start <= now() - make_interval(secs => ${longest}::int)
      RETURNING 1) SELECT count(*)::int AS n FROM d`,
  );
}
