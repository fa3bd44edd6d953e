import { amountCents, MSG, OBOL_ID_PATTERN, PAYMENT_MSG } from '@obol/contract';
import type { RawRow } from './parse.ts';

export interface RowContext {
  /** lower-case names of the merchant's active brands */
  brands: Set<string>;
  /** the merchant transaction id is used earlier in this file */
  duplicateInFile: boolean;
  /** the merchant transaction id is used by an earlier payout of the merchant */
  duplicateOfPayout: boolean;
}

export interface ValidatedRow {
  values: RawRow;
  amount: number | null;
  errors: Partial<Record<keyof RawRow, string>>;
  missing: boolean;
  status: 'Pending' | 'Failed';
}

const TEXT_FIELDS = ['beneficiary_name', 'merchant_transaction_id', 'brand', 'reference'] as const;

/** The rules of one payout row; every error is kept per field so the review screen can mark it. */
export function validateRow(values: RawRow, ctx: RowContext): ValidatedRow {
  const errors: ValidatedRow['errors'] = {};
  let missing = false;
  for (const f of [...TEXT_FIELDS, 'obol_id', 'amount'] as const) {
    if (!values[f]) {
      errors[f] = MSG.required;
      missing = true;
    }
  }
  for (const f of [...TEXT_FIELDS, 'obol_id'] as const) {
    if (values[f] && values[f].length > 50) errors[f] = PAYMENT_MSG.max50;
  }
  if (values.obol_id && !errors.obol_id && !OBOL_ID_PATTERN.test(values.obol_id))
    errors.obol_id = PAYMENT_MSG.invalidObolId;
  let amount: number | null = null;
  if (values.amount) {
    if (values.amount.length > 10) errors.amount = PAYMENT_MSG.max10;
    else {
      const r = amountCents.safeParse(values.amount);
      if (r.success) amount = r.data;
      else errors.amount = r.error.issues[0].message;
    }
  }
  if (values.brand && !errors.brand && !ctx.brands.has(values.brand.toLowerCase()))
    errors.brand = PAYMENT_MSG.brandMissing;
  if (values.merchant_transaction_id && !errors.merchant_transaction_id) {
    if (ctx.duplicateInFile) errors.merchant_transaction_id = PAYMENT_MSG.duplicateMtidInFile;
    else if (ctx.duplicateOfPayout) errors.merchant_transaction_id = PAYMENT_MSG.duplicateMtid;
  }
  const failed = Object.keys(errors).length > 0;
  return { values, amount, errors, missing, status: failed ? 'Failed' : 'Pending' };
}
