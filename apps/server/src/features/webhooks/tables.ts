import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt } from '../../platform/columns.ts';
import { users } from '../users/tables.ts';

/**
 * A merchant's or brand's receiver of events about its money (issue 49). Its signing secret is encrypted at rest
 * with SECRETS_KEY, as API keys are; after a rotation the previous one signs too until `previous_secret_expires_at`.
 * Removing an endpoint sets `deleted_at` (its delivery log stays readable to nobody but the database).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: bigId(),
    /** the merchant or brand user who owns it */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** whose events it hears: a merchant's (all of its brands') or one brand's */
    merchantId: integer('merchant_id').notNull(),
    brandId: integer('brand_id'),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretExpiresAt: moment('previous_secret_expires_at'),
    /** the first failure since the last success; three days of it disable the endpoint */
    failingSince: moment('failing_since'),
    disabledAt: moment('disabled_at'),
    deletedAt: moment('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_endpoints_user_url_key')
      .on(t.userId, t.url)
      .where(sql`${t.deletedAt} IS NULL`),
    index('webhook_endpoints_merchant_idx')
      .on(t.merchantId)
      .where(sql`${t.deletedAt} IS NULL AND ${t.disabledAt} IS NULL`),
  ],
);

/**
 * One event for one endpoint: created once per (endpoint, outbox event) by the dispatcher, in the transaction that
 * moves its cursor, and tried until it succeeds or three days have passed.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigId(),
    endpointId: bigNumber('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    /** the money_events row it tells of: the event id receivers see is `evt_<this>` */
    eventId: bigNumber('event_id').notNull(),
    event: text('event').notNull(),
    /** its object, `<kind>:<id>`: deliveries of one object go out in event order */
    objectKey: text('object_key').notNull(),
    /** the JSON body, fixed at creation so every retry sends the same bytes' content */
    payload: text('payload').notNull(),
    status: text('status').notNull().default('Pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    /** a worker holds it until then: two workers never try one delivery at once */
    claimedUntil: moment('claimed_until'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_key').on(t.endpointId, t.eventId),
    index('webhook_deliveries_object_idx').on(t.endpointId, t.objectKey, t.eventId),
    check('webhook_deliveries_status_known', sql`${t.status} IN ('Pending', 'Succeeded', 'Failed')`),
  ],
);

/** Each try of a delivery, with the receiver's answer: the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigId(),
    deliveryId: bigNumber('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer('attempt').notNull(),
    at: moment('at').notNull().defaultNow(),
    responseStatus: integer('response_status'),
    /** the first 500 characters of the answer, or why there was none */
    response: text('response').notNull(),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/** Where the dispatcher is in the outbox: one row, locked by the one process dispatching at a time. */
export const webhookCursor = pgTable('webhook_cursor', {
  id: integer('id').primaryKey(),
  lastEventId: bigNumber('last_event_id').notNull(),
});

/**
 * The demo storefront's receiver (/merchant-site): what Obol delivered to `/api/demo-shop/<inbox>/webhook`, so the
 * shop's page can show the events it heard. It keeps only bodies Obol itself sent to that address (a public URL stores
 * nothing else), a day long; `times` counts a resend.
 */
export const demoShopEvents = pgTable(
  'demo_shop_events',
  {
    inbox: text('inbox').notNull(),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    /** the raw body and signature header as received: the shop checks the signature itself */
    body: text('body').notNull(),
    signature: text('signature').notNull(),
    times: integer('times').notNull().default(1),
    receivedAt: moment('received_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.inbox, t.eventId] }), index('demo_shop_events_received_idx').on(t.receivedAt)],
);
