import { z } from 'zod';
import { messages, operation, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import { API_KEY_ROLES } from './profile.ts';

/** What a merchant's system can hear about its money (issue 49). */
export const WEBHOOK_EVENTS = [
  'payin.completed',
  'payin.failed',
  'refund.completed',
  'refund.failed',
  'payout.completed',
  'payout.failed',
  'batch.completed',
  'transfer.completed',
  'transfer.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** At most this many endpoints per merchant or brand. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

export const WEBHOOK_MSG = {
  created: 'Webhook endpoint added. Copy its signing secret now: it is shown once.',
  deleted: 'Webhook endpoint removed.',
  rotated: 'Signing secret rotated. The previous secret stays valid for 24 hours.',
  resent: 'Delivery queued again.',
  url: 'Enter a valid URL starting with https:// (or http:// outside production)',
  urlPrivate: 'This address is private or reserved and cannot receive webhooks',
  events: 'Choose at least one event',
  tooMany: `At most ${MAX_WEBHOOK_ENDPOINTS} endpoints`,
  duplicate: 'This URL is already an endpoint',
  notFound: 'No record found',
} as const;

const url = z
  .string({ error: WEBHOOK_MSG.url })
  .trim()
  .max(2048, 'URL must be at most 2048 characters')
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !!u.hostname;
    } catch {
      return false;
    }
  }, WEBHOOK_MSG.url);

export const createWebhookEndpointRequest = z.object({
  url,
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `events must be among ${WEBHOOK_EVENTS.join(', ')}` }), {
      error: WEBHOOK_MSG.events,
    })
    .min(1, WEBHOOK_MSG.events)
    .max(WEBHOOK_EVENTS.length)
    .refine((list) => new Set(list).size === list.length, 'events must not repeat'),
});

const webhookEndpointRow = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** Disabled: failing for three days (its owner was mailed) */
  status: z.enum(['Enabled', 'Disabled']),
  /** since when its deliveries fail, if they do */
  failing_since: timestamp.nullable(),
  /** while a rotated secret is still valid */
  previous_secret_expires_at: timestamp.nullable(),
  created_at: timestamp,
});
export type WebhookEndpointRow = z.output<typeof webhookEndpointRow>;

/** The signing secret is in this answer and never again. */
const webhookSecretAnswer = z.object({
  message: messages,
  endpoint: webhookEndpointRow,
  secret: z.string(),
});

const endpointId = wholeNumber('id', 1, INT4_MAX);

const webhookDeliveriesRequest = z.object({
  endpoint_id: wholeNumber('endpoint_id', 1, INT4_MAX),
  per_page: perPageField(),
  page: pageField(),
});

/** One try of one event to one endpoint, newest first. */
const webhookAttemptRow = z.object({
  delivery_id: z.number().int(),
  attempt: z.number().int(),
  event_id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  object_id: z.string(),
  /** where the delivery stands: Pending (retrying), Succeeded, Failed (gave up after three days) */
  delivery_status: z.enum(['Pending', 'Succeeded', 'Failed']),
  at: timestamp,
  /** the receiver's HTTP status; null when it never answered */
  response_status: z.number().int().nullable(),
  /** the start of its answer, or why it was not reached (timeout, refused address) */
  response: z.string(),
  duration_ms: z.number().int(),
});
export type WebhookAttemptRow = z.output<typeof webhookAttemptRow>;

// ---- the calls ----

const TAG = 'Webhooks';
const access = { roles: API_KEY_ROLES };

const signatureScheme =
  'Each delivery is a POST of JSON `{id, type, created, data: {object: {kind, id, status, amount, currency}}}` with ' +
  'the headers `Obol-Event-Id` (the same on every retry: use it to ignore a repeat) and ' +
  '`Obol-Signature: t=<unix seconds>,v1=<hex>`, where v1 is the HMAC-SHA256, keyed with the signing secret, of ' +
  '`<t>.<raw body>`; during the 24 hours after a rotation a second v1 carries the previous secret\u2019s. Verify: ' +
  "`crypto.timingSafeEqual(Buffer.from(v1, 'hex'), crypto.createHmac('sha256', secret).update(t + '.' + rawBody)" +
  '.digest())` and refuse a t more than 5 minutes old. A non-2xx answer or no answer in 10 s is retried with ' +
  'exponential backoff from 30 s for three days, in order per object.';

export const webhookOps = {
  createWebhookEndpoint: operation({
    id: 'createWebhookEndpoint',
    method: 'POST',
    path: '/api/create-webhook-endpoint',
    tag: TAG,
    summary: `Adds an endpoint that hears the chosen events of the caller's money. ${signatureScheme}`,
    access,
    audit: 'webhook.create',
    status: 201,
    input: createWebhookEndpointRequest,
    output: webhookSecretAnswer,
    examples: {
      request: { url: 'https://shop.example/obol/webhooks', events: ['payin.completed', 'refund.completed'] },
    },
  }),
  webhookEndpoints: operation({
    id: 'webhookEndpoints',
    method: 'POST',
    path: '/api/webhook-endpoints',
    tag: TAG,
    summary: "The caller's webhook endpoints (never their secrets)",
    access,
    output: z.object({ data: z.array(webhookEndpointRow) }),
  }),
  deleteWebhookEndpoint: operation({
    id: 'deleteWebhookEndpoint',
    method: 'POST',
    path: '/api/delete-webhook-endpoint',
    tag: TAG,
    summary: 'Removes one of the caller\u2019s endpoints; nothing more is sent to it',
    access,
    audit: 'webhook.delete',
    input: z.object({ id: endpointId }),
    output: z.object({ message: messages }),
  }),
  rotateWebhookSecret: operation({
    id: 'rotateWebhookSecret',
    method: 'POST',
    path: '/api/rotate-webhook-secret',
    tag: TAG,
    summary: 'A new signing secret for one endpoint, shown once; the previous one stays valid for 24 hours',
    access,
    audit: 'webhook.rotate',
    status: 201,
    input: z.object({ id: endpointId }),
    output: webhookSecretAnswer,
  }),
  webhookDeliveries: operation({
    id: 'webhookDeliveries',
    method: 'POST',
    path: '/api/webhook-deliveries',
    tag: TAG,
    summary: 'Every attempt to deliver to one endpoint, newest first, with the receiver\u2019s answer',
    access,
    input: webhookDeliveriesRequest,
    output: z.object({ data: z.array(webhookAttemptRow), total: z.number().int() }),
  }),
  resendWebhook: operation({
    id: 'resendWebhook',
    method: 'POST',
    path: '/api/resend-webhook',
    tag: TAG,
    summary: 'Sends one delivery again now (same event id), whatever became of it',
    access,
    audit: 'webhook.resend',
    input: z.object({ delivery_id: wholeNumber('delivery_id', 1, Number.MAX_SAFE_INTEGER) }),
    output: z.object({ message: messages }),
  }),
} as const;

// ---- the demo storefront's receiver ----

/** A demo shop's inbox: 32 hexadecimal characters the shop's page makes up, its receiving address's secret part. */
const demoShopInbox = z.object({
  inbox: z.string().regex(/^[0-9a-f]{32}$/, 'inbox must be 32 lowercase hexadecimal characters'),
});

/** One event the demo shop received, as it came: the shop checks its signature with the secret it was given. */
const demoShopEventRow = z.object({
  event_id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  body: z.string(),
  signature: z.string(),
  /** how many times it arrived (a resend is a second time, with the same event id) */
  times: z.number().int(),
  received_at: timestamp,
});
export type DemoShopEventRow = z.output<typeof demoShopEventRow>;

export const demoShopOps = {
  demoShopWebhook: operation({
    id: 'demoShopWebhook',
    method: 'POST',
    path: '/api/demo-shop/:inbox/webhook',
    tag: 'Demo shop',
    summary:
      "The demo storefront's webhook receiver (/merchant-site): keeps, for a day, an event Obol delivered to this " +
      'address, as it came (raw body and Obol-Signature). It takes only the bodies Obol sent here; anything else is a 404.',
    access: 'public',
    params: demoShopInbox,
    output: z.object({ message: messages }),
  }),
  demoShopEvents: operation({
    id: 'demoShopEvents',
    method: 'GET',
    path: '/api/demo-shop/:inbox/events',
    tag: 'Demo shop',
    summary: 'The events the demo storefront received at this inbox in the last day, newest first (at most 50)',
    access: 'public',
    params: demoShopInbox,
    output: z.object({ data: z.array(demoShopEventRow) }),
  }),
} as const;
