/**
 * What the payment provider answers, and the checks of it (money decisions are made on these): the items, the
 * batch results, the pay-in links, the statement and the company accounts, and the two ways a call fails. The
 * client that asks is provider.ts.
 */

/** Most payouts one batch call carries (the simulator takes up to 5,000). */
export const PROVIDER_BATCH_MAX = 1000;

/** One payout's answer in a batch call. */
export type ProviderBatchResult =
  | { idempotency_key: string; outcome: 'accepted'; id: string }
  | { idempotency_key: string; outcome: 'rejected'; status: number; messages: string[] };

/** Most idempotency keys the provider takes in one look-up. */
export const PROVIDER_LOOKUP_MAX = 1000;

/** A payout (transfer, refund) as the provider shows it now: `GET /payouts/:id` and the look-ups by key. */
export interface ProviderItem {
  id: string;
  status: 'Processing' | 'Completed' | 'Failed';
  idempotency_key: string;
  reference: string;
  /** cents */
  amount: number;
  currency: string;
  /** why it failed */
  message?: string;
  created_at: string;
  /** set once Completed or Failed */
  settled_at?: string;
  /** the kind's own fields (a payout's obol_id, brand, beneficiary_name) */
  [field: string]: unknown;
}

export interface WalletInfo {
  obol_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  brand: string | null;
}
export interface ProviderPayoutRequest {
  idempotency_key: string;
  reference: string;
  obol_id: string;
  amount: number;
  currency: 'EUR';
  beneficiary_name: string;
  brand: string;
}
export interface ProviderTransferRequest {
  idempotency_key: string;
  iban: string;
  bic: string;
  amount: number;
  beneficiary_name: string;
  reference: string;
}
export interface StatementItem {
  id: string;
  type: 'payout' | 'transfer' | 'payin' | 'refund';
  reference: string;
  idempotency_key: string;
  amount: number;
  status: string;
  message?: string;
  settled_at: string;
}

/** A company's bank account at the provider (`GET /companies/accounts`). */
export interface CompanyAccount {
  id: string;
  name: string;
  iban: string;
  bic: string;
  currency: string;
  /** cents */
  opening_balance: number;
}
/** A beneficiary the company saved at the provider (`GET /companies/accounts`). */
export interface CompanyBeneficiary {
  id: string;
  name: string;
  iban: string;
  bic: string;
}

/** The provider refused the request itself (4xx): retrying will not help. */
export class ProviderRejected extends Error {
  readonly status: number;
  readonly messages: string[];
  constructor(status: number, messages: string[]) {
    super(messages[0] ?? `provider answered ${status}`);
    this.status = status;
    this.messages = messages;
  }
}
/** The provider could not be reached or failed (timeouts, 5xx) after every retry. */
export class ProviderUnavailable extends Error {}

const ITEM_STATUSES = new Set(['Processing', 'Completed', 'Failed']);
/** the provider's item, checked: money decisions are made on it */
export function providerItem(v: unknown, path: string): ProviderItem {
  const i = v as Partial<ProviderItem> | null;
  if (
    !i ||
    typeof i !== 'object' ||
    typeof i.id !== 'string' ||
    typeof i.idempotency_key !== 'string' ||
    typeof i.reference !== 'string' ||
    !Number.isSafeInteger(i.amount) ||
    !ITEM_STATUSES.has(i.status as string) ||
    (i.status !== 'Processing' && typeof i.settled_at !== 'string')
  )
    throw new ProviderUnavailable(`provider answered a malformed item on ${path}: ${JSON.stringify(v).slice(0, 200)}`);
  return i as ProviderItem;
}

/** A pay-in link as the provider shows it: `GET /payin-links/:id`. */
export interface ProviderPayin {
  id: string;
  status: 'Initiated' | 'Completed' | 'Declined' | 'Expired';
  idempotency_key: string;
  reference: string;
  /** cents */
  amount: number;
  /** why it was declined or expired */
  message?: string;
  [field: string]: unknown;
}
export const PAYIN_STATUSES = new Set(['Initiated', 'Completed', 'Declined', 'Expired']);

/** the company accounts answer, checked: every account and beneficiary with its fields, nothing else kept */
export function companyAccountsAnswer(
  v: unknown,
  path: string,
): { accounts: CompanyAccount[]; beneficiaries: CompanyBeneficiary[] } {
  const malformed = () =>
    new ProviderUnavailable(
      `provider answered malformed company accounts on ${path}: ${JSON.stringify(v).slice(0, 200)}`,
    );
  const r = v as { accounts?: unknown; beneficiaries?: unknown } | null;
  if (!r || typeof r !== 'object' || !Array.isArray(r.accounts) || !Array.isArray(r.beneficiaries)) throw malformed();
  const isText = (x: unknown): x is string => typeof x === 'string' && x.length > 0;
  const accounts = r.accounts.map((a: Partial<CompanyAccount> | null) => {
    if (
      !a ||
      typeof a !== 'object' ||
      !isText(a.id) ||
      !isText(a.name) ||
      !isText(a.iban) ||
      !isText(a.bic) ||
      !isText(a.currency) ||
      !Number.isSafeInteger(a.opening_balance)
    )
      throw malformed();
    return {
      id: a.id,
      name: a.name,
      iban: a.iban,
      bic: a.bic,
      currency: a.currency,
      opening_balance: a.opening_balance as number,
    };
  });
  const beneficiaries = r.beneficiaries.map((b: Partial<CompanyBeneficiary> | null) => {
    if (!b || typeof b !== 'object' || !isText(b.id) || !isText(b.name) || !isText(b.iban) || !isText(b.bic))
      throw malformed();
    return { id: b.id, name: b.name, iban: b.iban, bic: b.bic };
  });
  return { accounts, beneficiaries };
}
