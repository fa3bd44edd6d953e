import { z } from 'zod';
import { dateFilter } from './listFilters.ts';
import { MSG } from './messages.ts';
import { MAX_FEE_BPS } from './money.ts';
import { messages, operation, pageOf, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';

export const FEE_MSG = {
  range: 'Amount must be from 0 to 100',
  reasonRequired: 'Give the reason for the change',
  reasonLength: 'The reason must be 3 to 255 characters',
  unchanged: 'The fee is already this percentage',
  updated: 'Fee updated successfully.',
  notFound: "Merchant/Brand doesn't exist",
} as const;

/**
 * A fee in percent as typed (a number or its text): above 0 and at most 100, with at most two decimals, turned
 * into whole basis points exactly (1.25 -> 125), never through a float product.
 */
export const feePercent = z
  .union([z.number(), z.string().trim()], { error: (i) => (i.input === undefined ? MSG.required : FEE_MSG.range) })
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v;
    const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text);
    const bps = m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
    if (!(bps > 0 && bps <= MAX_FEE_BPS)) {
      ctx.addIssue({ code: 'custom', message: FEE_MSG.range });
      return z.NEVER;
    }
    return bps;
  });

const feeListRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
});

/** A merchant or brand with its fee as the Fee Module lists it. */
const feeRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['Merchant', 'Brand']),
  /** a brand's merchant */
  parent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** percent */
  fee: z.number(),
  /** when the fee last changed through the Fee Module or the merchant's edit; null if never */
  changed_at: timestamp.nullable(),
});
export type FeeRow = z.output<typeof feeRow>;
const feeListResponse = pageOf(feeRow);
export type FeeListResponse = z.output<typeof feeListResponse>;

const updateFeeRequest = z.object({
  id: wholeNumber('id', 1, INT4_MAX),
  fee: feePercent,
  reason: z
    .string({ error: FEE_MSG.reasonRequired })
    .trim()
    .min(1, FEE_MSG.reasonRequired)
    .min(3, FEE_MSG.reasonLength)
    .max(255, FEE_MSG.reasonLength),
});
const updateFeeResponse = z.object({ message: messages, fee: z.number() });

const feeHistoryRequest = z.object({ id: wholeNumber('id', 1, INT4_MAX) });
const feeChangeRow = z.object({
  id: z.number().int(),
  old_fee: z.number(),
  new_fee: z.number(),
  reason: z.string(),
  changed_by: z.string(),
  changed_at: timestamp,
});
export type FeeChangeRow = z.output<typeof feeChangeRow>;
const feeHistoryResponse = z.object({ data: z.array(feeChangeRow) });

/** The Fee Account's income by UTC day or month between two dates (both optional: the last 30 days). */
const feeIncomeRequest = z.object({
  group: z.enum(['day', 'month'], { error: 'group must be day or month' }).optional().default('day'),
  start_date: dateFilter,
  end_date: dateFilter,
});
const feeIncomeResponse = z.object({
  start_date: z.string(),
  end_date: z.string(),
  /** cents credited to the Fee Account less cents taken back from it, per period (UTC), oldest first */
  data: z.array(z.object({ period: z.string(), amount: z.number().int() })),
  total: z.number().int(),
});
export type FeeIncomeResponse = z.output<typeof feeIncomeResponse>;

// ---- the calls ----

const TAG = 'Fee Module';
const FEE_MODULE = 'User can view fee module';
export const feeOps = {
  feeList: operation({
    id: 'feeList',
    method: 'POST',
    path: '/api/fee-list',
    tag: TAG,
    summary: 'Every merchant and brand with its fee in percent, by name or e-mail, 10 a page',
    access: FEE_MODULE,
    input: feeListRequest,
    output: feeListResponse,
  }),
  updateFee: operation({
    id: 'updateFee',
    method: 'POST',
    path: '/api/update-fee',
    tag: TAG,
    summary: "Changes a merchant's or brand's fee with a reason; payouts created after it use the new fee",
    access: FEE_MODULE,
    audit: 'fees.update',
    input: updateFeeRequest,
    output: updateFeeResponse,
  }),
  feeHistory: operation({
    id: 'feeHistory',
    method: 'POST',
    path: '/api/fee-history',
    tag: TAG,
    summary: "The changes of a merchant's or brand's fee, newest first",
    access: FEE_MODULE,
    input: feeHistoryRequest,
    output: feeHistoryResponse,
  }),
  feeIncome: operation({
    id: 'feeIncome',
    method: 'POST',
    path: '/api/fee-income',
    tag: TAG,
    summary: "The Fee Account's net income per UTC day or month, from the ledger",
    access: FEE_MODULE,
    input: feeIncomeRequest,
    output: feeIncomeResponse,
  }),
} as const;
