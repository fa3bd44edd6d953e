import { z } from 'zod';
import { exportFormat, exportResponse } from './downloads.ts';
import { bicError, ibanError, normalBic, normalIban } from './iban.ts';
import { MSG } from './messages.ts';
import { messageAnswer, operation, pageOf, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { amountCents, idempotencyKey, PAYMENT_MSG, requiredText } from './payments.ts';
import { isSafeText, TEXT_MSG } from './text.ts';

/** Messages of the transfer screens (section 5 of document 3) and of their calls. */
export const TRANSFER_MSG = {
  required: MSG.required,
  amountPositive: PAYMENT_MSG.amountPositive,
  amountWhole: PAYMENT_MSG.amountWhole,
  amountExceeds: PAYMENT_MSG.amountExceeds,
  purposeMax: 'Max 255 characters allowed',
  selectAccount: 'Please select account first',
  accountNotRegistered: 'Account not registered',
  accountTypeMismatch: 'The account is not of this account type',
  codeSent: 'A verification code has been sent to your e-mail',
  transferred: 'Amount transferred successfully. It is pending until the bank confirms it.',
} as const;

/** The account types of the transfer form: 1 Payout, 2 Payin, 3 CLP (section 9), and the ledger kind of each. */
export const TRANSFER_ACCOUNT_TYPES = [
  { value: 1, label: 'Payout', kind: 'payout' },
  { value: 2, label: 'Payin', kind: 'payin' },
  { value: 3, label: 'CLP', kind: 'clp' },
] as const;

/** 'Pending approval': at or above its merchant's approval threshold, reserved, waiting for a second person */
const TRANSFER_STATUSES = ['Completed', 'Declined', 'Pending', 'Pending approval'] as const;
type TransferStatus = (typeof TRANSFER_STATUSES)[number];
/** The status filter: 0 all, 1 Completed, 2 Declined, 3 Pending (section 9). */
export const TRANSFER_STATUS_OPTIONS = [
  { value: 0, label: 'All Transfers', status: '' },
  { value: 1, label: 'Completed', status: 'Completed' },
  { value: 2, label: 'Declined', status: 'Declined' },
  { value: 3, label: 'Pending', status: 'Pending' },
] as const;

/** Under 255 characters: at most 254. */
const PURPOSE_MAX = 254;

export const ibanField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(50, 'IBAN must be 15 to 34 characters')
  .superRefine((v, ctx) => {
    const e = ibanError(v);
    if (e) ctx.addIssue({ code: 'custom', message: e });
  })
  .transform(normalIban);

export const bicField = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(20, 'BIC must be 8 or 11 letters and digits (bank, country, location, branch)')
  .superRefine((v, ctx) => {
    const e = bicError(v);
    if (e) ctx.addIssue({ code: 'custom', message: e });
  })
  .transform(normalBic);

export const purposeField = z
  .string()
  .max(PURPOSE_MAX, TRANSFER_MSG.purposeMax)
  .refine(isSafeText, TEXT_MSG.notAllowedHere)
  .optional()
  .default('')
  .transform((v) => v.trim());

/** What the transfer form sends, to ask for a code and then with the code. */
const transferFields = {
  beneficiary_name: requiredText(),
  iban: ibanField,
  bic: bicField,
  amount: amountCents,
  /** the ledger account id of the account paid from (the balance card's account) */
  account_id: z.string({ error: TRANSFER_MSG.selectAccount }).trim().min(1, TRANSFER_MSG.selectAccount).max(100),
  message: purposeField,
};

const sendOtpRequest = z.object({
  transaction_type: z.string().trim().max(50).optional().default('Amount Transfer'),
  ...transferFields,
});

const amountTransferRequest = z.object({
  ...transferFields,
  /** 1 Payout, 2 Payin, 3 CLP: when sent, it must be the account's own type */
  account_used: z
    .union([z.literal(1), z.literal(2), z.literal(3), z.enum(['1', '2', '3', 'Payout', 'Payin', 'CLP'])], {
      error: 'account_used must be 1 (Payout), 2 (Payin) or 3 (CLP)',
    })
    .optional(),
  code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20),
  /** one per transfer the user means: a retry with the same key answers the same transfer */
  idempotency_key: idempotencyKey.optional(),
});

const transferRow = z.object({
  id: z.number().int(),
  beneficiary_name: z.string(),
  iban: z.string(),
  bic: z.string(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** who made it */
  transfer_by: z.string(),
  /** the account type: Payout, Payin, CLP (or Fee Account) */
  account_used: z.string(),
  account_id: z.string(),
  /** the merchant or brand whose account paid */
  merchant_name: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  /** why it was declined */
  detail: z.string().nullable(),
  /** the purpose of payment */
  message: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type TransferRow = z.output<typeof transferRow>;

const amountTransferResponse = z.object({
  message: z.array(z.string()),
  transfer: transferRow,
  /** at or above the merchant's approval threshold: the approval it waits for (the answer is then a 202) */
  approval_id: z.number().int().optional(),
});
export type AmountTransferResponse = z.output<typeof amountTransferResponse>;

const statusFilter = z
  .union([z.enum(TRANSFER_STATUSES), z.literal(''), z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
    error: 'status must be 1 (Completed), 2 (Declined), 3 (Pending) or empty',
  })
  .optional()
  .default('')
  .transform((v): TransferStatus | '' =>
    typeof v === 'number' ? (TRANSFER_STATUS_OPTIONS[v].status as TransferStatus | '') : v,
  );
const sortBy = z.enum(['DESC', 'ASC'], { error: 'sortby must be DESC or ASC' }).optional().default('DESC');

const transferListRequest = z.object({
  per_page: perPageField(100, 20),
  page: pageField(),
  sortby: sortBy,
  status: statusFilter,
});
const transferListResponse = pageOf(transferRow);

const transferExportRequest = z.object({ sortby: sortBy, status: statusFilter, format: exportFormat });

/** The accounts of one merchant or brand that a transfer may be made from. */
const merchantWithAccountRequest = z.object({ search: z.string().trim().max(100).optional().default('') });
const merchantAccountChoice = z.object({
  /** the holder (user) id */
  id: z.number().int(),
  merchant_name: z.string(),
  /** Merchant or Brand */
  role: z.string(),
  /** the merchant a brand belongs to */
  parent_name: z.string().nullable(),
  /** the payout account's id */
  account_id: z.string(),
  account_reference: z.string(),
  accounts: z.array(z.object({ kind: z.string(), account_id: z.string() })),
});
export type MerchantAccountChoice = z.output<typeof merchantAccountChoice>;
const merchantWithAccountResponse = z.object({ data: z.array(merchantAccountChoice) });

// ---- the calls ----

const TAG = 'Transfers';
const ACCESS = 'User can view transfer amount screen';
export const transferOps = {
  sendOtp: operation({
    id: 'sendOtp',
    method: 'POST',
    path: '/api/send-otp',
    tag: TAG,
    summary:
      "The spec's 'request transfer code': checks the form (IBAN checksum, BIC, the balance) and sends a one-time code " +
      'bound to this amount, IBAN, BIC and account (by e-mail, or the authenticator when the user chose it)',
    access: ACCESS,
    audit: 'transfer.request-code',
    input: sendOtpRequest,
    output: messageAnswer,
  }),
  amountTransfer: operation({
    id: 'amountTransfer',
    method: 'POST',
    path: '/api/amount-transfer',
    tag: TAG,
    summary:
      'A transfer to an IBAN approved by its code: the amount is reserved from the account and the transfer is ' +
      'Pending until the provider settles it (Completed, or Declined with the money returned); once per idempotency key',
    access: ACCESS,
    audit: 'transfer.create',
    input: amountTransferRequest,
    output: amountTransferResponse,
    status: 201,
  }),
  transferList: operation({
    id: 'transferList',
    method: 'POST',
    path: '/api/get-amount-transfer-details',
    tag: TAG,
    summary: "The transfers of the caller's scope, 20 a page, by date, with a status filter",
    access: ACCESS,
    input: transferListRequest,
    output: transferListResponse,
  }),
  exportTransfers: operation({
    id: 'exportTransfers',
    method: 'POST',
    path: '/api/export-transfer-details',
    tag: TAG,
    summary: 'Exports the transfer list (sort and status) as a background job into the transactions download list',
    access: ACCESS,
    audit: 'transfer.export',
    input: transferExportRequest,
    output: exportResponse,
  }),
  merchantWithAccount: operation({
    id: 'merchantWithAccount',
    method: 'GET',
    path: '/api/merchant-with-account',
    tag: TAG,
    summary: "Merchants Payout's chooser: the active merchants and brands of the caller's scope with their account ids",
    access: ACCESS,
    input: merchantWithAccountRequest,
    output: merchantWithAccountResponse,
  }),
} as const;
