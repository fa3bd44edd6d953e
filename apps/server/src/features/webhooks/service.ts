import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_MSG,
  type WebhookAttemptRow,
  type WebhookEndpointRow,
  type WebhookEvent,
} from '@obol/contract';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/http.ts';
import type { Deps } from '../../platform/deps.ts';
import { encryptSecret, randomToken } from '../../platform/crypto.ts';
import { isUniqueViolation } from '../../platform/db.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { checkReceiver } from './address.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from './tables.ts';

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** A rotated secret keeps signing this long, so receivers can switch without losing a delivery. */
export const PREVIOUS_SECRET_MS = 24 * 3600_000;

const newSecret = () => `whsec_${randomToken(32)}`;

export function endpointRow(e: EndpointRow): WebhookEndpointRow {
  const previous =
    e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date() ? e.previousSecretExpiresAt : null;
  return {
    id: e.id,
    url: e.url,
    events: e.events as WebhookEvent[],
    status: e.disabledAt ? 'Disabled' : 'Enabled',
    failing_since: e.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: previous?.toISOString() ?? null,
    created_at: e.createdAt.toISOString(),
  };
}

/** Whose events an endpoint of this caller hears: a merchant's all, a brand's its own. */
function owner(auth: AuthContext) {
  const s = auth.scope;
  if (s.kind === 'merchant' && auth.user.role === 'Merchant') return { merchantId: s.merchantId, brandId: null };
  if (s.kind === 'brand') return { merchantId: s.merchantId, brandId: s.brandId };
  // API_KEY_ROLES lets only merchants and brands here; a merchant without a scope has nothing to hear
  throw notFound(WEBHOOK_MSG.notFound);
}

/** the advisory lock's first key: adding endpoints, per owner */
const ADD_LOCK = 4901;

/**
 * Adds an endpoint and answers its secret, once. The count and the insert are one locked transaction (an advisory
 * lock per owner), so two adds at the same moment cannot pass the limit together; the same URL twice is refused by a
 * unique index.
 */
export async function createEndpoint(deps: Deps, auth: AuthContext, input: { url: string; events: WebhookEvent[] }) {
  const who = owner(auth);
  await checkReceiver(input.url, deps.config.webhooksAllowPrivate, 'url');
  const secret = newSecret();
  try {
    const row = await deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADD_LOCK}, ${auth.user.id})`);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.userId, auth.user.id), isNull(webhookEndpoints.deletedAt)));
      if (n >= MAX_WEBHOOK_ENDPOINTS) throw unprocessable(WEBHOOK_MSG.tooMany, 'url');
      const [created] = await tx
        .insert(webhookEndpoints)
        .values({
          userId: auth.user.id,
          ...who,
          url: input.url,
          events: input.events,
          secretEnc: encryptSecret(deps.config.secretsKey, secret),
        })
        .returning();
      return created;
    });
    return { endpoint: endpointRow(row), secret };
  } catch (err) {
    if (isUniqueViolation(err, 'webhook_endpoints_user_url_key')) throw conflict(WEBHOOK_MSG.duplicate);
    throw err;
  }
}

const mine = (auth: AuthContext, id: number) =>
  and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, auth.user.id), isNull(webhookEndpoints.deletedAt));

export async function listEndpoints(deps: Deps, auth: AuthContext) {
  const rows = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, auth.user.id), isNull(webhookEndpoints.deletedAt)))
    .orderBy(webhookEndpoints.id);
  return rows.map(endpointRow);
}

/** Removes it: nothing more is sent to it, its pending deliveries included. */
export async function deleteEndpoint(deps: Deps, auth: AuthContext, id: number) {
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({ deletedAt: new Date() })
    .where(mine(auth, id))
    .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
  if (!row) throw notFound(WEBHOOK_MSG.notFound);
  return row;
}

/**
 * A new secret, answered once; the one it replaces keeps signing for 24 hours. One UPDATE: two rotations at the
 * same moment each leave a valid pair (the later one's previous is the earlier one's new).
 */
export async function rotateSecret(deps: Deps, auth: AuthContext, id: number) {
  const secret = newSecret();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      previousSecretEnc: sql`${webhookEndpoints.secretEnc}`,
      previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_MS),
      secretEnc: encryptSecret(deps.config.secretsKey, secret),
    })
    .where(mine(auth, id))
    .returning();
  if (!row) throw notFound(WEBHOOK_MSG.notFound);
  return { endpoint: endpointRow(row), secret };
}

/** The delivery log of one of the caller's endpoints: every attempt, newest first. */
export async function listAttempts(
  deps: Deps,
  auth: AuthContext,
  q: { endpointId: number; page: number; perPage: number },
): Promise<{ data: WebhookAttemptRow[]; total: number }> {
  const [endpoint] = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(mine(auth, q.endpointId));
  if (!endpoint) throw notFound(WEBHOOK_MSG.notFound);
  const where = eq(webhookDeliveries.endpointId, endpoint.id);
  const [rows, [{ total }]] = await Promise.all([
    deps.db
      .select({
        deliveryId: webhookDeliveries.id,
        attempt: webhookAttempts.attempt,
        eventId: webhookDeliveries.eventId,
        event: webhookDeliveries.event,
        objectKey: webhookDeliveries.objectKey,
        status: webhookDeliveries.status,
        at: webhookAttempts.at,
        responseStatus: webhookAttempts.responseStatus,
        response: webhookAttempts.response,
        durationMs: webhookAttempts.durationMs,
      })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(where)
      .orderBy(desc(webhookAttempts.id))
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage),
    deps.db
      .select({ total: count() })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(where),
  ]);
  return {
    data: rows.map((r) => ({
      delivery_id: r.deliveryId,
      attempt: r.attempt,
      event_id: `evt_${r.eventId}`,
      event: r.event as WebhookEvent,
      object_id: r.objectKey.slice(r.objectKey.indexOf(':') + 1),
      delivery_status: r.status as 'Pending' | 'Succeeded' | 'Failed',
      at: r.at.toISOString(),
      response_status: r.responseStatus,
      response: r.response,
      duration_ms: r.durationMs,
    })),
    total,
  };
}

/**
 * Sends one of the caller's deliveries again now, with the same event id, whatever became of it; its three days of
 * retries start again, and a disabled endpoint is enabled.
 */
export async function resendDelivery(deps: Deps, auth: AuthContext, deliveryId: number) {
  const row = await deps.db.transaction(async (tx) => {
    const [d] = await tx
      .update(webhookDeliveries)
      .set({ status: 'Pending', nextAttemptAt: new Date(), createdAt: sql`now()` })
      .where(
        and(
          eq(webhookDeliveries.id, deliveryId),
          sql`${webhookDeliveries.endpointId} IN (SELECT id FROM webhook_endpoints WHERE user_id = ${auth.user.id}
            AND deleted_at IS NULL)`,
        ),
      )
      .returning({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId });
    if (!d) throw notFound(WEBHOOK_MSG.notFound);
    // resending is how an owner says its receiver works again: a disabled endpoint is enabled
    await tx
      .update(webhookEndpoints)
      .set({ disabledAt: null, failingSince: null })
      .where(eq(webhookEndpoints.id, d.endpointId));
    await deps.jobs.send('webhook.deliver', { deliveryId: d.id }, { tx });
    return d;
  });
  return row;
}
