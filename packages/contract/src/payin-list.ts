import { z } from 'zod';
import { exportFormat } from './downloads.ts';
import { dateRangeFilters, textFilter } from './listFilters.ts';
import { pageOf, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { PAYIN_CHANNELS, PAYIN_LINK_STATUSES, PAYIN_STATUSES } from './payin-links.ts';
import { sortBy } from './payin-params.ts';

/** The status filter of the pay-in lists (section 9): 1 Completed, 2 Declined, 3 Expired, 4 Pending; 0 all. */
export const PAYIN_STATUS_OPTIONS = [
  { value: 0, label: 'All Transactions', status: '' },
  { value: 1, label: 'Completed', status: 'Completed' },
  { value: 2, label: 'Declined', status: 'Declined' },
  { value: 3, label: 'Expired', status: 'Expired' },
  { value: 4, label: 'Pending', status: 'Pending' },
] as const;

/** One pay-in as the lists show it (the spec's Payin transaction). */
export const payinRow = z.object({
  id: z.number().int(),
  pay_in_reference: z.string(),
  merchant_name: z.string(),
  /** the brand whose key made it; null for the merchant's own */
  brand_name: z.string().nullable(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** the provider's link id */
  request_id: z.string(),
  channel: z.enum(PAYIN_CHANNELS),
  /** CardEye: who requested it */
  requested_by: z.string().nullable(),
  transaction_status: z.enum(PAYIN_STATUSES),
  link_status: z.enum(PAYIN_LINK_STATUSES),
  /** why it was declined or expired */
  reason: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  /** the pay-in account credited */
  account_id: z.string(),
  /** 0 Refund Declined, 1 Refund Completed, 2 Pending, 3 Not Refunded, null Not Allowed */
  refund_status: z.number().int().min(0).max(3).nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type PayinRow = z.output<typeof payinRow>;

const statusFilter = z
  .union([z.number().int().min(0).max(4), z.enum(['', '0', '1', '2', '3', '4']), z.enum(PAYIN_STATUSES)], {
    error: 'transaction_status must be 0 to 4 or a status name',
  })
  .optional()
  .default('')
  .transform((v) => {
    const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
    return n !== undefined ? PAYIN_STATUS_OPTIONS[n].status : (v as string);
  });

/** The filters of the pay-in list and its export (document 3, /pay-in-order-details). */
const payinFilters = {
  /** which list: Payin (/payin, the default) or CardEye (/cardeye) */
  channel: z.enum(PAYIN_CHANNELS, { error: 'channel must be Payin or CardEye' }).optional().default('Payin'),
  sortby: sortBy,
  transaction_status: statusFilter,
  pay_in_reference: textFilter('pay_in_reference', 64),
  merchant_name: textFilter('merchant_name'),
  request_id: textFilter('request_id'),
  /** the payer's name, first, last or both */
  user_name: textFilter('user_name', 200),
  account_id: textFilter('account_id', 50),
  /** CardEye only: who requested it, in part */
  requested_by: textFilter('requested_by'),
  ...dateRangeFilters,
};
export const payinListRequest = z.object({ ...payinFilters, per_page: perPageField(100, 20), page: pageField() });
export const payinListResponse = pageOf(payinRow);
export const payinExportRequest = z.object({ ...payinFilters, format: exportFormat });
