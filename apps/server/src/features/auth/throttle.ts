import { tryAgainIn } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Limits } from '../../platform/limit-rules.ts';
import { rowsOf } from '../../platform/db.ts';
import { countDeleted } from '../../platform/housekeeping.ts';
import type { Deps } from '../../platform/deps.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import { giveBack, limitKey, throttle } from '../../platform/limits.ts';

type AccountRule = Limits['account'];

/**
 * Deletes the throttles of accounts quiet for `quietSeconds` whose delay has passed: their next attempt counts as
 * the first anyway (claimAttempt). One statement, so a racing attempt counts in the old row or starts a new one.
 */
export async function pruneLoginThrottle(deps: Pick<Deps, 'db' | 'config'>): Promise<number> {
  const quiet = deps.config.limits.account.quietSeconds;
  return countDeleted(
    deps.db,
    sql`WITH d AS (DELETE FROM login_throttle
      WHERE updated_at <= now() - make_interval(secs => ${quiet}::int) AND next_attempt_at <= now() RETURNING 1)
    SELECT count(*)::int AS n FROM d`,
  );
}

/** Seconds the next attempt on an account waits after `attempts` attempts: 0 while free, then 1, 2, 4 ... capped. */
export function delayAfter(attempts: number, rule: AccountRule): number {
  if (attempts < rule.freeAttempts) return 0;
  return Math.min(rule.firstDelaySeconds * 2 ** (attempts - rule.freeAttempts), rule.maxDelaySeconds);
}

/** delayAfter in SQL, as an interval */
const delaySql = (attempts: SQL, rule: AccountRule) => sql`make_interval(secs => CASE
  WHEN ${attempts} < ${rule.freeAttempts}::int THEN 0
  ELSE least(${rule.firstDelaySeconds}::float8 * power(2::float8, (${attempts} - ${rule.freeAttempts}::int)::float8),
             ${rule.maxDelaySeconds}::float8) END)`;

/**
 * Claims one attempt on the account (any e-mail given, whether or not it has an account, so that the answers
 * do not tell them apart) before its password or code is checked: one conditional UPSERT on login_throttle
 * that succeeds only once the previous attempt's delay has passed, and sets the delay of the next one. Racing
 * requests are serialised on the row, so no more attempts are checked than the rule allows. Too early: 429
 * saying when to retry, with Retry-After. Attempts are forgotten after `quietSeconds` without any.
 *
 * The first code tried on a sign-in `challenge` (whose password was just checked under the delay) does not wait
 * out the delay that password attempt set, as long as no other attempt on the account came in between: the
 * owner types the code at once. It still counts, and sets the delay of the next attempt.
 */
export async function claimAttempt(
  deps: Pick<Deps, 'db' | 'config'>,
  email: string,
  challenge?: number,
): Promise<void> {
  const rule = deps.config.limits.account;
  const attempts = sql`(CASE WHEN t.updated_at <= now() - make_interval(secs => ${rule.quietSeconds}::int)
    THEN 1 ELSE t.attempts + 1 END)`;
  const claimed = rowsOf<{ attempts: number }>(
    await deps.db.execute(sql`
      INSERT INTO login_throttle AS t (email, attempts, next_attempt_at, updated_at)
      VALUES (${email}, 1, clock_timestamp() + ${delaySql(sql`1`, rule)}, clock_timestamp())
      ON CONFLICT (email) DO UPDATE SET
        attempts = ${attempts},
        next_attempt_at = clock_timestamp() + ${delaySql(attempts, rule)},
        updated_at = clock_timestamp()
      WHERE t.next_attempt_at <= clock_timestamp()${
        challenge === undefined
          ? sql``
          : sql` OR t.updated_at <= (SELECT created_at FROM one_time_codes WHERE id = ${challenge})`
      }
      RETURNING t.attempts`),
  );
  if (claimed.length) return;
  const [row] = rowsOf<{ retry_after: number }>(
    await deps.db.execute(sql`
      SELECT greatest(1, ceil(extract(epoch FROM next_attempt_at - clock_timestamp())))::int AS retry_after
      FROM login_throttle WHERE email = ${email}`),
  );
  const wait = Number(row?.retry_after ?? 1);
  throw tooManyRequests(tryAgainIn(wait), wait);
}

/** The login_throttle key of a device mark (a space: no e-mail address has one). */
export const deviceKey = (device: string) => `device ${device}`;

/** A completed sign-in (or a right current password) starts the account's (or the device's) attempts over. */
export async function resetAttempts(deps: Pick<Deps, 'db'>, email: string): Promise<void> {
  await deps.db.execute(sql`DELETE FROM login_throttle WHERE email = ${email}`);
}

/**
 * Counts one sign-in step (a password or a second-factor code) before it is checked: first against the
 * client address (failures per address in a fixed window, blocking that address only), then against the
 * account (progressive delay; for `challenge` see claimAttempt), or, for a request with the account's valid
 * device mark (`device`), against that device's own delay instead. Either full: 429 with Retry-After, and
 * nothing is checked. An address slot taken by a step that the account then refuses is given back, as
 * nothing was tried.
 */
export async function beginAttempt(
  deps: Pick<Deps, 'db' | 'config'>,
  email: string,
  ip: string,
  challenge?: number,
  device?: string,
): Promise<Attempt> {
  // a browser with a valid device mark of the account (features/auth/devices.ts) has a delay of its own, so
  // guesses from elsewhere, which fill the account's, do not slow its owner down
  const key = device === undefined ? email : deviceKey(device);
  const address = await throttle(deps, 'signInAddress', ip);
  try {
    await claimAttempt(deps, key, challenge);
  } catch (err) {
    await giveBack(deps.db, limitKey('signInAddress', ip), address);
    throw err;
  }
  return {
    passed: () => giveBack(deps.db, limitKey('signInAddress', ip), address),
    completed: async () => {
      // only the counter this step was counted on: the owner signing in from a marked device does not give
      // the guessers of the account fresh free attempts
      await resetAttempts(deps, key);
      await giveBack(deps.db, limitKey('signInAddress', ip), address);
    },
  };
}

export interface Attempt {
  /** the password was right: no failure of the address (the account's attempt stays until sign-in completes) */
  passed(): Promise<void>;
  /** the sign-in completed (or the current password was right): the account starts over, the address slot returns */
  completed(): Promise<void>;
}
