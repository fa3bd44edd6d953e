import { z } from 'zod';
import { MSG } from './messages.ts';
import { operation } from './operation.ts';
import { amountCents, requiredText } from './payments.ts';

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
} as const;

/** The largest pay-in link the API makes: one million euros, in cents. */
export const PAYIN_MAX_CENTS = 100_000_000;

/** A merchant API token lives this long (seconds). */
export const MERCHANT_TOKEN_SECONDS = 15 * 60;

/** The pay-in's transaction status (section 4) and the link's. */
export const PAYIN_STATUSES = ['Pending', 'Completed', 'Declined', 'Expired'] as const;
export const PAYIN_LINK_STATUSES = ['Initiated', 'Expired'] as const;

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
});
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
  transaction_status: z.enum(PAYIN_STATUSES),
  link_status: z.enum(PAYIN_LINK_STATUSES),
  expires_at: z.string(),
  created_at: z.string(),
});
export type PayinLinkResponse = z.output<typeof payinLinkResponse>;

const TAG = 'Merchant API';

/**
 * The merchant API: what a merchant's own system calls with its API key (Administration, API Keys), not the
 * back-office's session. Both answer 401 without valid credentials and are rate limited per key.
 */
export const payinOps = {
  merchantToken: operation({
    id: 'merchantToken',
    method: 'POST',
    path: '/api/token',
    tag: TAG,
    summary:
      'A short-lived bearer token for the merchant API, for the API key sent as `X-API-Key: <public key>:<private key>` ' +
      `(401 for a wrong, revoked or expired key; the token lives ${MERCHANT_TOKEN_SECONDS / 60} minutes)`,
    access: 'public',
    security: 'api-key',
    output: merchantTokenResponse,
    examples: {
      response: {
        access_token: 'mt_eyJrIjoxLCJ1Ijo3LCJlIjoxNzk1NjI2NDE3fQ.3q2…',
        token_type: 'Bearer',
        expires_in: 900,
      },
    },
  }),
  createPayinLink: operation({
    id: 'createPayinLink',
    method: 'POST',
    path: '/api/create-payin-link',
    tag: TAG,
    summary:
      'A pay-in link at the provider for a payer, with `Authorization: Bearer <token from /api/token>`: the amount in ' +
      'cents, a reference unique per merchant, the payer. An `Idempotency-Key` header makes a retry answer the same ' +
      'link. The pay-in is Pending until the provider reports it Completed (credited to the pay-in account), ' +
      'Declined or Expired.',
    access: 'public',
    security: 'merchant-token',
    audit: 'payin.create-link',
    input: createPayinLinkRequest,
    output: payinLinkResponse,
    status: 201,
    examples: {
      request: {
        amount: 2599,
        reference: 'order-10042',
        first_name: 'Ana',
        last_name: 'Novak',
        date_of_birth: '1990-04-12',
        return_url: 'https://shop.example/orders/10042',
      },
      response: {
        request_id: 'pl_000001',
        reference: 'order-10042',
        amount: 2599,
        currency: 'EUR',
        url: 'http://127.0.0.1:3100/pay/pl_000001',
        transaction_status: 'Pending',
        link_status: 'Initiated',
        expires_at: '2026-11-25T18:15:00.000Z',
        created_at: '2026-11-25T18:00:00.000Z',
      },
    },
  }),
} as const;
