import type { ReconciliationDifference } from '@obol/contract';
import { jsonb, pgTable, text, uniqueIndex, integer } from 'drizzle-orm/pg-core';
import { bigId, moment } from '../../platform/columns.ts';

/** Every webhook event received from the provider, once: a duplicate delivery finds its event_id here. */
export const providerEvents = pgTable(
  'provider_events',
  {
    id: bigId(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    /** applied, ignored (nothing to do, e.g. an older state) */
    outcome: text('outcome').notNull(),
    receivedAt: moment('received_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_events_event_id_key').on(t.eventId)],
);

/** The result of comparing the provider's statement with our books. */
export const reconciliationReports = pgTable('reconciliation_reports', {
  id: bigId(),
  startedAt: moment('started_at').notNull(),
  finishedAt: moment('finished_at').notNull().defaultNow(),
  checked: integer('checked').notNull(),
  differences: jsonb('differences').$type<ReconciliationDifference[]>().notNull(),
});

export type { ReconciliationDifference };
