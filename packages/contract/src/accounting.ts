import { z } from 'zod';
import { email } from './auth.ts';
import { exportFormat, exportResponse } from './downloads.ts';
import { MSG } from './messages.ts';
import { messageAnswer, operation, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import { idempotencyKey, PAYMENT_MSG } from './payments.ts';
import { isSafeText, TEXT_MSG } from './text.ts';

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

const id = (name = 'id') => wholeNumber(name, 1, INT4_MAX);
const ruleTypeFilter = z
  .union([z.literal(''), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], {
    error: 'rule_type must be empty, 0 (amount) or 1 (percentage)',
  })
  .optional()
  .default('')
  .transform((v): '' | 0 | 1 => (v === '' ? '' : (Number(v) as 0 | 1)));
const searchField = z.string().trim().max(100, 'search must be at most 100 characters').optional().default('');
const sortBy = z.enum(['DESC', 'ASC'], { error: 'sortby must be DESC or ASC' }).optional().default('DESC');
const statusFilter = z
  .enum(['', 'Completed', 'Rejected', 'Failed', 'Pending', 'Pending_Approval', 'Refunded'], {
    error: 'status must be empty, Completed, Rejected, Failed, Pending, Pending_Approval or Refunded',
  })
  .optional()
  .default('')
  .transform((v) => (v === '' ? '' : (v.toUpperCase() as AccountingStatus)));

/** An accounting text field: required, at most 100 characters. */
const text100 = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(100, ACCOUNTING_MSG.max100)
  .refine(isSafeText, TEXT_MSG.notAllowedHere);
/** The reference (purpose of payment) of a transfer or rule: letters, digits and spaces. */
const referenceField = text100.refine((v) => /^[A-Za-z0-9 ]+$/.test(v), ACCOUNTING_MSG.alphanumeric);

/** cents: required, digits only, above 0 (document 2, section 5). */
export const accountingAmount = z
  .union([z.number(), z.string().trim()], { error: MSG.required })
  .transform((v, ctx) => {
    if (v === '') {
      ctx.addIssue({ code: 'custom', message: MSG.required });
      return z.NEVER;
    }
    if (typeof v === 'string' && v.length > 50) {
      ctx.addIssue({ code: 'custom', message: 'Max 50 characters allowed' });
      return z.NEVER;
    }
    if (typeof v === 'string' && !/^\d+$/.test(v)) {
      ctx.addIssue({
        code: 'custom',
        message: /^-?\d+$/.test(v) ? ACCOUNTING_MSG.amountPositive : ACCOUNTING_MSG.amountWhole,
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

// ---- companies ----

export const companiesRequest = z.object({ per_page: perPageField(), page: pageField(), search: searchField });
export type CompaniesRequest = z.input<typeof companiesRequest>;

export const companyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** never the key: asterisks until revealed with the password */
  api_key: z.string(),
  /** 1 active, 0 inactive */
  status: z.number().int(),
  /** the account holder's approval of the account access */
  consent: z.enum(['Pending', 'Approved']),
  accounts: z.number().int(),
  created_at: timestamp,
});
export type CompanyRow = z.output<typeof companyRow>;
export const companiesResponse = z.object({
  companies: z.array(companyRow),
  total: z.number().int(),
  all_companies: z.number().int(),
  active_company: z.number().int(),
  in_active_company: z.number().int(),
});
export type CompaniesResponse = z.output<typeof companiesResponse>;

export const registerCompanyRequest = z.object({
  name: text100,
  email,
  api_key: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(200, 'api_key is too long'),
});
export type RegisterCompanyRequest = z.input<typeof registerCompanyRequest>;

export const statusRequest = z.object({
  id: id(),
  status: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'status must be 0 or 1' })
    .transform(Number),
});
export type StatusRequest = z.input<typeof statusRequest>;

export const companyKeyRequest = z.object({
  id: id(),
  current_password: z.string({ error: MSG.requiredShort }).min(1, MSG.requiredShort).max(128),
});
export type CompanyKeyRequest = z.input<typeof companyKeyRequest>;
export const companyKeyResponse = z.object({
  user_verified: z.literal(1),
  api_key: z.string(),
  message: z.array(z.string()),
});

export const companyOption = z.object({ name: z.string(), value: z.number().int() });
export const companyListResponse = z.object({ companies: z.array(companyOption) });

export const companyAccount = z.object({
  /** the provider's account id */
  id: z.string(),
  name: z.string(),
  account_iban: z.string(),
  account_bic: z.string(),
  /** cents, from the ledger */
  balance: z.number().int(),
  currency: z.string(),
  /** the ledger account's id */
  ledger_account_id: z.string(),
});
export type CompanyAccount = z.output<typeof companyAccount>;
export const beneficiary = z.object({
  id: z.string(),
  name: z.string(),
  account_iban: z.string(),
  account_bic: z.string(),
});
export type Beneficiary = z.output<typeof beneficiary>;

export const companyIdRequest = z.object({ companyId: id('companyId') });
export const companyAccountsResponse = z.object({ accounts: z.array(companyAccount) });
export const companyBeneficiariesResponse = z.object({
  beneficiaries: z.array(beneficiary),
  accounts: z.array(companyAccount),
});
export type CompanyBeneficiariesResponse = z.output<typeof companyBeneficiariesResponse>;

export const consentRequest = z.object({
  token: z.string({ error: ACCOUNTING_MSG.consentInvalid }).trim().min(1, ACCOUNTING_MSG.consentInvalid).max(200),
});
export const consentDetailsResponse = z.object({
  company_name: z.string(),
  email: z.string(),
  approved: z.boolean(),
  accounts: z.array(z.object({ name: z.string(), account_iban: z.string(), currency: z.string() })),
});
export type ConsentDetails = z.output<typeof consentDetailsResponse>;

// ---- 2D payments ----

const transferFields = {
  company_id: id('company_id'),
  account_id: z.string({ error: ACCOUNTING_MSG.selectAccount }).trim().min(1, ACCOUNTING_MSG.selectAccount).max(100),
  beneficiary_id: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
  amount: accountingAmount,
  reference: referenceField,
  transfer_type: z.enum(TRANSFER_TYPES, { error: 'transfer_type must be external_transfer or internal_transfer' }),
};

/** The spec's "Generate accounting OTP": the code is bound to this transfer (DECISIONS.md). */
export const accountingOtpRequest = z.object(transferFields);
export type AccountingOtpRequest = z.input<typeof accountingOtpRequest>;

export const accountingTransferRequest = z.object({
  ...transferFields,
  otp: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20),
  /** one per transfer the user means: a retry with the same key answers the same transfer */
  idempotency_key: idempotencyKey.optional(),
});
export type AccountingTransferRequest = z.input<typeof accountingTransferRequest>;

export const accountingTransaction = z.object({
  id: z.number().int(),
  rule_id: z.number().int().nullable(),
  /** '-' for a transfer made by hand */
  rule_name: z.string(),
  /** Amount, Percentage or Manual */
  rule_type: z.string(),
  company_name: z.string(),
  beneficiary_name: z.string(),
  iban: z.string(),
  bic: z.string(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** who made it: a user's name, or 'Scheduler' */
  transfer_by: z.string(),
  /** the company account paid from (the provider's id) */
  account_id: z.string(),
  status: z.enum(ACCOUNTING_STATUSES),
  reason: z.string().nullable(),
  transfer_type: z.enum(TRANSFER_TYPES),
  description: z.string(),
  created_at: timestamp,
});
export type AccountingTransaction = z.output<typeof accountingTransaction>;

export const accountingTransferResponse = z.object({
  message: z.array(z.string()),
  transaction: accountingTransaction,
});

// ---- rules ----

export const rulesRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  search: searchField,
  rule_type: ruleTypeFilter,
});
export type RulesRequest = z.input<typeof rulesRequest>;

export const ruleRow = z.object({
  id: z.number().int(),
  rule_name: z.string(),
  company_name: z.string(),
  company_email: z.string(),
  company_id: z.number().int(),
  account_id: z.string(),
  beneficiary_id: z.string(),
  beneficiary_name: z.string(),
  status: z.number().int(),
  transfer_type: z.enum(TRANSFER_TYPES),
  /** Amount or Percentage */
  rule_type: z.enum(['Amount', 'Percentage']),
  /** cents for an amount rule, the percentage ('12.5') for a percentage rule */
  amount: z.string(),
  /** HH:MM UTC */
  interval: z.string(),
  interval_type: z.enum(INTERVAL_TYPES),
  /** a weekday name, a day of month, or null for daily */
  interval_day: z.string().nullable(),
  reference: z.string(),
  /** true: percentage */
  account_type: z.boolean(),
  /** the last period run (its due date, YYYY-MM-DD) */
  last_period: z.string().nullable(),
  created_at: timestamp,
});
export type RuleRow = z.output<typeof ruleRow>;
export const rulesResponse = z.object({
  rules: z.array(ruleRow),
  total: z.number().int(),
  all_rules: z.number().int(),
  active_rules: z.number().int(),
  in_active_rules: z.number().int(),
});
export type RulesResponse = z.output<typeof rulesResponse>;

const hhmm = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, ACCOUNTING_MSG.timeFormat);

/**
 * Create a rule. A percentage rule (account_type true) runs daily at `interval` (UTC) and moves `amount` percent of
 * the balance at run time, rounded down to the cent; an amount rule (account_type false) moves `amount` cents at
 * 00:00 UTC daily, weekly on `interval_day` (a weekday) or monthly on `interval_day` (1-31; a shorter month runs on
 * its last day).
 */
export const createRuleRequest = z
  .object({
    company_id: id('company_id'),
    rule_name: text100,
    beneficiary_id: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
    account_id: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
    reference: referenceField,
    transfer_type: z.enum(TRANSFER_TYPES, { error: MSG.required }),
    account_type: z.union([z.boolean(), z.literal('true'), z.literal('false')], {
      error: 'account_type must be true (percentage) or false (amount)',
    }),
    amount: z.union([z.number(), z.string().trim()], { error: MSG.required }),
    interval: z.string().trim().optional().default('00:00'),
    interval_type: z.enum(INTERVAL_TYPES, { error: 'interval_type must be daily, weekly or monthly' }).optional(),
    interval_day: z.union([z.string().trim(), z.number()]).optional().nullable(),
  })
  .transform((v, ctx) => {
    const percentage = v.account_type === true || v.account_type === 'true';
    const issue = (path: string, message: string) => {
      ctx.addIssue({ code: 'custom', path: [path], message });
      return z.NEVER;
    };
    let amount: number;
    if (percentage) {
      const p = percentageField.safeParse(v.amount);
      if (!p.success) return issue('amount', p.error.issues[0].message);
      amount = p.data;
      const t = hhmm.safeParse(v.interval);
      if (!t.success) return issue('interval', t.error.issues[0].message);
      return { ...v, percentage, amount, interval: t.data, interval_type: 'daily' as IntervalType, interval_day: null };
    }
    const raw = typeof v.amount === 'number' ? String(v.amount) : v.amount;
    if (raw === '') return issue('amount', MSG.required);
    if (!/^\d+$/.test(raw)) return issue('amount', ACCOUNTING_MSG.ruleAmountWhole);
    amount = Number(raw);
    if (amount <= 0) return issue('amount', ACCOUNTING_MSG.amountPositive);
    if (amount > 100_000_000_000) return issue('amount', PAYMENT_MSG.amountTooLarge);
    const type = v.interval_type ?? 'daily';
    let day: string | null = null;
    if (type === 'weekly') {
      const d = String(v.interval_day ?? '').trim();
      const w = WEEKDAYS.find((x) => x.toLowerCase() === d.toLowerCase());
      if (!w) return issue('interval_day', ACCOUNTING_MSG.weekdayRequired);
      day = w;
    } else if (type === 'monthly') {
      const d = String(v.interval_day ?? '').trim();
      if (!/^\d{1,2}$/.test(d) || Number(d) < 1 || Number(d) > 31)
        return issue('interval_day', ACCOUNTING_MSG.monthDayRange);
      day = String(Number(d));
    }
    return { ...v, percentage, amount, interval: '00:00', interval_type: type, interval_day: day };
  });
export type CreateRuleRequest = z.input<typeof createRuleRequest>;

export const ruleIdRequest = z.object({ id: id() });

// ---- 2D transactions ----

export const accountingTransactionsRequest = z.object({
  per_page: perPageField(100, 20),
  page: pageField(),
  sortby: sortBy,
  status: statusFilter,
  rule_type: ruleTypeFilter,
});
export type AccountingTransactionsRequest = z.input<typeof accountingTransactionsRequest>;
export const accountingTransactionsResponse = z.object({
  transactions: z.array(accountingTransaction),
  total: z.number().int(),
});
export type AccountingTransactionsResponse = z.output<typeof accountingTransactionsResponse>;

export const exportAccountingRequest = z.object({
  sortby: sortBy,
  status: statusFilter,
  rule_type: ruleTypeFilter,
  export_transactions: z.union([z.boolean(), z.literal('true')]).optional(),
  format: exportFormat,
});

// ---- the calls ----

const TAG = 'Accounting (2D)';
export const accountingOps = {
  companies: operation({
    id: 'companies',
    method: 'POST',
    path: '/api/companies',
    tag: TAG,
    summary: 'The registered companies, newest first, searched by name or e-mail, 10 a page, with the counters',
    access: 'User can view companies',
    input: companiesRequest,
    output: companiesResponse,
  }),
  registerCompany: operation({
    id: 'registerCompany',
    method: 'POST',
    path: '/api/register-company',
    tag: TAG,
    summary:
      "Registers a company by its API key at the provider (checked there, kept encrypted); inactive until the account holder approves the account access from the link mailed to the company's e-mail (/consent-approve)",
    access: 'User can register companies',
    audit: 'company.register',
    input: registerCompanyRequest,
    output: messageAnswer,
    status: 201,
  }),
  updateCompanyStatus: operation({
    id: 'updateCompanyStatus',
    method: 'POST',
    path: '/api/update-company-status',
    tag: TAG,
    summary:
      "Activates (after the holder's consent) or deactivates a company: an inactive company's transfers and rules stop",
    access: 'User can register companies',
    audit: 'company.status',
    input: statusRequest,
    output: messageAnswer,
  }),
  companyApiKey: operation({
    id: 'companyApiKey',
    method: 'POST',
    path: '/api/company-api-key',
    tag: TAG,
    summary: "After the caller's password: the company's API key in plain text (every reveal is logged)",
    access: 'User can view companies',
    audit: 'company.reveal-key',
    input: companyKeyRequest,
    output: companyKeyResponse,
  }),
  companyList: operation({
    id: 'companyList',
    method: 'GET',
    path: '/api/company-list',
    tag: TAG,
    summary: 'The active companies for the selectors (name and value)',
    access: ['User can perform accounting transactions', 'User can create accounting transactions rules'],
    output: companyListResponse,
  }),
  companyAccounts: operation({
    id: 'companyAccounts',
    method: 'POST',
    path: '/api/company-accounts',
    tag: TAG,
    summary: "An active company's bank accounts: IBAN, BIC, currency and the balance the ledger holds",
    access: ['User can perform accounting transactions', 'User can create accounting transactions rules'],
    input: companyIdRequest,
    output: companyAccountsResponse,
  }),
  companyBeneficiaries: operation({
    id: 'companyBeneficiaries',
    method: 'POST',
    path: '/api/company-beneficiaries',
    tag: TAG,
    summary: "An active company's saved beneficiaries (external) and its accounts (internal)",
    access: ['User can perform accounting transactions', 'User can create accounting transactions rules'],
    input: companyIdRequest,
    output: companyBeneficiariesResponse,
  }),
  consentDetails: operation({
    id: 'consentDetails',
    method: 'POST',
    path: '/api/consent-details',
    tag: TAG,
    summary: 'What a consent link asks the account holder to approve: the company and its accounts',
    access: 'public',
    input: consentRequest,
    output: consentDetailsResponse,
  }),
  consentApprove: operation({
    id: 'consentApprove',
    method: 'POST',
    path: '/api/consent-approve',
    tag: TAG,
    summary:
      "The account holder approves the account access: the company's accounts open in the ledger with the balances the provider holds, and the company becomes active",
    access: 'public',
    audit: 'company.consent',
    input: consentRequest,
    output: messageAnswer,
  }),
  accountingOtp: operation({
    id: 'accountingOtp',
    method: 'POST',
    path: '/api/generate-accounting-otp',
    tag: TAG,
    summary:
      'Checks a 2D transfer (company, account, beneficiary, amount within the balance) and sends a one-time code bound to it',
    access: 'User can perform accounting transactions',
    audit: 'accounting.request-code',
    input: accountingOtpRequest,
    output: messageAnswer,
  }),
  accountingTransfer: operation({
    id: 'accountingTransfer',
    method: 'POST',
    path: '/api/accounting-transfer',
    tag: TAG,
    summary:
      "A transfer from a company account approved by its code: external to a beneficiary through the provider (reserved now, Completed or Failed with the money returned), or internal to the company's other account (Completed at once); once per idempotency key",
    access: 'User can perform accounting transactions',
    audit: 'accounting.transfer',
    input: accountingTransferRequest,
    output: accountingTransferResponse,
    status: 201,
  }),
  rules: operation({
    id: 'rules',
    method: 'POST',
    path: '/api/accounting-rules',
    tag: TAG,
    summary: 'The rules, newest first, searched by rule or company name, with a rule-type filter and the counters',
    access: 'User can view accounting transactions rules',
    input: rulesRequest,
    output: rulesResponse,
  }),
  createRule: operation({
    id: 'createRule',
    method: 'POST',
    path: '/api/create-accounting-rule',
    tag: TAG,
    summary:
      'Creates a percentage rule (daily at a UTC time) or an amount rule (daily, weekly or monthly at 00:00 UTC)',
    access: 'User can create accounting transactions rules',
    audit: 'rule.create',
    input: createRuleRequest,
    output: messageAnswer,
    status: 201,
  }),
  updateRuleStatus: operation({
    id: 'updateRuleStatus',
    method: 'POST',
    path: '/api/update-rule-status',
    tag: TAG,
    summary: 'Activates or deactivates a rule (an inactive rule is not run)',
    access: 'User can create accounting transactions rules',
    audit: 'rule.status',
    input: statusRequest,
    output: messageAnswer,
  }),
  deleteRule: operation({
    id: 'deleteRule',
    method: 'POST',
    path: '/api/delete-rule',
    tag: TAG,
    summary: 'Deletes a rule for good (the 2D transactions it made stay)',
    access: 'User can create accounting transactions rules',
    audit: 'rule.delete',
    input: ruleIdRequest,
    output: messageAnswer,
  }),
  accountingTransactions: operation({
    id: 'accountingTransactions',
    method: 'POST',
    path: '/api/accounting-transactions',
    tag: TAG,
    summary: 'The 2D transactions (transfers and rule runs), 20 a page by date, with status and rule-type filters',
    access: 'User can view accounting transactions',
    input: accountingTransactionsRequest,
    output: accountingTransactionsResponse,
  }),
  exportAccountingTransactions: operation({
    id: 'exportAccountingTransactions',
    method: 'POST',
    path: '/api/export-accounting-transactions',
    tag: TAG,
    summary: 'Exports the 2D transactions (sort, status, rule type) as a background job into the 2D downloads list',
    access: 'User can view accounting transactions',
    audit: 'accounting.export',
    input: exportAccountingRequest,
    output: exportResponse,
  }),
} as const;
