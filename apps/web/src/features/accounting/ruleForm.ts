import { MSG, createRuleRequest, percentageField, type CreateRuleRequest, type IntervalType } from '@obol/contract';

export type RuleKind = 'percentage' | 'amount';

/** What the Create Accounting Rule dialog holds, as typed. */
export interface RuleValues {
  rule_name: string;
  reference: string;
  company_id: number | null;
  account_id: string;
  transfer_type: 'external_transfer' | 'internal_transfer';
  beneficiary_id: string;
  amount: string;
  /** HH:MM, UTC (a percentage rule) */
  interval: string;
  interval_type: IntervalType;
  weekday: string;
  month_day: string;
}
export type RuleField = keyof RuleValues | 'interval_day';
export type RuleErrors = Partial<Record<RuleField, string>>;

export const EMPTY_RULE: RuleValues = {
  rule_name: '',
  reference: '',
  company_id: null,
  account_id: '',
  transfer_type: 'external_transfer',
  beneficiary_id: '',
  amount: '',
  interval: '',
  interval_type: 'daily',
  weekday: '',
  month_day: '',
};

/** The request the dialog sends for these values. */
export function ruleRequest(kind: RuleKind, v: RuleValues): CreateRuleRequest {
  const base = {
    company_id: v.company_id ?? 0,
    rule_name: v.rule_name,
    beneficiary_id: v.beneficiary_id,
    account_id: v.account_id,
    reference: v.reference,
    transfer_type: v.transfer_type,
    amount: v.amount.trim(),
  };
  if (kind === 'percentage') return { ...base, account_type: true, interval: v.interval.trim() };
  const day = v.interval_type === 'weekly' ? v.weekday : v.interval_type === 'monthly' ? v.month_day.trim() : null;
  return { ...base, account_type: false, interval: '00:00', interval_type: v.interval_type, interval_day: day };
}

/** Valid stand-ins for the common fields: the contract then speaks of the rule's own fields. */
const FILLED = {
  company_id: 1,
  rule_name: 'x',
  beneficiary_id: 'x',
  account_id: 'x',
  reference: 'x',
  transfer_type: 'external_transfer',
} as const;

const issueAt = (input: CreateRuleRequest, path: string) => {
  const r = createRuleRequest.safeParse(input);
  return r.success ? undefined : r.error.issues.find((i) => i.path[0] === path)?.message;
};

/**
 * Every field's first message, by the contract's rules (createRuleRequest): the common fields one by one, then
 * the kind's own fields each with the others filled, so all of them show at once.
 */
export function ruleErrors(kind: RuleKind, v: RuleValues): RuleErrors {
  const shape = createRuleRequest.in.shape;
  const errors: RuleErrors = {};
  const check = (k: RuleField, r: { success: boolean; error?: { issues: { message: string }[] } }) => {
    if (!r.success) errors[k] = r.error?.issues[0]?.message;
  };
  check('rule_name', shape.rule_name.safeParse(v.rule_name));
  check('reference', shape.reference.safeParse(v.reference));
  if (v.company_id === null) errors.company_id = MSG.required;
  check('account_id', shape.account_id.safeParse(v.account_id));
  check('beneficiary_id', shape.beneficiary_id.safeParse(v.beneficiary_id));
  if (kind === 'percentage') {
    check('amount', percentageField.safeParse(v.amount));
    errors.interval = issueAt({ ...FILLED, account_type: true, amount: '1', interval: v.interval }, 'interval');
  } else {
    const req = ruleRequest(kind, v);
    errors.amount = issueAt({ ...FILLED, account_type: false, amount: req.amount, interval_type: 'daily' }, 'amount');
    errors.interval_day = issueAt(
      { ...FILLED, account_type: false, amount: '1', interval_type: v.interval_type, interval_day: req.interval_day },
      'interval_day',
    );
  }
  for (const k of Object.keys(errors) as RuleField[]) if (!errors[k]) delete errors[k];
  return errors;
}
