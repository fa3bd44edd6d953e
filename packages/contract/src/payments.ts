import { z } from 'zod';
import { MSG } from './messages.ts';
import { MAX_AMOUNT_CENTS } from './money.ts';
import { messageAnswer, messages, operation } from './operation.ts';
import { INT4_MAX, WHOLE_NUMBER_TEXT, wholeNumber } from './params.ts';
import { isSafeText, TEXT_MSG } from './text.ts';

export const PAYMENT_MSG = {
  amountPositive: 'Must be greater than 0',
  amountWhole: 'Must be a whole number',
  amountExceeds: 'Must not exceed available balance',
  amountTooLarge: 'Amount is above the limit of a single payout',
  max50: 'Max 50 characters allowed',
  max10: 'Max 10 characters allowed',
  invalidObolId: 'Invalid Obol Id',
  brandMissing: 'Brand name does not exist',
  duplicateMtid: 'Merchant transaction id already exists',
  duplicateMtidInFile: 'Merchant transaction id is repeated in this file',
  uploadType: 'Please upload a CSV file',
  batchProcessing: 'Batch is in processing state.',
  noHolder: "Merchant/Brand doesn't exist",
  payoutCreated: 'Payout created successfully',
} as const;

/** Wallet ids are 9 digits. */
export const OBOL_ID_PATTERN = /^\d{9}$/;

/** A required text field of a form: trimmed, 1 to `max` characters, no control character or lone surrogate. */
export const requiredText = (max = 50) =>
  z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .max(max, max === 50 ? PAYMENT_MSG.max50 : `Max ${max} characters allowed`)
    .refine(isSafeText, TEXT_MSG.notAllowedHere);

export const obolIdField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .regex(OBOL_ID_PATTERN, PAYMENT_MSG.invalidObolId);

/** An amount in cents: from a number or a string of digits; positive, whole, within the payout limit. */
export const amountCents = z.union([z.number(), z.string()], { error: MSG.required }).transform((v, ctx) => {
  if (v === '') {
    ctx.addIssue({ code: 'custom', message: MSG.required });
    return z.NEVER;
  }
  // text as the whole-number rule of every integer field has it (params.ts): no padding, no leading zero, no fraction
  const n = typeof v === 'number' ? v : WHOLE_NUMBER_TEXT.test(v) ? Number(v) : NaN;
  if (Number.isNaN(n)) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_MSG.amountWhole });
    return z.NEVER;
  }
  if (n <= 0) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_MSG.amountPositive });
    return z.NEVER;
  }
  if (!Number.isInteger(n)) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_MSG.amountWhole });
    return z.NEVER;
  }
  if (n > MAX_AMOUNT_CENTS) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_MSG.amountTooLarge });
    return z.NEVER;
  }
  return n;
});

export const idempotencyKey = z
  .string({ error: 'idempotency_key is required' })
  .trim()
  .min(8, 'idempotency_key must be at least 8 characters')
  .max(100, 'idempotency_key must be at most 100 characters');

const requestCodeRequest = z.object({
  transaction_type: z.string().trim().max(50).optional().default('Manual Payout'),
  amount: amountCents,
  obol_id: obolIdField,
});

export const createPayoutRequest = z.object({
  idempotency_key: idempotencyKey,
  account_reference: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
  /** the merchant or brand paid for, when the Admin pays from the Fee Account (as the upload's behalf_of_id) */
  behalf_of_id: wholeNumber('behalf_of_id', 0, INT4_MAX).optional(),
  merchant_transaction_id: requiredText(),
  beneficiary_name: requiredText(),
  obol_id: obolIdField,
  brand: requiredText(),
  currency: z.literal('EUR', { error: 'Currency must be EUR' }).optional().default('EUR'),
  reference: requiredText(),
  amount: amountCents,
  total_payable: z.union([z.number(), z.string()]).optional(),
  available_balance: z.union([z.number(), z.string()]).optional(),
  code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20),
  transaction_type: z.string().trim().max(50).optional(),
});
export type CreatePayoutRequest = z.input<typeof createPayoutRequest>;

export const searchMerchantRequest = z.object({ search: z.string().trim().max(100).optional().default('') });

/** A merchant or brand that payouts are made on behalf of, as the picker shows it. */
const holderChoice = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.object({ name: z.string() })),
  /** 1 once the holder verified its e-mail */
  remember_token_status: z.union([z.literal(0), z.literal(1)]),
  /** the fee, in percent */
  fee: z.number(),
  accounts: z.object({ account_reference: z.string().nullable(), account_id: z.string().nullable() }),
});
export type HolderChoice = z.output<typeof holderChoice>;
/** A merchant with its active brands (a brand's own entry has none). */
const holderOption = holderChoice.extend({ active_brands: z.array(holderChoice) });
export type HolderOption = z.output<typeof holderOption>;
export const searchMerchantResponse = z.object({ data: z.array(holderOption) });

/** `id` 0 is the Fee Account (for the Admin). */
const merchantAccountsRequest = z.object({
  id: wholeNumber('id', 0, INT4_MAX),
  parent_id: wholeNumber('parent_id', 0, INT4_MAX).nullable().optional(),
});

const accountChoice = z.object({
  merchant_name: z.string(),
  account_id: z.string(),
  account_reference: z.string(),
  balance: z.number().int(),
});
export type AccountChoice = z.output<typeof accountChoice>;
/** The holder's payout accounts and its fee in percent (the Fee Account has no fee). */
const merchantAccountsResponse = z.object({ data: z.array(accountChoice), fee: z.number().optional() });
export type MerchantAccountsResponse = z.output<typeof merchantAccountsResponse>;

const createPayoutResponse = z.object({
  message: messages,
  batch_id: z.string(),
  payout: z.object({ id: z.number().int(), status: z.string(), amount: z.number().int(), fee: z.number().int() }),
  /** at or above the merchant's approval threshold: the approval it waits for (the answer is then a 202) */
  approval_id: z.number().int().optional(),
});
export type CreatePayoutResponse = z.output<typeof createPayoutResponse>;

// ---- the calls ----

const TAG = 'Payments';
const ISSUE_TRANSFER = 'User can able to issue a transfer on behalf of merchant';
export const paymentsOps = {
  searchMerchant: operation({
    id: 'searchMerchant',
    method: 'POST',
    path: '/api/search-merchant',
    tag: TAG,
    summary: 'The merchants and brands the caller may pay out for, matching a search, with their payout accounts',
    access: 'User can view payments',
    input: searchMerchantRequest,
    output: searchMerchantResponse,
  }),
  merchantAccounts: operation({
    id: 'merchantAccounts',
    method: 'POST',
    path: '/api/merchant-accounts',
    tag: TAG,
    summary: "A merchant's or brand's payout accounts and fee (id 0: the Fee Account, for the Admin)",
    access: 'User can view payments',
    input: merchantAccountsRequest,
    output: merchantAccountsResponse,
  }),
  requestCode: operation({
    id: 'requestCode',
    method: 'POST',
    path: '/api/request-code',
    tag: TAG,
    summary: 'A one-time code approving one manual payout (this amount to this wallet), by e-mail or the authenticator',
    access: ISSUE_TRANSFER,
    audit: 'payout.request-code',
    input: requestCodeRequest,
    output: messageAnswer,
  }),
  createPayout: operation({
    id: 'createPayout',
    method: 'POST',
    path: '/api/create-payout',
    tag: TAG,
    summary:
      'A manual payout approved by its code: reserved and queued; once per idempotency key. At or above the ' +
      "merchant's approval threshold it is reserved and answers 202 with status 'Pending approval' and its approval_id",
    access: ISSUE_TRANSFER,
    audit: 'payout.create',
    input: createPayoutRequest,
    output: createPayoutResponse,
    status: 201,
  }),
} as const;
