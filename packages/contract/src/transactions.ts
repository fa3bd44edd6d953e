import { z } from 'zod';
import { exportFormat, exportResponse } from './downloads.ts';
import { centsFilter, dateRangeFilters, textFilter } from './listFilters.ts';
import { MSG } from './messages.ts';
import { operation } from './operation.ts';
import { pageField, perPageField, wholeNumber } from './params.ts';
import { checkVolumeRange, payoutVolumeResponse } from './payoutVolume.ts';
import type { Permission } from './permissions.ts';
import {
  brandListResponse,
  completedListResponse,
  historyResponse,
  payoutListResponse,
  transactionDetailsResponse,
} from './transaction-answers.ts';
import { HISTORY_STATUSES, PAYOUT_STATUSES, TRX_MSG } from './transactionStatus.ts';

const page = pageField();
const perPage = perPageField;
const text = textFilter;

/** Filters of the payout list and its export (section 7 of the spec). */
const payoutFilters = {
  status: z
    .union([z.enum(PAYOUT_STATUSES), z.literal('')], {
      error: 'status must be Completed, Pending, Failed or Processing',
    })
    .optional()
    .default(''),
  beneficiary_name: text('beneficiary_name'),
  brand: text('brand'),
  behalf_of: text('behalf_of'),
  uploaded_by: text('uploaded_by'),
  account_used: text('account_used'),
  merchant_id: text('merchant_id'),
  intergiro_trx_id: text('intergiro_trx_id'),
  reference: text('reference'),
  obol_id: text('obol_id'),
  amount: centsFilter,
  ...dateRangeFilters,
};

const sortKey = z.enum(['DESC', 'ASC'], { error: 'sort must be DESC or ASC' }).optional().default('DESC');

/**
 * Keyset paging: `cursor` is the next_cursor of the page shown, to step forward one page; `prev_cursor` its
 * prev_cursor, to step back one page (one of the two at most). Either reads its page by index at any depth;
 * `page` then only says which page number that is, and without a cursor `page` is read by OFFSET.
 */
const listCursor = z.string().trim().max(200, 'cursor is not valid').optional().default('');

export const payoutListRequest = z.object({
  ...payoutFilters,
  'sort-by': sortKey,
  per_page: perPage(100, 10),
  page,
  cursor: listCursor,
  prev_cursor: listCursor,
});

export const payoutExportRequest = z.object({ ...payoutFilters, 'sort-buy': sortKey, format: exportFormat });

/** The payout-volume chart: the list's filters, at most 92 days (default the last 30). */
export const payoutVolumeRequest = z.object(payoutFilters).superRefine(checkVolumeRange);

const transactionDetailsRequest = z.object({
  id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER),
});

const batchIdFilter = text('batch_id', 64);

const completedFilters = {
  status: z.literal('Completed', { error: 'status must be Completed' }).optional().default('Completed'),
  brand: text('brand'),
  batch_id: batchIdFilter,
  ...dateRangeFilters,
};
export const completedListRequest = z.object({
  ...completedFilters,
  per_page: perPage(100, 10),
  page,
  cursor: listCursor,
  prev_cursor: listCursor,
});
const completedExportRequest = z.object({ ...completedFilters, format: exportFormat });

const historyStatus = z
  .union([z.enum(HISTORY_STATUSES), z.literal('')], { error: 'status must be completed, pending or failed' })
  .optional()
  .default('');
const requiredBatchId = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(64, 'batch_id must be at most 64 characters');

const batchHistoryRequest = z
  .object({
    batch_id: requiredBatchId,
    status: historyStatus,
    min_amount: centsFilter,
    max_amount: centsFilter,
    per_page: perPage(100, 10),
    page,
  })
  .superRefine((v, ctx) => {
    if (v.min_amount !== null && v.max_amount !== null && v.min_amount > v.max_amount)
      ctx.addIssue({ code: 'custom', path: ['min_amount'], message: TRX_MSG.minAboveMax });
  });
const batchHistoryExportRequest = z.object({
  batch_id: requiredBatchId,
  status: historyStatus,
  format: exportFormat,
});

// ---------- the calls ----------

const VIEW: Permission = 'User can view transactions';
const EXPORT: Permission = 'User can export transactions';
const TAG = 'Transactions';
export const transactionOps = {
  payoutTransactions: operation({
    id: 'payoutTransactions',
    method: 'POST',
    path: '/api/payout-transactions',
    tag: TAG,
    summary: "The payouts of the caller's scope: filters, a date sort, pages by number or a step by cursor",
    access: VIEW,
    form: true,
    input: payoutListRequest,
    output: payoutListResponse,
  }),
  payoutVolume: operation({
    id: 'payoutVolume',
    method: 'POST',
    path: '/api/payout-volume',
    tag: TAG,
    summary: 'Per day, the count and amount of the payouts the list filters select, by status group',
    access: VIEW,
    input: payoutVolumeRequest,
    output: payoutVolumeResponse,
  }),
  exportPayoutTransactions: operation({
    id: 'exportPayoutTransactions',
    method: 'POST',
    path: '/api/export-payout-transactions',
    tag: TAG,
    summary: 'Starts a CSV or Excel file of the payouts the filters select; a job writes it (see Downloads)',
    access: EXPORT,
    audit: 'transactions.export',
    form: true,
    input: payoutExportRequest,
    output: exportResponse,
  }),
  transactionDetails: operation({
    id: 'transactionDetails',
    method: 'POST',
    path: '/api/transaction-details',
    tag: TAG,
    summary: "One payout of the caller's scope, with the failure message of a failed one",
    access: VIEW,
    input: transactionDetailsRequest,
    output: transactionDetailsResponse,
  }),
  brandList: operation({
    id: 'brandList',
    method: 'POST',
    path: '/api/brand-list',
    tag: TAG,
    summary: 'The brands the caller may filter by',
    access: VIEW,
    output: brandListResponse,
  }),
  completedTransactions: operation({
    id: 'completedTransactions',
    method: 'POST',
    path: '/api/completed-transactions',
    tag: TAG,
    summary: 'Completed payouts with their fees, and the fee totals of the whole selection',
    access: VIEW,
    form: true,
    input: completedListRequest,
    output: completedListResponse,
  }),
  exportCompletedTransactions: operation({
    id: 'exportCompletedTransactions',
    method: 'POST',
    path: '/api/export-completed-transactions',
    tag: TAG,
    summary: 'Starts a CSV or Excel file of the completed payouts the filters select (see Downloads)',
    access: EXPORT,
    audit: 'transactions.export',
    form: true,
    input: completedExportRequest,
    output: exportResponse,
  }),
  batchHistory: operation({
    id: 'batchHistory',
    method: 'POST',
    path: '/api/batch-history',
    tag: TAG,
    summary: "One batch's rows: its payouts once executed, its staged rows before (402 while it is processing)",
    access: VIEW,
    input: batchHistoryRequest,
    output: historyResponse,
  }),
  exportBatchHistory: operation({
    id: 'exportBatchHistory',
    method: 'POST',
    path: '/api/export-batch-history',
    tag: TAG,
    summary: "Starts a CSV or Excel file of one batch's rows (see Downloads)",
    access: EXPORT,
    audit: 'transactions.export',
    input: batchHistoryExportRequest,
    output: exportResponse,
  }),
} as const;
