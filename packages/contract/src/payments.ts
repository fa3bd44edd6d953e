import { z } from 'zod';
import { MSG } from './messages.ts';
import { MAX_AMOUNT_CENTS } from './money.ts';
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
export const amountCents = z.union([z.number(), z.string().trim()], { error: MSG.required }).transform((v, ctx) => {
  if (v === '') {
    ctx.addIssue({ code: 'custom', message: MSG.required });
    return z.NEVER;
  }
  const n = typeof v === 'number' ? v : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
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

export const requestCodeRequest = z.object({
  transaction_type: z.string().trim().max(50).optional().default('Manual Payout'),
  amount: amountCents,
  obol_id: obolIdField,
});

export const createPayoutRequest = z.object({
  idempotency_key: idempotencyKey,
  account_reference: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
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
