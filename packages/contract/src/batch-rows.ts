import { MSG } from './messages.ts';
import { amountCents, OBOL_ID_PATTERN, PAYMENT_MSG } from './payments.ts';
import { isSafeName, TEXT_MSG } from './text.ts';

/** The columns of a payout file, in the template's order. */
export const BATCH_COLUMNS = [
  'beneficiary_name',
  'obol_id',
  'merchant_transaction_id',
  'brand',
  'reference',
  'amount',
] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];
/** One row of a payout file (or of the review page's row editor), every value as text. */
export type RawRow = Record<BatchColumn, string>;

/**
 * Processing (being staged, or executing once `executed_at` is set) -> Pending (staged, awaiting execution) ->
 * Completed; Pending -> Declined (cleared), Processing -> Declined (the file was refused while staging).
 * Pending approval: executed at or above the merchant's approval threshold, reserved, waiting for a second person.
 */
export const BATCH_STATUSES = ['Processing', 'Pending', 'Declined', 'Completed', 'Pending approval'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
/** A staged row is executable (Pending) or not (Failed). */
export const STAGED_STATUSES = ['Pending', 'Failed'] as const;
export type StagedStatus = (typeof STAGED_STATUSES)[number];

/** What the rules of a row need to know beyond the row: only the server can say (the database). */
export interface RowContext {
  /** lower-case names of the merchant's active brands */
  brands: Set<string>;
  /** the merchant transaction id is used earlier in this file */
  duplicateInFile: boolean;
  /** the merchant transaction id is used by an earlier payout of the merchant */
  duplicateOfPayout: boolean;
}

interface ValidatedRow {
  values: RawRow;
  /** the amount in cents, when it is valid */
  amount: number | null;
  errors: Partial<Record<BatchColumn, string>>;
  /** some required field is empty */
  missing: boolean;
  status: StagedStatus;
}

const TEXT_FIELDS = ['beneficiary_name', 'merchant_transaction_id', 'brand', 'reference'] as const;

/** A row as edited: every value trimmed (an amount may come as a number). */
export const trimRow = (row: Record<BatchColumn, string | number>): RawRow => ({
  beneficiary_name: String(row.beneficiary_name).trim(),
  obol_id: String(row.obol_id).trim(),
  merchant_transaction_id: String(row.merchant_transaction_id).trim(),
  brand: String(row.brand).trim(),
  reference: String(row.reference).trim(),
  amount: String(row.amount).trim(),
});

/**
 * The rules of one payout row, every error kept per field so the review page can mark it: the server's
 * staging and row edits, and the review page's row editor. Without a context (the row editor) the rules
 * that need the database (the brand exists, the merchant transaction id is not taken) are left to the server.
 */
export function validateRow(values: RawRow, ctx?: RowContext): ValidatedRow {
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
  // a name, shown in lists, files and the provider's statements: no direction overrides (text.ts, the name variant)
  if (values.beneficiary_name && !errors.beneficiary_name && !isSafeName(values.beneficiary_name))
    errors.beneficiary_name = TEXT_MSG.notAllowedHere;
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
  if (ctx && values.brand && !errors.brand && !ctx.brands.has(values.brand.toLowerCase()))
    errors.brand = PAYMENT_MSG.brandMissing;
  if (ctx && values.merchant_transaction_id && !errors.merchant_transaction_id) {
    if (ctx.duplicateInFile) errors.merchant_transaction_id = PAYMENT_MSG.duplicateMtidInFile;
    else if (ctx.duplicateOfPayout) errors.merchant_transaction_id = PAYMENT_MSG.duplicateMtid;
  }
  const failed = Object.keys(errors).length > 0;
  return { values, amount, errors, missing, status: failed ? 'Failed' : 'Pending' };
}

/**
 * The third amount rule of a row edit (the manual payout's: 'Must not exceed available balance'): the row's amount
 * within the paying account's balance. Staging does not apply it (the batch's total is checked when it runs); the
 * review page's editor and the server's row edit do.
 */
export function rowAmountIssue(amount: number | null, balance: number | undefined): string | undefined {
  if (amount === null || balance === undefined) return undefined;
  return amount > balance ? PAYMENT_MSG.amountExceeds : undefined;
}
