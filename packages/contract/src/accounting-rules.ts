import { z } from 'zod';
import {
  ACCOUNTING_MSG,
  INTERVAL_TYPES,
  type IntervalType,
  percentageField,
  TRANSFER_TYPES,
  WEEKDAYS,
} from './accounting-common.ts';
import { id, referenceField, ruleTypeFilter, searchField, text100 } from './accounting-params.ts';
import { MSG } from './messages.ts';
import { timestamp } from './operation.ts';
import { pageField, perPageField, WHOLE_NUMBER_TEXT } from './params.ts';
import { PAYMENT_MSG } from './payments.ts';

// ---- rules ----

export const rulesRequest = z.object({
  per_page: perPageField(),
  page: pageField(),
  search: searchField,
  rule_type: ruleTypeFilter,
});

const ruleRow = z.object({
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
    amount: z.union([z.number(), z.string()], { error: MSG.required }),
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
    // cents, as the whole-number rule of every integer field has them (params.ts): no padding, no leading zero
    if (!WHOLE_NUMBER_TEXT.test(raw) || raw.startsWith('-')) return issue('amount', ACCOUNTING_MSG.ruleAmountWhole);
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
