import { z } from 'zod';
import { exportFormat, exportResponse } from './downloads.ts';
import { dateRangeFilters, textFilter } from './listFilters.ts';
import { MSG } from './messages.ts';
import { operation, pageOf, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { amountCents, obolIdField, requiredText } from './payments.ts';

/** What the merchant API says. */
export const PAYIN_MSG = {
  apiKeyMissing: 'Send the API key as X-API-Key: <public key>:<private key>',
  apiKeyInvalid: 'Invalid API key',
  tokenInvalid: 'Invalid or expired token: ask /api/token for a new one',
  referenceUsed: 'This reference was already used for another pay-in',
  dateOfBirth: 'Must be a date (YYYY-MM-DD) in the past',
  returnUrl: 'Must be an http(s) URL',
  idempotencyKey: 'The Idempotency-Key header must be 1 to 100 characters',
  tooLarge: 'Must not exceed 100000000 cents',
  requestedBy: 'Required for a CardEye payment: who requested it',
  rewardBoth: 'Send user_obol_id and reward_amount together',
  rewardTooLarge: 'A reward must not exceed the pay-in amount',
  walletOtherBrand: "This wallet belongs to a brand that is not this merchant's",
} as const;

/** Payin: a link the merchant's shop sends its payer; CardEye: a card payment the merchant's staff request. */
export const PAYIN_CHANNELS = ['Payin', 'CardEye'] as const;
export type PayinChannel = (typeof PAYIN_CHANNELS)[number];

/** The largest pay-in link the API makes: one million euros, in cents. */
export const PAYIN_MAX_CENTS = 100_000_000;

/** A merchant API token lives this long (seconds). */
export const MERCHANT_TOKEN_SECONDS = 15 * 60;

/** The pay-in's transaction status (section 4) and the link's. */
export const PAYIN_STATUSES = ['Pending', 'Completed', 'Declined', 'Expired'] as const;
export const PAYIN_LINK_STATUSES = ['Initiated', 'Expired'] as const;

const isPastDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return (
    !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getTime() < Date.now() && v >= '1900-01-01'
  );
};

export const merchantTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** seconds */
  expires_in: z.number().int(),
});

export const merchantTestResponse = z.object({
  ok: z.literal(true),
  /** the merchant the key belongs to (a brand's: its merchant) */
  merchant_name: z.string(),
  /** the brand, for a brand's key */
  brand_name: z.string().nullable(),
  /** the pay-in account the links credit */
  account_id: z.string().nullable(),
  token_expires_at: z.string(),
});

export const createPayinLinkRequest = z.object({
  /** cents */
  amount: amountCents.pipe(z.number().max(PAYIN_MAX_CENTS, PAYIN_MSG.tooLarge)),
  /** the merchant's own reference, unique per merchant (its brands included) */
  reference: requiredText(64),
  first_name: requiredText(100),
  last_name: requiredText(100),
  /** YYYY-MM-DD */
  date_of_birth: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .refine(isPastDate, PAYIN_MSG.dateOfBirth),
  /** where the hosted page sends the payer afterwards */
  return_url: z
    .string()
    .trim()
    .max(500, PAYIN_MSG.returnUrl)
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), PAYIN_MSG.returnUrl)
    .optional(),
  /** Payin (the default) or CardEye: a card payment taken by the merchant's staff, listed under CardEye */
  channel: z.enum(PAYIN_CHANNELS, { error: 'channel must be Payin or CardEye' }).optional().default('Payin'),
  /** CardEye: the operator or terminal that requested it (required there) */
  requested_by: z.string().trim().max(100, 'Max 100 characters allowed').optional(),
  /** a reward (cashback) promised to the payer: their Obol wallet and the amount in cents, both or neither */
  user_obol_id: obolIdField.optional(),
  reward_amount: amountCents.optional(),
});
/** The rules across fields of a pay-in link, each on its field (the route checks them after the fields). */
export function payinLinkProblems(v: {
  amount: number;
  channel: PayinChannel;
  requested_by?: string;
  user_obol_id?: string;
  reward_amount?: number;
}): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (v.channel === 'CardEye' && !v.requested_by) out.push({ field: 'requested_by', message: PAYIN_MSG.requestedBy });
  if ((v.user_obol_id === undefined) !== (v.reward_amount === undefined))
    out.push({ field: v.user_obol_id === undefined ? 'user_obol_id' : 'reward_amount', message: PAYIN_MSG.rewardBoth });
  else if (v.reward_amount !== undefined && v.reward_amount > v.amount)
    out.push({ field: 'reward_amount', message: PAYIN_MSG.rewardTooLarge });
  return out;
}
export type CreatePayinLinkRequest = z.input<typeof createPayinLinkRequest>;

export const payinLinkResponse = z.object({
  /** the pay-in's request id (the provider's link id) */
  request_id: z.string(),
  reference: z.string(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** the hosted page the payer pays on */
  url: z.string(),
  channel: z.enum(PAYIN_CHANNELS),
  transaction_status: z.enum(PAYIN_STATUSES),
  link_status: z.enum(PAYIN_LINK_STATUSES),
  expires_at: z.string(),
  created_at: z.string(),
});
export type PayinLinkResponse = z.output<typeof payinLinkResponse>;

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
const sortBy = z.enum(['DESC', 'ASC'], { error: 'sortby must be DESC or ASC' }).optional().default('DESC');

/** The filters of the pay-in list and its export (document 3, /pay-in-order-details). */
export const payinFilters = {
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
export type PayinListRequest = z.input<typeof payinListRequest>;
export const payinListResponse = pageOf(payinRow);
export type PayinListResponse = z.output<typeof payinListResponse>;
export const payinExportRequest = z.object({ ...payinFilters, format: exportFormat });
export type PayinExportRequest = z.input<typeof payinExportRequest>;

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
export const refundRow = z.object({
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
export const refundFilters = {
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
export type RefundListRequest = z.input<typeof refundListRequest>;
export const refundListResponse = pageOf(refundRow);
export const refundExportRequest = z.object({ ...refundFilters, format: exportFormat });

// ---- pay-in rewards ----

export const REWARD_STATUSES = ['Rewarded', 'NotRewarded'] as const;
export const REWARD_PAYOUT_STATUSES = ['Pending', 'Completed', 'Declined'] as const;
export const REWARD_MSG = {
  updated: 'Reward updated successfully.',
  notCompleted: 'Only the reward of a completed pay-in can be paid',
  alreadyRewarded: 'This reward was already paid',
  insufficient: 'The pay-in account does not hold the reward amount',
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
export const rewardFilters = {
  search: textFilter('search'),
  sortby: sortBy,
  reward_status: rewardStatusFilter,
};
export const rewardListRequest = z.object({
  ...rewardFilters,
  per_page: perPageField(100, 20),
  page: pageField(),
  /** when updating: the reward to pay */
  id: z.coerce
    .number({ error: 'id must be a reward id' })
    .int('id must be a reward id')
    .positive('id must be a reward id')
    .optional(),
});
export type RewardListRequest = z.input<typeof rewardListRequest>;
export const rewardListResponse = pageOf(rewardRow).extend({ message: z.array(z.string()).optional() });
export type RewardListResponse = z.output<typeof rewardListResponse>;
export const rewardExportRequest = z.object({ ...rewardFilters, format: exportFormat });
export type RewardExportRequest = z.input<typeof rewardExportRequest>;

const TAG = 'Merchant API';

/**
 * The merchant API: what a merchant's own system calls with its API key (Administration, API Keys), not the
 * back-office's session. Both answer 401 without valid credentials and are rate limited per key.
 */
export const payinOps = {
  merchantToken: operation({
    id: 'merchantToken',
    method: 'POST',
    path: '/api/token',
    tag: TAG,
    summary:
      'A short-lived bearer token for the merchant API, for the API key sent as `X-API-Key: <public key>:<private key>` ' +
      `(401 for a wrong, revoked or expired key; the token lives ${MERCHANT_TOKEN_SECONDS / 60} minutes)`,
    access: 'public',
    security: 'api-key',
    output: merchantTokenResponse,
    examples: {
      response: {
        access_token: 'mt_eyJrIjoxLCJ1Ijo3LCJlIjoxNzk1NjI2NDE3fQ.3q2…',
        token_type: 'Bearer',
        expires_in: 900,
      },
    },
  }),
  merchantTest: operation({
    id: 'merchantTest',
    method: 'POST',
    path: '/api/test',
    tag: TAG,
    summary:
      "The demo provider's test call: checks a token (`Authorization: Bearer <token from /api/token>`) and answers " +
      'whose it is, the pay-in account its links credit, and when it ends; 401 otherwise. Changes nothing.',
    access: 'public',
    security: 'merchant-token',
    output: merchantTestResponse,
    examples: {
      response: {
        ok: true,
        merchant_name: 'Acme Payouts',
        brand_name: null,
        account_id: 'PI00000007',
        token_expires_at: '2026-11-25T18:15:00.000Z',
      },
    },
  }),
  createPayinLink: operation({
    id: 'createPayinLink',
    method: 'POST',
    path: '/api/create-payin-link',
    tag: TAG,
    summary:
      'A pay-in link at the provider for a payer, with `Authorization: Bearer <token from /api/token>`: the amount in ' +
      'cents, a reference unique per merchant, the payer. An `Idempotency-Key` header makes a retry answer the same ' +
      'link. The pay-in is Pending until the provider reports it Completed (credited to the pay-in account), ' +
      'Declined or Expired.',
    access: 'public',
    security: 'merchant-token',
    audit: 'payin.create-link',
    input: createPayinLinkRequest,
    output: payinLinkResponse,
    status: 201,
    examples: {
      request: {
        amount: 2599,
        reference: 'order-10042',
        first_name: 'Ana',
        last_name: 'Novak',
        date_of_birth: '1990-04-12',
        return_url: 'https://shop.example/orders/10042',
      },
      response: {
        request_id: 'pl_000001',
        reference: 'order-10042',
        amount: 2599,
        currency: 'EUR',
        url: 'http://127.0.0.1:3100/pay/pl_000001',
        channel: 'Payin',
        transaction_status: 'Pending',
        link_status: 'Initiated',
        expires_at: '2026-11-25T18:15:00.000Z',
        created_at: '2026-11-25T18:00:00.000Z',
      },
    },
  }),
  payinList: operation({
    id: 'payinList',
    method: 'POST',
    path: '/api/pay-in-order-details',
    tag: 'Pay-ins',
    summary:
      "The pay-ins (channel Payin, with 'User can view pay in panel') or CardEye payments (channel CardEye, with " +
      "'User can view cardeye transactions') of the caller's scope, 20 a page by date, with the status codes " +
      '(1 Completed, 2 Declined, 3 Expired, 4 Pending) and the filter panel (reference, merchant, request id, payer, ' +
      'account, requested by (CardEye), dates)',
    access: ['User can view pay in panel', 'User can view cardeye transactions'],
    input: payinListRequest,
    output: payinListResponse,
  }),
  exportPayins: operation({
    id: 'exportPayins',
    method: 'POST',
    path: '/api/export-payin-record',
    tag: 'Pay-ins',
    summary:
      'Exports the pay-in or CardEye list (its filters, no paging) as a background job into the transactions ' +
      "download list; needs the list's own permission too",
    access: 'User can export transactions',
    audit: 'payin.export',
    input: payinExportRequest,
    output: exportResponse,
  }),
  generateRefundCode: operation({
    id: 'generateRefundCode',
    method: 'POST',
    path: '/api/generate-refund-code',
    tag: 'Pay-ins',
    summary:
      'A one-time code (e-mailed, valid 24 hours, or the authenticator when the user chose it) bound to refunding ' +
      'this pay-in (`reference` is its request id); only a Completed pay-in with refund status 0 or 3',
    access: 'User can view cardeye transactions',
    audit: 'payin.refund-code',
    input: refundCodeRequest,
    output: z.object({ message: z.array(z.string()) }),
  }),
  payinRefund: operation({
    id: 'payinRefund',
    method: 'POST',
    path: '/api/payin-refund',
    tag: 'Pay-ins',
    summary:
      "Refunds a pay-in with its code: the amount leaves the holder's pay-in account at once (refund status 2) and " +
      'goes to the provider; Completed makes it 1, a decline returns the money and makes it 0. Once per pay-in.',
    access: 'User can view cardeye transactions',
    audit: 'payin.refund',
    input: payinRefundRequest,
    output: payinRefundResponse,
  }),
  payinRewards: operation({
    id: 'payinRewards',
    method: 'POST',
    path: '/api/payin-rewards',
    tag: 'Pay-ins',
    summary:
      "The rewards promised to payers in the caller's scope, 20 a page by date, with search and the reward filter " +
      '(1 Rewarded, 2 Not Rewarded). With `id`, first pays that reward: once its pay-in is Completed, the amount ' +
      "leaves the holder's pay-in account for the payer's wallet, exactly once (Rewarded); a wallet the provider " +
      'refuses gets the money back and the reward is Not Rewarded again, with the reason.',
    access: 'User can view pay in reward',
    audit: 'payin.reward',
    input: rewardListRequest,
    output: rewardListResponse,
  }),
  exportPayinRewards: operation({
    id: 'exportPayinRewards',
    method: 'POST',
    path: '/api/export-payin-rewards',
    tag: 'Pay-ins',
    summary:
      'Exports the reward list (its search and filter, no paging) as a background job into the transactions ' +
      "download list; needs 'User can view pay in reward' too",
    access: 'User can export transactions',
    audit: 'reward.export',
    input: rewardExportRequest,
    output: exportResponse,
  }),
  refundList: operation({
    id: 'refundList',
    method: 'POST',
    path: '/api/refunds-detail',
    tag: 'Pay-ins',
    summary:
      "The refunds of the caller's scope, 20 a page by date: status (1 Completed, 2 Declined, 4 Pending), type " +
      '(1 CardEye, 2 Payin), provider refund id, pay-in reference, account, request id and dates',
    access: 'User can view cardeye transactions',
    input: refundListRequest,
    output: refundListResponse,
  }),
  exportRefunds: operation({
    id: 'exportRefunds',
    method: 'POST',
    path: '/api/export-refunds-detail',
    tag: 'Pay-ins',
    summary:
      'Exports the refund list (its filters, no paging) as a background job into the transactions download list; ' +
      "needs 'User can view cardeye transactions' too",
    access: 'User can export transactions',
    audit: 'refund.export',
    input: refundExportRequest,
    output: exportResponse,
  }),
} as const;
