import { createPayinLinkRequest, payinLinkProblems, type CreatePayinLinkRequest, PAYIN_MSG } from '@obol/contract';

/** What the demo shop sells: amounts in cents. */
export const PRODUCTS = [
  { id: 'beans', name: 'Espresso beans, 1 kg', cents: 2_490, note: 'Roasted this week' },
  { id: 'mug', name: 'Stoneware mug', cents: 1_200, note: 'Glazed by hand' },
  { id: 'card', name: 'Gift card', cents: 5_000, note: 'Valid for a year' },
] as const;
export type ProductId = (typeof PRODUCTS)[number]['id'];

export const KEY_STORE = 'obol-demo-shop-api-key';
/** A new order number: the shop's reference of its pay-in, unique per merchant. */
export const newReference = () => `shop-${Date.now().toString(36)}-${Math.floor(Math.random() * 1296).toString(36)}`;
export const FIELDS = ['first_name', 'last_name', 'date_of_birth', 'user_obol_id', 'requested_by'] as const;
export type Field = (typeof FIELDS)[number];
export type Buyer = Record<Field, string>;
export type CheckoutErrors = Partial<Record<Field | 'api_key', string>>;
/** The shop's loyalty offer: this share of the order back to the buyer's Obol wallet, as a pay-in reward. */
export const CASHBACK_PERCENT = 5;
export const cashbackOf = (cents: number) => Math.floor((cents * CASHBACK_PERCENT) / 100);

/**
 * The pay-in link the checkout asks for, and what is wrong with the checkout before anything is sent: the API key
 * (as `public:private`), then each buyer field's first message from the contract's request rules, then from its
 * pay-in link rules (channel, staff member, wallet and reward).
 */
export function checkoutRequest({
  apiKey,
  cents,
  reference,
  buyer,
  byStaff,
  origin,
}: {
  apiKey: string;
  cents: number;
  reference: string;
  buyer: Buyer;
  byStaff: boolean;
  origin: string;
}): { body: CreatePayinLinkRequest; errors: CheckoutErrors } {
  const errors: CheckoutErrors = {};
  if (!/^[^:\s]+:[^:\s]+$/.test(apiKey.trim())) errors.api_key = PAYIN_MSG.apiKeyMissing;
  const wallet = buyer.user_obol_id.trim();
  const body: CreatePayinLinkRequest = {
    amount: cents,
    reference,
    first_name: buyer.first_name,
    last_name: buyer.last_name,
    date_of_birth: buyer.date_of_birth,
    return_url: `${origin}/merchant-site?order=${encodeURIComponent(reference)}`,
    ...(wallet ? { user_obol_id: wallet, reward_amount: cashbackOf(cents) } : {}),
    ...(byStaff ? { channel: 'CardEye' as const, requested_by: buyer.requested_by } : {}),
  };
  const parsed = createPayinLinkRequest.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const f = issue.path[0] as Field;
      if (FIELDS.includes(f) && !errors[f]) errors[f] = issue.message;
    }
  const problems = payinLinkProblems({
    amount: cents,
    channel: byStaff ? 'CardEye' : 'Payin',
    requested_by: buyer.requested_by.trim() || undefined,
    user_obol_id: wallet || undefined,
    reward_amount: wallet ? cashbackOf(cents) : undefined,
  });
  for (const p of problems) {
    const f = p.field as Field;
    if (FIELDS.includes(f) && !errors[f]) errors[f] = p.message;
  }
  return { body, errors };
}

/** The buyer fields' first messages in the merchant API's refusal. */
export function answerErrors(fields: Record<string, string[]>): CheckoutErrors {
  const byField: CheckoutErrors = {};
  for (const f of FIELDS) if (fields[f]) byField[f] = fields[f][0];
  return byField;
}
