import { sql } from 'drizzle-orm';
import { boolean, check, date, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt } from '../../platform/columns.ts';
import { users } from '../users/tables.ts';

/**
 * A merchant's invoice for a month: the fees it was charged, frozen at first issue (`content` is what the PDF
 * shows), with a number of its year that has no gaps and is never reused. One per merchant and month: issuing the
 * month again answers the same invoice, number and content.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: bigId(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => users.id),
    /** the invoiced month: its first day */
    month: date('month').notNull(),
    /** the year of the number (the year it was issued, UTC) */
    year: integer('year').notNull(),
    /** 1, 2, 3 … within the year, without gaps */
    seq: integer('seq').notNull(),
    /** as printed: OBL-<year>-<seq, 6 digits> */
    number: text('number').notNull(),
    issuedAt: moment('issued_at').notNull().defaultNow(),
    issuedBy: integer('issued_by')
      .notNull()
      .references(() => users.id),
    totalFee: bigNumber('total_fee').notNull(),
    /** the lines, totals, the merchant's and our details, as issued */
    content: jsonb('content').notNull(),
  },
  (t) => [
    uniqueIndex('invoices_merchant_month').on(t.merchantId, t.month),
    uniqueIndex('invoices_year_seq').on(t.year, t.seq),
    uniqueIndex('invoices_number').on(t.number),
    check('invoices_seq_positive', sql`${t.seq} > 0`),
    check('invoices_month_first_day', sql`extract(day from ${t.month}) = 1`),
  ],
);

/**
 * The last invoice number of each year. Taken with a row lock in the transaction that writes the invoice: two
 * issues wait for each other, and a transaction that writes no invoice (it rolls back) gives its number back.
 */
export const invoiceCounters = pgTable('invoice_counters', {
  year: integer('year').primaryKey(),
  last: integer('last').notNull().default(0),
});

/**
 * A report a user asked to receive every month: on the first day (UTC) the report of the month before is pulled on
 * their behalf (with their permissions and scope as they are then) and they are mailed a link when it is written.
 * `last_period` is the last month pulled: moving it forward is the claim, so each month runs once, across
 * restarts and processes, and a month missed while the server was down runs when it is back.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** activity, batch_payouts, failed, fees */
    kind: text('kind').notNull(),
    /** the merchant or brand (0: Select All) */
    authId: integer('auth_id').notNull(),
    name: text('name').notNull().default(''),
    format: text('format').notNull().default('csv'),
    /** YYYY-MM of the last month pulled */
    lastPeriod: text('last_period'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('report_schedules_owner_report').on(t.ownerId, t.kind, t.authId),
    check('report_schedules_kind_known', sql`${t.kind} IN ('activity', 'batch_payouts', 'failed', 'fees')`),
    check('report_schedules_format_known', sql`${t.format} IN ('csv', 'xlsx')`),
  ],
);
