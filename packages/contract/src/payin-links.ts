import { z } from 'zod';
import { MSG } from './messages.ts';
import { amountCents, obolIdField, requiredText } from './payments.ts';

/** What the merchant API says. */
export const PAYIN_MSG = {
  apiKeyMissing: 'Send the API key as X-API-Key: <public key>:<private key>',
  apiKeyInvalid: 'Invalid API key',
  tokenInvalid: 'Invalid or expired token: ask /api/token for a new one',
  referenceUsed: 'This reference was already used for another pay-in',
  dateOfBirth: 'Must be a date (YYYY-MM-DD) in the past',
  returnUrl: 'Must be an http(s) URL',
  idempotencyKey: 'The Idempotency-Key header must be 1 to 100 characters',
  tooLarge: 'Must not exceed 100000000 cents',
  requestedBy: 'Required for a CardEye payment: who requested it',
  rewardBoth: 'Send user_obol_id and reward_amount together',
  rewardTooLarge: 'A reward must not exceed the pay-in amount',
  walletOtherBrand: "This wallet belongs to a brand that is not this merchant's",
} as const;

/** Payin: a link the merchant's shop sends its payer; CardEye: a card payment the merchant's staff request. */
export const PAYIN_CHANNELS = ['Payin', 'CardEye'] as const;
export type PayinChannel = (typeof PAYIN_CHANNELS)[number];

/** The largest pay-in link the API makes: one million euros, in cents. */
const PAYIN_MAX_CENTS = 100_000_000;

/** A merchant API token lives this long (seconds). */
export const MERCHANT_TOKEN_SECONDS = 15 * 60;

/** The pay-in's transaction status (section 4) and the link's. */
export const PAYIN_STATUSES = ['Pending', 'Completed', 'Declined', 'Expired'] as const;
/** the spec's Initiated and Expired, and Used once the link's pay-in Completed or was Declined (record 038) */
export const PAYIN_LINK_STATUSES = ['Initiated', 'Used', 'Expired'] as const;

const isPastDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return (
    !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getTime() < Date.now() && v >= '1900-01-01'
  );
};

export const merchantTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  /** seconds */
  expires_in: z.number().int(),
});

export const merchantTestResponse = z.object({
  ok: z.literal(true),
  /** the merchant the key belongs to (a brand's: its merchant) */
  merchant_name: z.string(),
  /** the brand, for a brand's key */
  brand_name: z.string().nullable(),
  /** the pay-in account the links credit */
  account_id: z.string().nullable(),
  token_expires_at: z.string(),
});

export const createPayinLinkRequest = z.object({
  /** cents */
  amount: amountCents.pipe(z.number().max(PAYIN_MAX_CENTS, PAYIN_MSG.tooLarge)),
  /** the merchant's own reference, unique per merchant (its brands included) */
  reference: requiredText(64),
  first_name: requiredText(100),
  last_name: requiredText(100),
  /** YYYY-MM-DD */
  date_of_birth: z
    .string({ error: MSG.required })
    .trim()
    .min(1, MSG.required)
    .refine(isPastDate, PAYIN_MSG.dateOfBirth),
  /** where the hosted page sends the payer afterwards */
  return_url: z
    .string()
    .trim()
    .max(500, PAYIN_MSG.returnUrl)
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), PAYIN_MSG.returnUrl)
    .optional(),
  /** Payin (the default) or CardEye: a card payment taken by the merchant's staff, listed under CardEye */
  channel: z.enum(PAYIN_CHANNELS, { error: 'channel must be Payin or CardEye' }).optional().default('Payin'),
  /** CardEye: the operator or terminal that requested it (required there) */
  requested_by: z.string().trim().max(100, 'Max 100 characters allowed').optional(),
  /** a reward (cashback) promised to the payer: their Obol wallet and the amount in cents, both or neither */
  user_obol_id: obolIdField.optional(),
  reward_amount: amountCents.optional(),
});
/** The rules across fields of a pay-in link, each on its field (the route checks them after the fields). */
export function payinLinkProblems(v: {
  amount: number;
  channel: PayinChannel;
  requested_by?: string;
  user_obol_id?: string;
  reward_amount?: number;
}): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (v.channel === 'CardEye' && !v.requested_by) out.push({ field: 'requested_by', message: PAYIN_MSG.requestedBy });
  if ((v.user_obol_id === undefined) !== (v.reward_amount === undefined))
    out.push({ field: v.user_obol_id === undefined ? 'user_obol_id' : 'reward_amount', message: PAYIN_MSG.rewardBoth });
  else if (v.reward_amount !== undefined && v.reward_amount > v.amount)
    out.push({ field: 'reward_amount', message: PAYIN_MSG.rewardTooLarge });
  return out;
}
export type CreatePayinLinkRequest = z.input<typeof createPayinLinkRequest>;

export const payinLinkResponse = z.object({
  /** the pay-in's request id (the provider's link id) */
  request_id: z.string(),
  reference: z.string(),
  /** cents */
  amount: z.number().int(),
  currency: z.string(),
  /** the hosted page the payer pays on */
  url: z.string(),
  channel: z.enum(PAYIN_CHANNELS),
  transaction_status: z.enum(PAYIN_STATUSES),
  link_status: z.enum(PAYIN_LINK_STATUSES),
  expires_at: z.string(),
  created_at: z.string(),
});
export type PayinLinkResponse = z.output<typeof payinLinkResponse>;
