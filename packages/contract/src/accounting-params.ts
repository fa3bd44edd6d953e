import { z } from 'zod';
import { ACCOUNTING_MSG, type AccountingStatus } from './accounting-common.ts';
import { MSG } from './messages.ts';
import { INT4_MAX, wholeNumber } from './params.ts';
import { isSafeText, TEXT_MSG } from './text.ts';

// The input fields the accounting requests share (accounting-*.ts): internal to the contract, index.ts does not
// re-export them.

export const id = (name = 'id') => wholeNumber(name, 1, INT4_MAX);
export const ruleTypeFilter = z
  .union([z.literal(''), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], {
    error: 'rule_type must be empty, 0 (amount) or 1 (percentage)',
  })
  .optional()
  .default('')
  .transform((v): '' | 0 | 1 => (v === '' ? '' : (Number(v) as 0 | 1)));
export const searchField = z.string().trim().max(100, 'search must be at most 100 characters').optional().default('');
export const sortBy = z.enum(['DESC', 'ASC'], { error: 'sortby must be DESC or ASC' }).optional().default('DESC');
export const statusFilter = z
  .enum(['', 'Completed', 'Rejected', 'Failed', 'Pending', 'Pending_Approval', 'Refunded'], {
    error: 'status must be empty, Completed, Rejected, Failed, Pending, Pending_Approval or Refunded',
  })
  .optional()
  .default('')
  .transform((v) => (v === '' ? '' : (v.toUpperCase() as AccountingStatus)));

/** An accounting text field: required, at most 100 characters. */
export const text100 = z
  .string({ error: MSG.required })
  .trim()
  .min(1, MSG.required)
  .max(100, ACCOUNTING_MSG.max100)
  .refine(isSafeText, TEXT_MSG.notAllowedHere);
/** The reference (purpose of payment) of a transfer or rule: letters, digits and spaces. */
export const referenceField = text100.refine((v) => /^[A-Za-z0-9 ]+$/.test(v), ACCOUNTING_MSG.alphanumeric);
