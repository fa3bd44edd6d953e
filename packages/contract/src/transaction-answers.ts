import { z } from 'zod';
import { pageOf, timestamp } from './operation.ts';
import { PAYOUT_STATUSES } from './transactionStatus.ts';

// The answers of the transaction operations (transactions.ts).

export const payoutRow = z.object({
  id: z.number().int(),
  beneficiary_name: z.string(),
  brand: z.string(),
  behalf_of: z.string(),
  uploaded_by: z.string(),
  account_used: z.string(),
  merchant_transaction_id: z.string(),
  intergiro_trx_id: z.string().nullable(),
  reference: z.string(),
  /** the beneficiary's Obol ID */
  account_id: z.string(),
  batch_id: z.string().nullable(),
  currency: z.string(),
  /** cents */
  amount: z.number().int(),
  /** cents */
  fee: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  updated_at: timestamp,
});
export type PayoutRow = z.output<typeof payoutRow>;

/**
 * next_cursor: of the page's last row, for the next page; prev_cursor: of its first row, for the previous page
 * (null on an empty page).
 */
const pageCursor = z.string().nullable();

/**
 * Up to this many rows a list's total is an exact count; above it, the database's estimate, marked as one
 * (docs/decisions/022-list-paging-and-totals.md).
 */
export const EXACT_TOTAL_UP_TO = 10_000;

/**
 * A page of a list paged by keyset: `total` is exact up to EXACT_TOTAL_UP_TO rows; above, `total_estimated`
 * is true and `total` is the database's estimate (show it as such: "about 1.2M").
 */
const keysetPageOf = <T extends z.ZodType>(row: T) => pageOf(row).extend({ total_estimated: z.boolean() });

export const payoutListResponse = z.object({
  transactions: keysetPageOf(payoutRow),
  next_cursor: pageCursor,
  prev_cursor: pageCursor,
});
export type PayoutListResponse = z.output<typeof payoutListResponse>;

const failedTransaction = z.object({ message: z.string() }).nullable();

export const transactionDetailsResponse = z.object({
  id: z.number().int(),
  merchant_transaction_id: z.string(),
  intergiro_trx_id: z.string().nullable(),
  beneficiary_name: z.string(),
  brand: z.string(),
  account_id: z.string(),
  reference: z.string(),
  currency: z.string(),
  amount: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  batch_id: z.string().nullable(),
  updated_at: timestamp,
  /** the failure message of a Failed payout, null otherwise */
  failed_transaction: failedTransaction,
});
export type TransactionDetails = z.output<typeof transactionDetailsResponse>;

export const brandListResponse = z.object({ brand: z.array(z.object({ id: z.number().int(), name: z.string() })) });
export type BrandListResponse = z.output<typeof brandListResponse>;

const completedRow = payoutRow.extend({
  /** the fee charged on the summed amount of the batch, in cents */
  batch_fee: z.number().int(),
});
export type CompletedRow = z.output<typeof completedRow>;

export const completedListResponse = z.object({
  transactions: keysetPageOf(completedRow),
  /** the fees of the whole selection: euros as text (1234.56) and cents */
  fee: z.object({ total_eur_fee: z.string(), total_cent_fee: z.number().int() }),
  next_cursor: pageCursor,
  prev_cursor: pageCursor,
});
export type CompletedListResponse = z.output<typeof completedListResponse>;

const historyRow = z.object({
  id: z.number().int(),
  beneficiary_name: z.string(),
  account_id: z.string(),
  intergiro_trx_id: z.string().nullable(),
  merchant_transaction_id: z.string(),
  brand: z.string(),
  reference: z.string(),
  currency: z.string(),
  /** cents; null for a staged row whose amount could not be read */
  amount: z.number().int().nullable(),
  status: z.enum(PAYOUT_STATUSES),
  updated_at: timestamp,
  failed_transaction: failedTransaction,
});
export type HistoryRow = z.output<typeof historyRow>;

export const historyResponse = pageOf(historyRow).extend({
  batch: z.object({
    batch_id: z.string(),
    file_name: z.string(),
    batch_status: z.string(),
    merchant_name: z.string(),
  }),
});
export type HistoryResponse = z.output<typeof historyResponse>;
