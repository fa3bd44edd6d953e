import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

/**
 * Every change of a merchant's or brand's fee: before and after in basis points, the reason given and who changed
 * it. Written in the transaction that changes users.fee_bps, under that row's lock, so the history is the exact
 * sequence of fees; payouts keep the fee they were created with (payouts.fee_bps).
 */
export const feeChanges = pgTable(
  'fee_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    holderId: integer('holder_id')
      .notNull()
      .references(() => users.id),
    oldBps: integer('old_bps').notNull(),
    newBps: integer('new_bps').notNull(),
    reason: text('reason').notNull(),
    changedBy: integer('changed_by')
      .notNull()
      .references(() => users.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fee_changes_holder_idx').on(t.holderId, t.changedAt.desc(), t.id.desc())],
);
