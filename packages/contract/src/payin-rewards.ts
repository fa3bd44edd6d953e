import { z } from 'zod';
import { exportFormat } from './downloads.ts';
import { textFilter } from './listFilters.ts';
import { pageOf, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import { PAYIN_STATUSES } from './payin-links.ts';
import { sortBy } from './payin-params.ts';

const REWARD_STATUSES = ['Rewarded', 'NotRewarded'] as const;
const REWARD_PAYOUT_STATUSES = ['Pending', 'Completed', 'Declined'] as const;
export const REWARD_MSG = {
  updated: 'Reward updated successfully.',
  notCompleted: 'Only the reward of a completed pay-in can be paid',
  alreadyRewarded: 'This reward was already paid',
  insufficient: 'The pay-in account does not hold the reward amount',
  refunded: 'The pay-in is refunded or a refund of it is in flight: its reward cannot be paid',
} as const;
/** The reward filter (section 9): 1 Rewarded, 2 Not Rewarded; 0 all. */
export const REWARD_STATUS_OPTIONS = [
  { value: 0, label: 'All Rewards', status: '' },
  { value: 1, label: 'Rewarded', status: 'Rewarded' },
  { value: 2, label: 'Not Rewarded', status: 'NotRewarded' },
] as const;

/** One reward as Payin Rewards shows it (the spec's Reward row). */
export const rewardRow = z.object({
  id: z.number().int(),
  pay_in_reference: z.string(),
  /** the payer's Obol wallet (the spec's user_{product}_id) */
  user_obol_id: z.string(),
  merchant_name: z.string(),
  brand_name: z.string().nullable(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** the pay-in's status */
  transaction_status: z.enum(PAYIN_STATUSES),
  /**
   * the pay-in's refund status (section 4's codes): a reward is not paid for a refunded pay-in (1) or one being
   * refunded (2)
   */
  refund_status: z.number().int().nullable(),
  reward_status: z.enum(REWARD_STATUSES),
  /** the payment to the wallet: null before any, Pending, Completed, or Declined (then NotRewarded again) */
  payout_status: z.enum(REWARD_PAYOUT_STATUSES).nullable(),
  /** why the last payment to the wallet was refused */
  reason: z.string().nullable(),
  created_at: timestamp,
  rewarded_at: timestamp.nullable(),
});
export type RewardRow = z.output<typeof rewardRow>;

const rewardStatusFilter = z
  .union([z.number().int().min(0).max(2), z.enum(['', '0', '1', '2', 'Rewarded', 'NotRewarded'])], {
    error: 'reward_status must be 0, 1, 2, Rewarded or NotRewarded',
  })
  .optional()
  .default('')
  .transform((v) => {
    const n = typeof v === 'number' ? v : /^\d$/.test(v) ? Number(v) : undefined;
    return n !== undefined ? (REWARD_STATUS_OPTIONS[n].status as string) : (v as string);
  });
/** The filters of the reward list and its export: search (pay-in reference, wallet, merchant or brand), status. */
const rewardFilters = {
  search: textFilter('search'),
  sortby: sortBy,
  reward_status: rewardStatusFilter,
};
export const rewardListRequest = z.object({
  ...rewardFilters,
  per_page: perPageField(100, 20),
  page: pageField(),
  /** when updating: the reward to pay */
  id: wholeNumber('id', 1, INT4_MAX, 'id must be a reward id').optional(),
});
export const rewardListResponse = pageOf(rewardRow).extend({ message: z.array(z.string()).optional() });
export const rewardExportRequest = z.object({ ...rewardFilters, format: exportFormat });
