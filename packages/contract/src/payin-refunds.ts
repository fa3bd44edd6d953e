import { z } from 'zod';
import { exportFormat } from './downloads.ts';
import { dateRangeFilters, textFilter } from './listFilters.ts';
import { MSG } from './messages.ts';
import { formatEuro } from './money.ts';
import { pageOf, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { sortBy } from './payin-params.ts';

/** The refund statuses of section 4, by code. */
export const REFUND_STATUS_LABELS: Record<number, string> = {
  0: 'Refund Declined',
  1: 'Refund Completed',
  2: 'Refund Pending',
  3: 'Not Refunded',
};
export const REFUND_MSG = {
  notRefundable: 'Only a completed pay-in that is not refunded can be refunded',
  insufficient: 'The pay-in account does not hold the amount to refund',
  refunded: 'Refund requested. It is pending until the provider confirms it.',
  rewardInFlight: 'The reward of this pay-in is being paid to the payer; refund it once that payment is settled',
  /** the refund of a pay-in whose reward was paid: the whole amount goes back, the reward is not taken back */
  rewardKept: (cents: number) =>
    `The reward of ${formatEuro(cents)} already paid to the payer's wallet stays paid: the refund does not take it back.`,
} as const;

/** The pay-in a refund is for: its request id (the provider's link id, unique). */
const refundReference = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(100, 'reference must be at most 100 characters');
export const refundCodeRequest = z.object({ reference: refundReference });
export const payinRefundRequest = z.object({
  reference: refundReference,
  code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20, 'This code is not valid'),
});
export const payinRefundResponse = z.object({
  message: z.array(z.string()),
  refund_status: z.number().int(),
  /** cents of the pay-in's reward already paid to the payer, which the refund does not take back; 0 when none */
  reward_kept: z.number().int(),
});

/** The status filter of the refund list (section 9): 1 Completed, 2 Declined, 4 Pending; 0 all. */
export const REFUND_LIST_STATUS_OPTIONS = [
  { value: 0, label: 'All Refunds', status: '' },
  { value: 1, label: 'Completed', status: 'Completed' },
  { value: 2, label: 'Declined', status: 'Declined' },
  { value: 4, label: 'Pending', status: 'Pending' },
] as const;
/** The refund type filter: 1 CardEye, 2 Payin (the refunded payment's channel). */
export const REFUND_TYPE_OPTIONS = [
  { value: 0, label: 'All Types', type: '' },
  { value: 1, label: 'CardEye', type: 'CardEye' },
  { value: 2, label: 'Payin', type: 'Payin' },
] as const;

/** One refund as the Refund Transactions list shows it (the spec's Refund transaction). */
const refundRow = z.object({
  id: z.number().int(),
  /** the provider's refund id, once sent */
  batch_id: z.string().nullable(),
  payin_reference: z.string(),
  merchant_name: z.string(),
  brand_name: z.string().nullable(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** the refunded pay-in's request id */
  request_id: z.string(),
  transaction_type: z.string(),
  transaction_status: z.enum(['Pending', 'Completed', 'Declined']),
  reason: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  account_id: z.string(),
  created_at: timestamp,
});
export type RefundRow = z.output<typeof refundRow>;

const refundStatusFilter = z
  .union([z.number().int(), z.enum(['', '0', '1', '2', '4', 'Pending', 'Completed', 'Declined'])], {
    error: 'transaction_status must be 0, 1, 2, 4 or a status name',
  })
  .optional()
  .default('')
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
    if (n === undefined) return v as string;
    const o = REFUND_LIST_STATUS_OPTIONS.find((x) => x.value === n);
    if (!o) {
      ctx.addIssue({ code: 'custom', message: 'transaction_status must be 0, 1, 2, 4 or a status name' });
      return z.NEVER;
    }
    return o.status as string;
  });
const refundTypeFilter = z
  .union([z.number().int().min(0).max(2), z.enum(['', '0', '1', '2', 'CardEye', 'Payin'])], {
    error: 'transaction_type must be 0, 1, 2, CardEye or Payin',
  })
  .optional()
  .default('')
  .transform((v) => {
    const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
    return n !== undefined ? (REFUND_TYPE_OPTIONS[n].type as string) : (v as string);
  });

/** The filters of the refund list and its export (document 3, /refunds-detail). */
const refundFilters = {
  sortby: sortBy,
  transaction_status: refundStatusFilter,
  transaction_type: refundTypeFilter,
  batch_id: textFilter('batch_id'),
  pay_in_reference: textFilter('pay_in_reference', 64),
  account_id: textFilter('account_id', 50),
  request_id: textFilter('request_id'),
  ...dateRangeFilters,
};
export const refundListRequest = z.object({ ...refundFilters, per_page: perPageField(100, 20), page: pageField() });
export const refundListResponse = pageOf(refundRow);
export const refundExportRequest = z.object({ ...refundFilters, format: exportFormat });
