import type { ReconciliationDifference } from '@obol/contract';
import { bigserial, jsonb, pgTable, text, timestamp, uniqueIndex, integer } from 'drizzle-orm/pg-core';

/** Every webhook event received from the provider, once: a duplicate delivery finds its event_id here. */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    /** applied, ignored (nothing to do, e.g. an older state) */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_events_event_id_key').on(t.eventId)],
);

/** The result of comparing the provider's statement with our books. */
export const reconciliationReports = pgTable('reconciliation_reports', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }).notNull().defaultNow(),
  checked: integer('checked').notNull(),
  differences: jsonb('differences').$type<ReconciliationDifference[]>().notNull(),
});

export type { ReconciliationDifference };
