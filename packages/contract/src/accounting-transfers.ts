import { z } from 'zod';
import { ACCOUNTING_MSG, ACCOUNTING_STATUSES, accountingAmount, TRANSFER_TYPES } from './accounting-common.ts';
import { id, referenceField, ruleTypeFilter, sortBy, statusFilter } from './accounting-params.ts';
import { exportFormat } from './downloads.ts';
import { MSG } from './messages.ts';
import { timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { idempotencyKey } from './payments.ts';

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

const accountingTransaction = z.object({
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
  /** at or above the company's approval threshold: PENDING_APPROVAL, waiting for a second 2D admin (a 202) */
  approval_id: z.number().int().optional(),
});

// ---- 2D transactions ----

export const accountingTransactionsRequest = z.object({
  per_page: perPageField(100, 20),
  page: pageField(),
  sortby: sortBy,
  status: statusFilter,
  rule_type: ruleTypeFilter,
});
export const accountingTransactionsResponse = z.object({
  transactions: z.array(accountingTransaction),
  total: z.number().int(),
});

export const exportAccountingRequest = z.object({
  sortby: sortBy,
  status: statusFilter,
  rule_type: ruleTypeFilter,
  export_transactions: z.union([z.boolean(), z.literal('true')]).optional(),
  format: exportFormat,
});
