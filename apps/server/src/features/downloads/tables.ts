import { bigint, index, integer, jsonb, pgTable, serial, text, timestamp, date } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

/**
 * A generated file: an export of a list (is_report 0) or a report (is_report 1). Created Initiated with the
 * job that writes it, in one transaction; the job streams the rows to the file store and marks it Completed.
 * It belongs to its owner's tenant: staff files to staff, a merchant's to that merchant (and its team), a
 * brand's to that brand and its merchant.
 */
export const downloadFiles = pgTable(
  'download_files',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** the tenant: null merchant = a staff file */
    merchantId: integer('merchant_id').references(() => users.id),
    brandId: integer('brand_id').references(() => users.id),
    /** the kind of export, as the feature that owns the list declared it (defineExport): payouts, completed, ... */
    kind: text('kind').notNull(),
    isReport: integer('is_report').notNull().default(0),
    accounting: integer('accounting').notNull().default(0),
    fileName: text('file_name').notNull(),
    format: text('format').notNull(),
    /** where the file store keeps it */
    storageKey: text('storage_key').notNull(),
    startDate: date('start_date'),
    endDate: date('end_date'),
    /** the list filters the export was asked with */
    params: jsonb('params').notNull(),
    /** Initiated, Completed, Failed */
    status: text('status').notNull().default('Initiated'),
    rows: integer('rows'),
    bytes: bigint('bytes', { mode: 'number' }),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('download_files_tenant_idx').on(t.merchantId, t.brandId, t.isReport, t.createdAt.desc()),
    index('download_files_owner_idx').on(t.ownerId),
  ],
);
