import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { countDeleted } from '../../platform/housekeeping.ts';
import { yieldToRequests } from '../../platform/turns.ts';

/** An event is kept at least this long: an open screen that reconnects within it resumes where it was (036). */
export const KEEP_EVENTS_DAYS = 7;
/** Deleted this many a statement, so a long backlog does not hold one statement for minutes. */
const CHUNK = 10_000;

/**
 * Deletes the outbox's events that every reader is done with: those before (in the readers' order: transaction,
 * then id) the first event that is either one a cursor points at (`consumed`: the last event each durable reader,
 * the webhooks' dispatch and the activity log, has taken; their owners hand them in) or younger than
 * KEEP_EVENTS_DAYS (open screens, whose cursors live in their connections, resume within it). What goes is a
 * prefix of that order and every cursor's own event stays, so `eventsAfter` reads on from any cursor as before.
 * A cursor at 0 (it has read nothing yet) keeps everything. Answers how many went.
 */
export async function pruneMoneyEvents(db: Executor, consumed: number[], keepDays = KEEP_EVENTS_DAYS) {
  if (!consumed.length || consumed.some((id) => id <= 0)) return 0;
  const ids = sql.join(
    consumed.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  const [bound] = rowsOf<{ tx: string; id: string | number }>(
    await db.execute(sql`SELECT tx::text AS tx, id FROM (
        (SELECT tx, id FROM money_events WHERE id IN (${ids}) ORDER BY tx, id LIMIT 1)
        UNION ALL
        (SELECT tx, id FROM money_events WHERE at >= now() - make_interval(days => ${keepDays}::int)
         ORDER BY tx, id LIMIT 1)) b
      ORDER BY b.tx, b.id LIMIT 1`),
  );
  // no cursor's event and nothing recent: something is off, keep everything
  if (!bound) return 0;
  let pruned = 0;
  for (;;) {
    const n = await countDeleted(
      db,
      sql`WITH d AS (DELETE FROM money_events WHERE id IN (
            SELECT id FROM money_events WHERE (tx, id) < (${bound.tx}::xid8, ${Number(bound.id)}::bigint)
            ORDER BY tx, id LIMIT ${CHUNK}) RETURNING 1)
          SELECT count(*)::int AS n FROM d`,
    );
    pruned += n;
    if (n < CHUNK) return pruned;
    await yieldToRequests();
  }
}
