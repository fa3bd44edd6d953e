import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { bigNumber, moment, createdAt, updatedAt } from '../../platform/columns.ts';
import { behalfOfColumns } from '../payouts/tables.ts';
import { users } from '../users/tables.ts';
import { STAGED_ID_STRIDE } from './staged-ids.ts';

/**
 * A batch of payouts: a CSV or spreadsheet upload staged for review, or a single manual payout.
 * Status: Processing (being staged or executed), Pending (staged, awaiting execution),
 * Completed (executed: its payouts are with the provider), Declined (cleared, or refused while staging).
 */
export const batches = pgTable(
  'batches',
  {
    batchId: text('batch_id').primaryKey(),
    /**
     * The batch's number: its staged rows' ids are `seq * STAGED_ID_STRIDE + n`, in the file's order (stagedIdOf),
     * so that one index, the primary key on the id, finds a row by its id and reads a batch's rows in order.
     */
    seq: bigNumber('seq').notNull().unique().generatedAlwaysAsIdentity(),
    ...behalfOfColumns(),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => users.id),
    /** 'Batch Payout' or 'Manual Payout' */
    payoutType: text('payout_type').notNull(),
    fileName: text('file_name').notNull(),
    fileFormat: text('file_format'),
    status: text('status').notNull(),
    totalRows: integer('total_rows').notNull().default(0),
    processedRows: integer('processed_rows').notNull().default(0),
    /** set when the staging refused the file */
    error: text('error'),
    /** totals of the executed rows */
    amount: bigNumber('amount')
      .notNull()
      .default(sql`0`),
    /** the batch fee, applied on the summed amount of its transactions */
    fee: bigNumber('fee')
      .notNull()
      .default(sql`0`),
    feeBps: integer('fee_bps').notNull().default(0),
    /** the amount of the batch's failed payouts, returned to the account */
    amountReturned: bigNumber('amount_returned')
      .notNull()
      .default(sql`0`),
    /** the part of the batch fee returned with them: the fee always equals the fee on what was paid */
    feeReturned: bigNumber('fee_returned')
      .notNull()
      .default(sql`0`),
    savedAt: moment('saved_at'),
    executedAt: moment('executed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('batches_merchant_updated_idx').on(t.merchantId, t.updatedAt.desc()),
    index('batches_updated_idx').on(t.updatedAt.desc(), t.batchId),
    index('batches_status_idx').on(t.status, t.updatedAt.desc()),
  ],
);

/** One row of an uploaded file, as given, with its errors per field. */
export const stagedTransactions = pgTable(
  'staged_transactions',
  {
    /** `seq * STAGED_ID_STRIDE + n` of its batch (stagedIdOf), given when the row is staged: no sequence is drawn */
    id: bigNumber('id').primaryKey(),
    /**
     * The batch it belongs to. Not a foreign key: its check would cost every one of up to 100,000 rows a look-up
     * of the batch. A statement trigger (migrations 0023, 0024) checks each statement's new rows at once, each in
     * its batch's range of ids, and batches are never deleted nor renamed (a trigger refuses it), which is what the
     * foreign key's locks were for.
     */
    batchId: text('batch_id').notNull(),
    rowNumber: integer('row_number').notNull(),
    beneficiaryName: text('beneficiary_name').notNull().default(''),
    obolId: text('obol_id').notNull().default(''),
    merchantTransactionId: text('merchant_transaction_id').notNull().default(''),
    brand: text('brand').notNull().default(''),
    reference: text('reference').notNull().default(''),
    /** the amount as given (text), and as cents when valid */
    amountText: text('amount_text').notNull().default(''),
    amount: bigNumber('amount'),
    /** field -> message */
    errors: jsonb('errors').$type<Record<string, string>>().notNull().default({}),
    /** Pending (executable) or Failed (inexecutable) */
    status: text('status').notNull(),
    /** some required field is empty */
    missing: integer('missing').notNull().default(0),
  },
  // Two indexes only: every staged row pays for each one it is written into (100,000 rows a file). A batch's rows,
  // in the file's order and by status too (a status narrows a batch, it never stands alone), are a range of the
  // primary key (stagedRangeOf); an id held by the merchant's other open batches is looked up among their few batch
  // ids with staged_batch_mtid_idx.
  (t) => [index('staged_batch_mtid_idx').on(t.batchId, t.merchantTransactionId)],
);

/**
 * The rows of the batch `batchId`: `id` within its range. The database holds every row to its batch's range (the
 * statement check, migration 0024), so this alone selects them, and only the primary key can read it: beside
 * `batch_id = ...` the planner may take staged_batch_mtid_idx for a batch newer than its statistics and sort the
 * whole batch for one page. The bounds are uncorrelated subqueries, computed once, so an index scan takes them.
 */
export const stagedRangeOf = (id: SQL | AnyColumn, batchId: string) => sql`${id} BETWEEN
  (SELECT r.seq * ${sql.raw(String(STAGED_ID_STRIDE))} FROM batches r WHERE r.batch_id = ${batchId})
  AND (SELECT r.seq * ${sql.raw(String(STAGED_ID_STRIDE))} + ${sql.raw(String(STAGED_ID_STRIDE - 1))} FROM batches r WHERE r.batch_id = ${batchId})`;
