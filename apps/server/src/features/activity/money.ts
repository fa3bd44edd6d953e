import { sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { activityLog } from '../../platform/tables.ts';
import { eventsAfter, type MoneyEvent } from '../engine/events.ts';
import { activityCursor } from './tables.ts';

/** How often each process looks for committed money events to record (one records at a time: the cursor is locked). */
export const RECORD_EVERY_MS = 1000;
/** Events recorded a transaction (a full page: the recorder goes on at once). */
export const RECORD_PAGE = 500;

/** The name the movements' records carry: the platform recorded them, from what committed. */
export const MONEY_EVENTS_ACTOR = 'Obol';

/**
 * A movement's record: 'payout.created', then 'payout.completed', 'refund.declined', '2d.pending-approval' (the
 * table's own word, the outbox's `to`), targeting the movement, its status before and after.
 */
export function moneyRecordOf(e: MoneyEvent): typeof activityLog.$inferInsert {
  const word = e.from === null ? 'created' : e.to.toLowerCase().replace(/[\s_]+/g, '-');
  return {
    userId: null,
    userName: MONEY_EVENTS_ACTOR,
    userEmail: null,
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
    outcome: 'success',
    statusCode: 200,
    detail: `${e.from ?? 'new'} -> ${e.to}`,
    ip: null,
    requestId: null,
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
    await tx.insert(activityLog).values(events.map(moneyRecordOf));
    return events.length;
  });
}

/** The last outbox event the activity log recorded (the pruning of the outbox keeps what comes after it). */
export async function activityCursorEventId(deps: Pick<Deps, 'db'>): Promise<number> {
  const [row] = await deps.db.select({ id: activityCursor.lastEventId }).from(activityCursor);
  return row?.id ?? 0;
}
