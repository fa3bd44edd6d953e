import { z } from 'zod';
import { pageField, perPageField, wholeNumber } from './params.ts';
import { MSG } from './messages.ts';

/** Messages of the transaction screens and their calls. */
export const TRX_MSG = {
  amountMin: 'Amount must be 0 or more',
  amountWhole: 'Amount must be a whole number of cents',
  dateInvalid: 'Date must be a valid date (YYYY-MM-DD)',
  dateFuture: 'Date must not be after today',
  timeZone: 'tz must be a valid IANA time zone',
  minAboveMax: 'Min amount must not be above max amount',
  defaultReason: 'Brand does not match',
  successful: 'Transaction Successful',
  fileNotReady: 'The file is not ready yet',
  batchProcessing: 'Batch is in processing state.',
} as const;

export const PAYOUT_STATUSES = ['Processing', 'Pending', 'Completed', 'Failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** The payout screen's status dropdown: -1 all, 1 Completed, 2 Pending, 3 Failed (sent as the status name). */
export const PAYOUT_STATUS_OPTIONS = [
  { value: -1, label: 'All Transactions', status: '' },
  { value: 1, label: 'Completed', status: 'Completed' },
  { value: 2, label: 'Pending', status: 'Pending' },
  { value: 3, label: 'Failed', status: 'Failed' },
] as const;

/** Date sort: -1 descending (newest first), 1 ascending. */
export const DATE_SORT_OPTIONS = [
  { value: -1, label: 'Newest first', sort: 'DESC' },
  { value: 1, label: 'Oldest first', sort: 'ASC' },
] as const;

export const PAGE_SIZES = [10, 20, 30] as const;
export const DOWNLOADS_PER_PAGE = 20;
export const AUTO_REFRESH_MS = 300_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * true for a real calendar date written YYYY-MM-DD, in years 0001 to 9999 of the Gregorian calendar:
 * not 2026-02-30, 2026-13-01 or 0000-00-00 (PostgreSQL refuses those, and Date.parse rolls 2026-02-30 over to
 * March). Plain arithmetic, so no Date quirk (two-digit years read as 19xx) can let one through.
 */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]);
}

/** A single date gives start = end; a reversed range is reordered so start is the earlier. */
export function normaliseRange(start?: string, end?: string): { start_date?: string; end_date?: string } {
  const a = start || end;
  const b = end || start;
  if (!a || !b) return {};
  return a <= b ? { start_date: a, end_date: b } : { start_date: b, end_date: a };
}

const text = (name: string, max = 100) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .optional()
    .default('');

const page = pageField();
const perPage = perPageField;

const date = z
  .string({ error: TRX_MSG.dateInvalid })
  .trim()
  .refine((s) => s === '' || isCalendarDate(s), TRX_MSG.dateInvalid)
  .optional()
  .default('');

/** Cents, 0 or more; '' means no filter. */
const centsFilter = z
  .union([z.number(), z.string().trim()], { error: TRX_MSG.amountWhole })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return null;
    const n = typeof v === 'number' ? v : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
    if (Number.isNaN(n) || !Number.isInteger(n)) {
      ctx.addIssue({ code: 'custom', message: TRX_MSG.amountWhole });
      return z.NEVER;
    }
    if (n < 0) {
      ctx.addIssue({ code: 'custom', message: TRX_MSG.amountMin });
      return z.NEVER;
    }
    if (n > Number.MAX_SAFE_INTEGER) {
      ctx.addIssue({ code: 'custom', message: TRX_MSG.amountWhole });
      return z.NEVER;
    }
    return n;
  });

/** The browser's IANA time zone: date filters are calendar days there. */
const tz = z
  .string({ error: TRX_MSG.timeZone })
  .trim()
  .max(64, { error: TRX_MSG.timeZone, abort: true })
  .optional()
  .default('UTC')
  .refine((s) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: s });
      return true;
    } catch {
      return false;
    }
  }, TRX_MSG.timeZone);

const dateRange = { start_date: date, end_date: date, tz };

/** Filters of the payout list and its export (section 7 of the spec). */
export const payoutFilters = {
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
  ...dateRange,
};

const sortKey = z.enum(['DESC', 'ASC'], { error: 'sort must be DESC or ASC' }).optional().default('DESC');

export const payoutListRequest = z.object({
  ...payoutFilters,
  'sort-by': sortKey,
  per_page: perPage(100, 10),
  page,
});
export type PayoutListRequest = z.input<typeof payoutListRequest>;

export const exportFormat = z.enum(['csv', 'xlsx'], { error: 'format must be csv or xlsx' }).optional().default('csv');

export const payoutExportRequest = z.object({ ...payoutFilters, 'sort-buy': sortKey, format: exportFormat });

export const transactionDetailsRequest = z.object({
  id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER),
});

const batchIdFilter = text('batch_id', 64);

export const completedFilters = {
  status: z.literal('Completed', { error: 'status must be Completed' }).optional().default('Completed'),
  brand: text('brand'),
  batch_id: batchIdFilter,
  ...dateRange,
};
export const completedListRequest = z.object({ ...completedFilters, per_page: perPage(100, 10), page });
export const completedExportRequest = z.object({ ...completedFilters, format: exportFormat });

export const HISTORY_STATUSES = ['completed', 'pending', 'failed'] as const;
export const HISTORY_STATUS_OPTIONS = [
  { label: 'All Transactions', status: '' },
  { label: 'Completed', status: 'completed' },
  { label: 'Pending', status: 'pending' },
  { label: 'Failed', status: 'failed' },
] as const;
const historyStatus = z
  .union([z.enum(HISTORY_STATUSES), z.literal('')], { error: 'status must be completed, pending or failed' })
  .optional()
  .default('');
const requiredBatchId = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(64, 'batch_id must be at most 64 characters');

export const batchHistoryRequest = z
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
export const batchHistoryExportRequest = z.object({
  batch_id: requiredBatchId,
  status: historyStatus,
  format: exportFormat,
});

export const downloadFilesRequest = z.object({
  per_page: perPage(100, DOWNLOADS_PER_PAGE),
  page,
  search: text('search'),
  /** 0 transaction files, 1 reports */
  type: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'type must be 0 or 1' })
    .transform(Number)
    .optional()
    .default(0),
  /** accounting (2D) transaction files */
  accounting: z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.literal('')], {
      error: 'accounting must be true or false',
    })
    .optional()
    .transform((v) => v === true || v === 1 || v === '1'),
});

// ---------- answers ----------

export interface PayoutRow {
  id: number;
  beneficiary_name: string;
  brand: string;
  behalf_of: string;
  uploaded_by: string;
  account_used: string;
  merchant_transaction_id: string;
  intergiro_trx_id: string | null;
  reference: string;
  account_id: string;
  batch_id: string | null;
  currency: string;
  amount: number;
  fee: number;
  status: PayoutStatus;
  updated_at: string;
}
export interface PayoutListResponse {
  transactions: { data: PayoutRow[]; total: number };
}
export interface TransactionDetails {
  id: number;
  merchant_transaction_id: string;
  intergiro_trx_id: string | null;
  beneficiary_name: string;
  brand: string;
  account_id: string;
  reference: string;
  currency: string;
  amount: number;
  status: PayoutStatus;
  batch_id: string | null;
  updated_at: string;
  failed_transaction: { message: string } | null;
}
export interface CompletedRow extends PayoutRow {
  /** the fee charged on the summed amount of the batch, in cents */
  batch_fee: number;
}
export interface CompletedListResponse {
  transactions: { data: CompletedRow[]; total: number };
  fee: { total_eur_fee: string; total_cent_fee: number };
}
export interface HistoryRow {
  id: number;
  beneficiary_name: string;
  account_id: string;
  intergiro_trx_id: string | null;
  merchant_transaction_id: string;
  brand: string;
  reference: string;
  currency: string;
  amount: number | null;
  status: 'Processing' | 'Pending' | 'Completed' | 'Failed';
  updated_at: string;
  failed_transaction: { message: string } | null;
}
export interface HistoryResponse {
  data: HistoryRow[];
  total: number;
  batch: { batch_id: string; file_name: string; batch_status: string; merchant_name: string };
}
export interface DownloadFile {
  id: number;
  file_name: string;
  start_date: string | null;
  end_date: string | null;
  /** 0 initiated, 1 completed */
  is_download: 0 | 1;
  /** 0 transaction file, 1 report */
  is_report: 0 | 1;
  status: 'Initiated' | 'Completed' | 'Failed';
  rows: number | null;
  format: 'csv' | 'xlsx';
  created_at: string;
}
export interface DownloadFilesResponse {
  data: DownloadFile[];
  total: number;
}
export interface ExportResponse {
  message: string[];
  file: DownloadFile;
}

/** What a failed transaction says: its message, or the spec's default. */
export const failureReason = (t: { status: string; failed_transaction?: { message?: string | null } | null }) =>
  t.status === 'Failed' ? t.failed_transaction?.message || TRX_MSG.defaultReason : '';
