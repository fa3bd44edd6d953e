import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()); read as text, compared in SQL only. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * The transactional outbox: one row per status change of a movement of money (a payout, a batch, a transfer, a
 * refund, a reward's payment, a 2D transfer, a pay-in), written by the database itself (the `money_events_*`
 * triggers of migration 0026) in the transaction of the change, so a row exists if and only if the change
 * committed, whatever code made it. Read it with `eventsAfter` (events.ts). No foreign keys: it is a log, and a
 * bulk settlement should not check 20,000 references.
 */
export const moneyEvents = pgTable(
  'money_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** payout, batch, transfer, refund, reward, 2d, payin; and download (an export's file: not money, but news) */
    kind: text('kind').notNull(),
    /** the movement's id (a batch's batch_id, a number's decimal text otherwise) */
    objectId: text('object_id').notNull(),
    /** the tenant; null for the platform's own (a Fee Account transfer, a 2D transfer) */
    merchantId: integer('merchant_id'),
    /** the merchant or brand whose account moves (a payout's behalf-of); null as merchant_id; a file's owner */
    holderId: integer('holder_id'),
    /** null when the movement is created */
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** the writing transaction: a reader takes only rows of transactions that have ended (events.ts) */
    tx: xid8('tx')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('money_events_tx_idx').on(t.tx, t.id),
    index('money_events_merchant_tx_idx').on(t.merchantId, t.tx, t.id),
    index('money_events_holder_tx_idx').on(t.holderId, t.tx, t.id),
    index('money_events_object_idx').on(t.kind, t.objectId, t.id),
    check(
      'money_events_kind_known',
      sql`${t.kind} IN ('payout', 'batch', 'transfer', 'refund', 'reward', '2d', 'payin', 'download')`,
    ),
  ],
);
