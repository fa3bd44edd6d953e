import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { keyOf, type Movement, type MovementRow } from './movement.ts';
import { settleMovements, settlementOf, type MovementSettlement } from './settle.ts';
import { submitMovements } from './submit.ts';

// The engine's recover path: what a dead process, a lost answer or a lost webhook left in flight.

/** How often each process runs the recover path (and once at start). */
export const RECOVER_EVERY_MS = 15_000;

/** What one recovery pass did. */
export interface RecoveryResult {
  /** in flight longer than the threshold, asked of the provider */
  asked: number;
  /** settled from the provider's answer (Completed or Failed there) */
  settled: number;
  /** never received by the provider: sent again with the same idempotency key */
  resent: number;
  /** taken by the provider, whose id we had not recorded yet */
  accepted: number;
  /** known to us as sent, unknown to the provider: left for reconciliation to report */
  unknown: number;
}

/**
 * The one recover path, for every kind: those a dead process, a lost answer or a lost webhook left in flight for
 * `olderThanMs` are looked up at the provider under their keys (a page at a time, in one call where the kind looks
 * up many); the ones it settled are settled from its answer, exactly once (a webhook racing this changes
 * nothing); one it never received is sent again under the same key, so it is paid at most once; one it took
 * whose id we lack gets it.
 */
export async function recoverMovements<R extends MovementRow>(
  deps: Deps,
  m: Movement<R>,
  olderThanMs = typeof m.recoverAfterMs === 'function' ? m.recoverAfterMs(deps.config) : m.recoverAfterMs,
  limit = 20_000,
): Promise<RecoveryResult> {
  const r: RecoveryResult = { asked: 0, settled: 0, resent: 0, accepted: 0, unknown: 0 };
  let afterId = 0;
  while (r.asked < limit) {
    const stale = (await deps.db
      .select()
      .from(m.table)
      .where(
        and(
          eq(m.columns.status, 'in_flight'),
          gt(m.columns.id, afterId),
          lt(m.columns.since, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
        ),
      )
      .orderBy(m.columns.id)
      .limit(1000)) as R[];
    if (!stale.length) break;
    afterId = stale[stale.length - 1].id;
    const asked = stale.filter((row) => keyOf(m, row));
    r.asked += asked.length;
    const keys = asked.map((row) => keyOf(m, row)!);
    const items = m.lookupMany
      ? await m.lookupMany(deps.provider, keys)
      : (await Promise.all(keys.map((k) => m.lookup(deps.provider, k)))).flatMap((i) => (i ? [i] : []));
    const found = new Map(items.map((i) => [i.idempotency_key, i]));
    const settle: MovementSettlement[] = [];
    const resend: number[] = [];
    for (const row of asked) {
      const item = found.get(keyOf(m, row)!);
      const word = item && settlementOf(m, item);
      if (!item) {
        if (row.providerId) r.unknown += 1;
        else resend.push(row.id);
      } else if (word) {
        if (item.amount !== row.amount) {
          deps.log.error(
            { [m.kind]: row.id, ours: row.amount, theirs: item.amount },
            `${m.kind} amount differs at provider`,
          );
          continue;
        }
        settle.push(word);
      } else if (!row.providerId) {
        await deps.db
          .update(m.table)
          .set({ ...m.sentColumns?.(), providerId: item.id } as never)
          .where(and(eq(m.columns.id, row.id), isNull(m.columns.providerId)));
        r.accepted += 1;
      }
    }
    if (settle.length) r.settled += (await deps.db.transaction((tx) => settleMovements(tx, m, settle))).size;
    if (resend.length) {
      await submitMovements(deps, m, resend);
      r.resent += resend.length;
    }
  }
  if (r.settled || r.resent || r.unknown)
    deps.log[r.unknown ? 'warn' : 'info']({ kind: m.kind, ...r }, `recovered ${m.kind}s in flight`);
  return r;
}
