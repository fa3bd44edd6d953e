import { z } from 'zod';
import { BATCH_STATUSES, STAGED_STATUSES } from './batch-rows.ts';
import { messages, pageOf, timestamp } from './operation.ts';

// The answers of the batch operations (batches.ts).

const batchStatus = z.enum(BATCH_STATUSES);
const count = z.number().int();

export const uploadResponse = z.object({ batch_id: z.string(), total: count, message: messages });

export const batchProgressResponse = z.object({ processedJobs: count, totalJobs: count, status: batchStatus });

/** A batch as its review page shows it. */
export const batchView = z.object({
  batch_id: z.string(),
  file_name: z.string(),
  batch_status: batchStatus,
  total_rows: count,
  processed_rows: count,
});
export type BatchView = z.output<typeof batchView>;

export const saveBatchResponse = z.object({ message: messages, batch: batchView });

/** A value of a staged row as given, with the rule it breaks. */
const stagedField = z.object({ value: z.string(), error: z.string().nullable() });
const stagedRow = z.object({
  id: count,
  row_number: count,
  beneficiary_name: stagedField,
  /** the wallet id, under its older name */
  account_id: stagedField,
  obol_id: stagedField,
  merchant_transaction_id: stagedField,
  brand: stagedField,
  reference: stagedField,
  amount: stagedField,
  /** the amount in cents, when it is valid */
  amount_cents: z.number().int().nullable(),
  status: z.enum(STAGED_STATUSES),
});
export type StagedRow = z.output<typeof stagedRow>;

export const stagedTransactionsResponse = z.object({
  transaction: pageOf(stagedRow),
  /** rows of the whole batch with an empty required field */
  missingTransaction: count,
  pendingTransaction: count,
  failedTransaction: count,
  /**
   * The inexecutable rows counted by the message that fails them, most first (a row failing for two reasons counts
   * under each): the review banner says what is wrong, not only that a field is missing.
   */
  failedByReason: z.array(z.object({ reason: z.string(), count })),
  batch: batchView,
});
export type StagedPage = z.output<typeof stagedTransactionsResponse>;

/** The total of the executable rows and the batch fee on it, in cents. */
export const batchAmountResponse = z.object({ amount: count, fee: count });
export type BatchAmount = z.output<typeof batchAmountResponse>;

export const updateTransactionResponse = z.object({ message: messages, transaction: stagedRow });
export const renameBatchResponse = z.object({ message: messages, file_name: z.string() });
export const confirmBatchResponse = z.object({
  message: messages,
  batch_id: z.string(),
  amount: count,
  fee: count,
  /** at or above the merchant's approval threshold: the approval it waits for (the answer is then a 202) */
  approval_id: z.number().int().optional(),
});

const batchListRow = z.object({
  batch_id: z.string(),
  /** 'Batch Payout' or 'Manual Payout' */
  payout_type: z.string(),
  uploaded_by: z.object({ name: z.string() }),
  account_used: z.object({ name: z.string(), account_reference: z.string() }),
  behalf_of: z.object({ name: z.string() }),
  file_name: z.string(),
  updated_at: timestamp,
  created_at: timestamp,
  batch_status: batchStatus,
  /** set once executed: the total and the batch fee, in cents */
  amount: count,
  fee: count,
  total_rows: count,
  /**
   * What became of the batch's payouts (issue 47): a Completed batch has handed them to the provider, and some may
   * still be in flight or have failed since; the status stays the spec's word, these counts say the outcome.
   */
  payouts: z.object({ completed: count, failed: count, in_flight: count }),
});
export type BatchListRow = z.output<typeof batchListRow>;
export const batchListResponse = pageOf(batchListRow);
export type BatchListResponse = z.output<typeof batchListResponse>;
