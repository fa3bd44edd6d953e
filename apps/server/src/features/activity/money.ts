import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { activityLog } from '../../platform/tables.ts';
import { eventsAfter, type MoneyEvent } from '../engine/events.ts';
import { activityCursor } from './tables.ts';

/** How often each process looks for committed money events to record (one records at a time: the cursor is locked). */
export const RECORD_EVERY_MS = 1000;
/** Events recorded a transaction (a full page: the recorder goes on at once, unless money is moving). */
export const RECORD_PAGE = 500;
/**
 * Money is moving while the newest outbox event is younger than this: the recorder then records a page a tick, and the
 * rest at once when it stops. Each record joins the activity log's chain, whose head every money command's own record
 * waits for (011): a 20,000-payout batch settled at 1,213-1,481 payouts/s while the recorder caught up page after page
 * beside it, 2,061-2,190/s (as before the recorder) with a page a tick while money moves (bench:payouts).
 */
export const MOVING_MS = 1000;

/** The name the movements' records carry: the platform recorded them, from what committed. */
export const MONEY_EVENTS_ACTOR = 'Obol';

/**
 * A movement's record: 'payout.created', then 'payout.completed', 'refund.declined', '2d.pending-approval' (the
 * table's own word, the outbox's `to`), targeting the movement, its status before and after. The columns every such
 * record shares (the actor, no user, success) are written by insertRecords.
 */
export function moneyRecordOf(e: MoneyEvent) {
  const word = e.from === null ? 'created' : e.to.toLowerCase().replace(/[\s_]+/g, '-');
  return {
    action: `${e.kind}.${word}`,
    targetType: e.kind,
    targetId: e.objectId,
    before: e.from === null ? null : { status: e.from },
    after: {
      status: e.to,
      amount: e.amount,
      merchant_id: e.merchantId,
      holder_id: e.holderId,
      event_id: e.id,
      at: e.at.toISOString(),
    },
    detail: `${e.from ?? 'new'} -> ${e.to}`,
  };
}

/**
 * The activity log's reader of the outbox: the money events committed after the cursor become one record each, in
 * the transaction that moves the cursor, so each is recorded exactly once and only after its own transaction
 * committed (eventsAfter reads in commit order). The commands still record who asked (010); what the money did is
 * recorded from here. With several processes one records and the others return at once (SKIP LOCKED). The records
 * are inserted last in the transaction, one statement: they hold the chain's head only until the commit (011).
 * Answers how many it recorded.
 */
export async function recordMoneyEvents(deps: Pick<Deps, 'db'>, limit = RECORD_PAGE): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const [cursor] = rowsOf<{ last_event_id: string | number }>(
      await tx.execute(sql`SELECT last_event_id FROM ${activityCursor} WHERE id = 1 FOR UPDATE SKIP LOCKED`),
    );
    if (!cursor) return 0;
    const events = await eventsAfter(tx, Number(cursor.last_event_id), { kind: 'all' }, limit);
    if (!events.length) return 0;
    await tx.execute(sql`UPDATE ${activityCursor} SET last_event_id = ${events[events.length - 1].id} WHERE id = 1`);
    await insertRecords(tx, events.map(moneyRecordOf));
    return events.length;
  });
}

/**
 * One statement, the varying columns as arrays (unnest, in the page's order: the chain's order). A page of 500
 * through drizzle's multi-row insert (8,000 parameters) took 88-154 ms against 33-57 ms this way, holding the chain's
 * head all along; a 20,000-payout batch's log caught up at +15.7-16.6 s against +18.1-19.7 s (bench:payouts).
 */
async function insertRecords(tx: Executor, recs: ReturnType<typeof moneyRecordOf>[]): Promise<void> {
  const col = (f: (r: (typeof recs)[number]) => string) => sql.param(recs.map(f));
  const json = (f: (r: (typeof recs)[number]) => object | null) =>
    sql.param(recs.map((r) => (f(r) === null ? null : JSON.stringify(f(r)))));
  await tx.execute(sql`
    INSERT INTO ${activityLog} (user_name, action, target_type, target_id, before, after, outcome, status_code, detail)
    SELECT ${MONEY_EVENTS_ACTOR}, u.action, u.target_type, u.target_id, u.before, u.after, 'success', 200, u.detail
    FROM unnest(
      ${col((r) => r.action)}::text[], ${col((r) => r.targetType)}::text[], ${col((r) => r.targetId)}::text[],
      ${json((r) => r.before)}::jsonb[], ${json((r) => r.after)}::jsonb[], ${col((r) => r.detail)}::text[]
    ) WITH ORDINALITY AS u(action, target_type, target_id, before, after, detail, n)
    ORDER BY u.n`);
}

/** The last outbox event the activity log recorded (the pruning of the outbox keeps what comes after it). */
export async function activityCursorEventId(deps: Pick<Deps, 'db'>): Promise<number> {
  const [row] = await deps.db.select({ id: activityCursor.lastEventId }).from(activityCursor);
  return row?.id ?? 0;
}
