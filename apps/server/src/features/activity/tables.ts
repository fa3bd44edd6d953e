import { integer, pgTable } from 'drizzle-orm/pg-core';
import { bigNumber } from '../../platform/columns.ts';

/**
 * How far the activity log has read the outbox (money_events): one row, the last event turned into a record.
 * Taken FOR UPDATE SKIP LOCKED by the one process that records at a time (money.ts).
 */
export const activityCursor = pgTable('activity_cursor', {
  id: integer('id').primaryKey(),
  lastEventId: bigNumber('last_event_id').notNull(),
});
