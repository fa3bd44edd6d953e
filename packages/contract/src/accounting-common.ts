import { z } from 'zod';
import { MSG } from './messages.ts';
import { PAYMENT_MSG } from './payments.ts';
import { WHOLE_NUMBER_TEXT } from './params.ts';

/**
 * The accounting module (2D) of document 2, sections 2.6-2.9: companies with their bank accounts at the provider,
 * transfers from a company account (2D Payments), scheduled rules and the 2D transactions they and the transfers make.
 */
export const ACCOUNTING_MSG = {
  required: MSG.required,
  requiredShort: MSG.requiredShort,
  emailInvalid: MSG.emailInvalid,
  incorrectPassword: MSG.incorrectPassword,
  companyRegistered: 'Company registered. The account holder has been asked by e-mail to approve the account access.',
  companyExists: 'A company with this API key is already registered',
  invalidCompanyKey: 'Invalid company API key',
  companyNotFound: 'Company does not exist',
  companyInactive: 'The company is inactive',
  consentPending: 'The account holder has not approved the account access yet',
  activated: 'Company activated successfully',
  deactivated: 'Company deactivated successfully',
  deactivateWarning: 'Transactions for this company would be stopped!',
  consentApproved: 'Account access approved. Obol can now see the balances of these accounts.',
  consentInvalid: 'This consent link is not valid or has expired',
  accountNotFound: 'Account does not exist',
  beneficiaryNotFound: 'Beneficiary does not exist',
  sameAccount: 'Choose an account other than the source account',
  amountPositive: 'Amount must be an integer & greater than 0',
  amountWhole: PAYMENT_MSG.amountWhole,
  amountExceeds: 'Must not exceed available balance',
  max100: 'This field must be 100 characters or less',
  alphanumeric: 'Only alphanumeric characters are allowed',
  selectAccount: 'Please select account first',
  codeSent: 'A verification code has been sent to your e-mail',
  transferred: 'Amount transferred successfully',
  transferPending: 'Transfer sent. It is pending until the bank confirms it.',
  percentDecimal: 'Value must be a valid decimal with up to 2 decimal places',
  percentRange: 'Percentage must be greater than 0 and up to 100.',
  ruleAmountWhole: 'Value must be a whole number',
  timeFormat: 'Time must be HH:MM in 24-hour format (UTC)',
  weekdayRequired: 'Choose a day of the week',
  monthDayRange: 'Day of month must be from 1 to 31',
  ruleCreated: 'Rule created successfully',
  ruleActivated: 'Rule activated successfully',
  ruleDeactivated: 'Rule deactivated successfully',
  ruleDeleted: 'Rule deleted successfully',
  ruleNotFound: 'Rule does not exist',
  ruleDeactivateWarning: 'This rule will no longer be executed!',
  ruleDeleteWarning: 'This rule will be deleted permanently!',
} as const;

export const TRANSFER_TYPES = ['external_transfer', 'internal_transfer'] as const;
export type AccountingTransferType = (typeof TRANSFER_TYPES)[number];

/** The statuses of a 2D transaction (document 2, section 4). */
export const ACCOUNTING_STATUSES = [
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'PENDING_APPROVAL',
  'PENDING',
  'REFUNDED',
] as const;
export type AccountingStatus = (typeof ACCOUNTING_STATUSES)[number];

/**
 * The status filter: the spec's values plus Failed, and Refunded distinct from Pending Approval (DECISIONS.md).
 * `value` is what the call sends.
 */
export const ACCOUNTING_STATUS_OPTIONS = [
  { value: '', label: 'All' },
  { value: 'Completed', label: 'Completed', status: 'COMPLETED' },
  { value: 'Rejected', label: 'Rejected', status: 'REJECTED' },
  { value: 'Failed', label: 'Failed', status: 'FAILED' },
  { value: 'Pending', label: 'Pending', status: 'PENDING' },
  { value: 'Pending_Approval', label: 'Pending Approval', status: 'PENDING_APPROVAL' },
  { value: 'Refunded', label: 'Refunded', status: 'REFUNDED' },
] as const;

/** Rule types: 0 amount, 1 percentage (the rule-type filter; '' all). */
export const RULE_TYPE_OPTIONS = [
  { value: '', label: 'All' },
  { value: 0, label: 'Amount' },
  { value: 1, label: 'Percentage' },
] as const;

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const INTERVAL_TYPES = ['daily', 'weekly', 'monthly'] as const;
export type IntervalType = (typeof INTERVAL_TYPES)[number];

/** cents: required, digits only, above 0 (document 2, section 5). */
export const accountingAmount = z.union([z.number(), z.string()], { error: MSG.required }).transform((v, ctx) => {
  if (v === '') {
    ctx.addIssue({ code: 'custom', message: MSG.required });
    return z.NEVER;
  }
  if (typeof v === 'string' && v.length > 50) {
    ctx.addIssue({ code: 'custom', message: 'Max 50 characters allowed' });
    return z.NEVER;
  }
  // text as the whole-number rule of every integer field has it (params.ts): no padding, no leading zero
  if (typeof v === 'string' && (!WHOLE_NUMBER_TEXT.test(v) || v.startsWith('-'))) {
    ctx.addIssue({
      code: 'custom',
      message: WHOLE_NUMBER_TEXT.test(v) ? ACCOUNTING_MSG.amountPositive : ACCOUNTING_MSG.amountWhole,
    });
    return z.NEVER;
  }
  const n = Number(v);
  if (!Number.isInteger(n)) {
    ctx.addIssue({ code: 'custom', message: ACCOUNTING_MSG.amountWhole });
    return z.NEVER;
  }
  if (n <= 0) {
    ctx.addIssue({ code: 'custom', message: ACCOUNTING_MSG.amountPositive });
    return z.NEVER;
  }
  if (n > 100_000_000_000) {
    ctx.addIssue({ code: 'custom', message: PAYMENT_MSG.amountTooLarge });
    return z.NEVER;
  }
  return n;
});

/** A percentage with up to 2 decimals, above 0 and at most 100, as basis points (12.5 -> 1250). */
export const percentageField = z.union([z.number(), z.string().trim()], { error: MSG.required }).transform((v, ctx) => {
  const s = typeof v === 'number' ? String(v) : v;
  if (s === '') {
    ctx.addIssue({ code: 'custom', message: MSG.required });
    return z.NEVER;
  }
  if (!/^\d+(\.\d{1,2})?$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: ACCOUNTING_MSG.percentDecimal });
    return z.NEVER;
  }
  const [whole, frac = ''] = s.split('.');
  const bps = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (bps <= 0 || bps > 10_000) {
    ctx.addIssue({ code: 'custom', message: ACCOUNTING_MSG.percentRange });
    return z.NEVER;
  }
  return bps;
});

/** Basis points as the percentage people read: 1250 -> '12.5', 1000 -> '10', 5 -> '0.05'. */
export const bpsToPercent = (bps: number) => {
  const s = (bps / 100).toFixed(2);
  return s.replace(/\.?0+$/, '');
};
