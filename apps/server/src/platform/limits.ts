import { tryAgainIn } from '@obol/contract';
import { sql } from 'drizzle-orm';
import type { Limits, RateWindow } from './limit-rules.ts';
import { rowsOf, type Executor } from './db.ts';
import type { Deps } from './deps.ts';
import { tooManyRequests } from './errors.ts';

/** The answer of one counted event: whether it fits the window, and if not, how long until the window ends. */
export interface Hit {
  allowed: boolean;
  /** events counted in the window, this one included when allowed */
  count: number;
  /** whole seconds until the window ends (0 when allowed) */
  retryAfter: number;
  /** the window the event was counted in (give it back with `giveBack`) */
  window: string | null;
}

/**
 * Counts one event for `key` in a fixed window of `windowSeconds` and says whether it fits within `limit`.
 * One statement (INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING) on `rate_limits`: the row is
 * locked while it is counted, so requests racing on one key cannot exceed the limit on either engine. An
 * event refused is not counted. The window starts at the first event and a new one starts after it ends.
 */
export async function hit(db: Executor, key: string, limit: number, windowSeconds: number): Promise<Hit> {
  const expired = sql`r.window_start <= now() - make_interval(secs => ${windowSeconds}::int)`;
  const counted = rowsOf<{ count: number; window: string }>(
    await db.execute(sql`
      INSERT INTO rate_limits AS r (key, window_start, count) VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN ${expired} THEN now() ELSE r.window_start END,
        count = CASE WHEN ${expired} THEN 1 ELSE r.count + 1 END
      WHERE r.count < ${limit}::int OR ${expired}
      RETURNING r.count, r.window_start::text AS window`),
  );
  if (counted.length)
    return { allowed: true, count: Number(counted[0].count), retryAfter: 0, window: counted[0].window };
  const [full] = rowsOf<{ count: number; retry_after: number }>(
    await db.execute(sql`
      SELECT count, greatest(1, ceil(extract(epoch FROM
        window_start + make_interval(secs => ${windowSeconds}::int) - clock_timestamp())))::int AS retry_after
      FROM rate_limits WHERE key = ${key}`),
  );
  return {
    allowed: false,
    count: Number(full?.count ?? limit),
    retryAfter: Number(full?.retry_after ?? 1),
    window: null,
  };
}

/** Takes back an event counted by `hit` (a sign-in that succeeded was no failure), within the same window only. */
export async function giveBack(db: Executor, key: string, counted: Hit): Promise<void> {
  if (!counted.allowed || !counted.window) return;
  await db.execute(sql`
    UPDATE rate_limits SET count = count - 1
    WHERE key = ${key} AND window_start = ${counted.window}::timestamptz AND count > 0`);
}

type WindowName = { [K in keyof Limits]: Limits[K] extends RateWindow ? K : never }[keyof Limits];

const WHAT: Record<WindowName, string> = {
  signInAddress: 'attempts',
  resetAccount: 'requests',
  resetAddress: 'requests',
  approvalCode: 'code requests',
  upload: 'uploads',
  export: 'exports',
  apiKeyReveal: 'requests',
  twoFa: 'requests',
  invite: 'invitations',
  resendInvitation: 'invitation mails',
  passkey: 'passkey changes',
  merchantApi: 'requests',
  consent: 'requests',
  passwordLinkAddress: 'attempts',
};

/** The rate_limits key of one named window for one subject (a user id, an address, an e-mail). */
export const limitKey = (name: WindowName, who: string | number) => `${name}:${who}`;

/** Counts one event of the named window (config.limits) for `who`; without a check it only reports. */
export const tally = (deps: Pick<Deps, 'db' | 'config'>, name: WindowName, who: string | number) =>
  hit(deps.db, limitKey(name, who), deps.config.limits[name].limit, deps.config.limits[name].seconds);

/**
 * Counts one event of the named window for `who` and refuses it past the limit: 429 'Too many uploads.
 * Please try again in 4 minutes.' with a Retry-After header.
 */
export async function throttle(deps: Pick<Deps, 'db' | 'config'>, name: WindowName, who: string | number) {
  const h = await tally(deps, name, who);
  if (!h.allowed) throw tooManyRequests(tryAgainIn(h.retryAfter, WHAT[name]), h.retryAfter);
  return h;
}
