import { FILTER_MSG } from './listFilters.ts';

/** Messages of the transaction screens and their calls. */
export const TRX_MSG = {
  ...FILTER_MSG,
  minAboveMax: 'Min amount must not be above max amount',
  defaultReason: 'Brand does not match',
  successful: 'Transaction Successful',
  batchProcessing: 'Batch is in processing state.',
} as const;

/** 'Pending approval': at or above its merchant's approval threshold, reserved, waiting for a second person */
export const PAYOUT_STATUSES = ['Processing', 'Pending', 'Completed', 'Failed', 'Pending approval'] as const;
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
export const AUTO_REFRESH_MS = 300_000;

export const HISTORY_STATUSES = ['completed', 'pending', 'failed'] as const;
export const HISTORY_STATUS_OPTIONS = [
  { label: 'All Transactions', status: '' },
  { label: 'Completed', status: 'completed' },
  { label: 'Pending', status: 'pending' },
  { label: 'Failed', status: 'failed' },
] as const;

/** What a failed transaction says: its message, or the spec's default. */
export const failureReason = (t: { status: string; failed_transaction?: { message?: string | null } | null }) =>
  t.status === 'Failed' ? t.failed_transaction?.message || TRX_MSG.defaultReason : '';
