import { z } from 'zod';
import {
  batchAmountResponse,
  batchListResponse,
  batchProgressResponse,
  confirmBatchResponse,
  renameBatchResponse,
  saveBatchResponse,
  stagedTransactionsResponse,
  updateTransactionResponse,
  uploadResponse,
} from './batch-answers.ts';
import { BATCH_STATUSES, STAGED_STATUSES } from './batch-rows.ts';
import { MSG } from './messages.ts';
import { messageAnswer, operation } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber, wholeNumberText } from './params.ts';

// ---- requests ----

const batchIdField = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(64);
const rowId = wholeNumber('id', 1, Number.MAX_SAFE_INTEGER);
/** the batch's own names are kept by the server; the client's merchant_name is accepted and ignored */
const merchantName = z.string().max(200).optional();
const BEHALF_OF_ID = 'behalf_of_id must be a merchant or brand id';

/** The text fields of the upload form (multipart/form-data, beside its `file`). */
const uploadFields = z.object({
  /** the batch's name (non-word characters are dropped); the file's own name without it */
  file_name: z.string().max(1000).optional(),
  /** the merchant or brand paid for, 0 for none in particular */
  behalf_of_id: wholeNumberText('behalf_of_id', 0, INT4_MAX, BEHALF_OF_ID),
  /** the paying account; the Fee Account when absent */
  account_reference: z.string().max(1000).optional(),
});
export type UploadFields = z.input<typeof uploadFields>;

const batchProgressRequest = z.object({ id: batchIdField });

const saveBatchRequest = z.object({
  batch_id: batchIdField,
  merchant_name: merchantName,
  file_name: z.string().max(200).optional(),
  account_reference: z.string().max(100).optional(),
});

const stagedTransactionsRequest = z.object({
  batch_id: batchIdField,
  per_page: perPageField(),
  page: pageField(),
  search: z.string().trim().max(100).optional().default(''),
  status: z
    .enum(['', ...STAGED_STATUSES], { error: 'status must be Pending or Failed' })
    .optional()
    .default(''),
});
export type StagedTransactionsRequest = z.input<typeof stagedTransactionsRequest>;

const batchAmountRequest = z.object({
  batch_id: batchIdField,
  account_reference: z.string().max(100).optional(),
});

/** An edited staged row: its values as text (the rules are the contract's validateRow, applied by the server). */
const updateTransactionRequest = z.object({
  id: rowId,
  batch_id: batchIdField,
  beneficiary_name: z.string().max(200).default(''),
  obol_id: z.union([z.string(), z.number()]).transform(String).default(''),
  merchant_transaction_id: z.string().max(200).default(''),
  brand: z.string().max(200).default(''),
  amount: z.union([z.string(), z.number()]).transform(String).default(''),
  reference: z.string().max(200).default(''),
  /** accepted and ignored: the fee is the batch's */
  fee: z.unknown().optional(),
});

const deleteTransactionRequest = z.object({
  id: rowId,
  batch_id: batchIdField.optional(),
  merchant_name: merchantName,
});
const deleteTransactionsRequest = z.object({
  id: z.array(rowId).min(1, 'Select at least one transaction').max(1000),
  batch_id: batchIdField,
  merchant_name: merchantName,
});
const renameBatchRequest = z.object({
  batch_id: batchIdField,
  file_name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
  merchant_name: merchantName,
});
const clearBatchRequest = z.object({ batch_id: batchIdField, merchant_name: merchantName });
const executeBatchRequest = z.object({
  batch_id: batchIdField,
  /** the total the reviewer saw, in cents: a batch changed since is refused */
  amount: wholeNumber('amount', 0, Number.MAX_SAFE_INTEGER).optional(),
  merchant_name: merchantName,
});
const confirmBatchRequest = z.object({
  batch_id: batchIdField,
  code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20),
  merchant_name: merchantName,
});

const batchListFields = {
  per_page: perPageField(),
  page: pageField(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
};
const recentBatchesRequest = z.object(batchListFields);
const batchListRequest = z.object({
  ...batchListFields,
  status: z
    .union([z.enum(BATCH_STATUSES), z.literal('')], {
      error: 'status must be Completed, Pending, Declined or Processing',
    })
    .optional()
    .default(''),
});
export type BatchListRequest = z.input<typeof batchListRequest>;

// ---- the calls ----

const TAG = 'Batch payouts';
const MASS = 'User can able to issue mass payout on behalf of merchant';
const REVIEW = 'User can view payments';
const LISTS = 'User can view transactions';

export const batchOps = {
  uploadTransactions: operation({
    id: 'uploadTransactions',
    method: 'POST',
    path: '/api/upload-transactions',
    tag: TAG,
    summary: 'Uploads a payout file (CSV or .xlsx, at most 50 MB and 100,000 rows) and queues its staging',
    access: MASS,
    audit: 'batch.upload',
    multipart: true,
    input: uploadFields,
    output: uploadResponse,
  }),
  csvTemplate: operation({
    id: 'csvTemplate',
    method: 'GET',
    path: '/api/csv-template',
    tag: TAG,
    summary: 'The CSV template of a payout file',
    access: MASS,
    output: { file: ['text/csv'] },
  }),
  batchProgress: operation({
    id: 'batchProgress',
    method: 'POST',
    path: '/api/batch-progress',
    tag: TAG,
    summary: 'How far the staging of a batch is (422 with the reason when its file was refused)',
    access: MASS,
    input: batchProgressRequest,
    output: batchProgressResponse,
  }),
  saveBatch: operation({
    id: 'saveBatch',
    method: 'POST',
    path: '/api/save-batch',
    tag: TAG,
    summary: 'Keeps a staged batch for review (409 while it is still being staged)',
    access: MASS,
    audit: 'batch.save',
    input: saveBatchRequest,
    output: saveBatchResponse,
  }),
  stagedTransactions: operation({
    id: 'stagedTransactions',
    method: 'POST',
    path: '/api/staged-transactions',
    tag: TAG,
    summary: 'A page of the staged rows of a batch, with their errors per field and the counts of the batch',
    access: REVIEW,
    input: stagedTransactionsRequest,
    output: stagedTransactionsResponse,
  }),
  batchAmount: operation({
    id: 'batchAmount',
    method: 'POST',
    path: '/api/batch-amount',
    tag: TAG,
    summary: 'The total of the executable rows of a batch and the batch fee on it',
    access: REVIEW,
    input: batchAmountRequest,
    output: batchAmountResponse,
  }),
  updateTransaction: operation({
    id: 'updateTransaction',
    method: 'POST',
    path: '/api/update-transaction',
    tag: TAG,
    summary: 'Edits a staged row of a Pending batch; the row is checked again',
    access: MASS,
    audit: 'batch.update-transaction',
    input: updateTransactionRequest,
    output: updateTransactionResponse,
  }),
  deleteTransaction: operation({
    id: 'deleteTransaction',
    method: 'POST',
    path: '/api/delete-transaction',
    tag: TAG,
    summary: 'Deletes a staged row of a Pending batch',
    access: MASS,
    audit: 'batch.delete-transaction',
    input: deleteTransactionRequest,
    output: messageAnswer,
  }),
  deleteTransactions: operation({
    id: 'deleteTransactions',
    method: 'POST',
    path: '/api/delete-transactions',
    tag: TAG,
    summary: 'Deletes staged rows of a Pending batch',
    access: MASS,
    audit: 'batch.delete-transactions',
    input: deleteTransactionsRequest,
    output: messageAnswer,
  }),
  renameBatch: operation({
    id: 'renameBatch',
    method: 'POST',
    path: '/api/rename-batch',
    tag: TAG,
    summary: 'Renames a batch not yet executed or declined (non-word characters are dropped)',
    access: MASS,
    audit: 'batch.rename',
    input: renameBatchRequest,
    output: renameBatchResponse,
  }),
  clearBatch: operation({
    id: 'clearBatch',
    method: 'POST',
    path: '/api/clear-batch',
    tag: TAG,
    summary: 'Declines a Pending batch; its staged rows go',
    access: MASS,
    audit: 'batch.clear',
    input: clearBatchRequest,
    output: messageAnswer,
  }),
  executeBatch: operation({
    id: 'executeBatch',
    method: 'POST',
    path: '/api/execute-batch',
    tag: TAG,
    summary: 'Checks a batch can run and sends the code that approves exactly this batch and total',
    access: MASS,
    audit: 'batch.request-execution',
    input: executeBatchRequest,
    output: messageAnswer,
  }),
  confirmBatch: operation({
    id: 'confirmBatch',
    method: 'POST',
    path: '/api/confirm-batch',
    tag: TAG,
    summary: 'Executes a batch with its code: reserves total and fee, then its payouts are created and sent',
    access: MASS,
    audit: 'batch.execute',
    input: confirmBatchRequest,
    output: confirmBatchResponse,
  }),
  batches: operation({
    id: 'batches',
    method: 'POST',
    path: '/api/batches',
    tag: TAG,
    summary: 'The batches in scope, newest first: search by batch id or file name, filter by status',
    access: LISTS,
    input: batchListRequest,
    output: batchListResponse,
  }),
  recentBatches: operation({
    id: 'recentBatches',
    method: 'POST',
    path: '/api/recent-batches',
    tag: TAG,
    summary: 'The batches in scope changed in the last 24 hours, newest first',
    access: LISTS,
    input: recentBatchesRequest,
    output: batchListResponse,
  }),
} as const;
