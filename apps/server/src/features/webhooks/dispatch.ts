import type { WebhookEvent } from '@obol/contract';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { rowsOf } from '../../platform/db.ts';
import { eventsAfter, type MoneyEvent } from '../engine/events.ts';
import { webhookCursor, webhookDeliveries, webhookEndpoints } from './tables.ts';

/** How often each process looks for new events to deliver (one dispatches at a time: the cursor is locked). */
export const DISPATCH_EVERY_MS = 1000;

/** The outbox's status changes that merchants' systems hear about, by movement and new status. */
const EVENT_OF: Record<string, Record<string, WebhookEvent>> = {
  payin: { Completed: 'payin.completed', Declined: 'payin.failed', Expired: 'payin.failed' },
  refund: { Completed: 'refund.completed', Declined: 'refund.failed' },
  payout: { Completed: 'payout.completed', Failed: 'payout.failed' },
  batch: { Completed: 'batch.completed' },
  transfer: { Completed: 'transfer.completed', Declined: 'transfer.failed' },
};

export const webhookEventOf = (e: Pick<MoneyEvent, 'kind' | 'to'>): WebhookEvent | undefined =>
  EVENT_OF[e.kind]?.[e.to];

/** The body every attempt of this event sends (Stripe's shape: the event, and the object as it now stands). */
export const payloadOf = (e: MoneyEvent, type: WebhookEvent) =>
  JSON.stringify({
    id: `evt_${e.id}`,
    type,
    created: Math.floor(e.at.getTime() / 1000),
    data: { object: { kind: e.kind, id: e.objectId, status: e.to, amount: e.amount, currency: 'EUR' } },
  });

/**
 * Reads the outbox after the cursor and creates a delivery for each event an endpoint listens to, with its job, in
 * the transaction that moves the cursor: each (endpoint, event) is created exactly once (a unique index too), and
 * a process dying mid-way leaves the cursor where it was. The cursor's row is taken with SKIP LOCKED, so with
 * several processes one dispatches and the others return at once. An endpoint hears only events after it was
 * added; a merchant's endpoint hears its brands' too, a brand's its own. Answers how many deliveries it created.
 */
export async function dispatchWebhooks(deps: Deps, limit = 500): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const [cursor] = rowsOf<{ last_event_id: string | number }>(
      await tx.execute(sql`SELECT last_event_id FROM ${webhookCursor} WHERE id = 1 FOR UPDATE SKIP LOCKED`),
    );
    if (!cursor) return 0;
    const events = await eventsAfter(tx, Number(cursor.last_event_id), { kind: 'all' }, limit);
    if (!events.length) return 0;
    const heard = events.flatMap((e) => {
      const type = webhookEventOf(e);
      return type && e.merchantId !== null ? [{ e, type }] : [];
    });
    let created = 0;
    if (heard.length) {
      const endpoints = await tx
        .select()
        .from(webhookEndpoints)
        .where(
          and(
            inArray(webhookEndpoints.merchantId, [...new Set(heard.map(({ e }) => e.merchantId!))]),
            isNull(webhookEndpoints.deletedAt),
            isNull(webhookEndpoints.disabledAt),
          ),
        );
      const rows = heard.flatMap(({ e, type }) =>
        endpoints
          .filter(
            (p) =>
              p.merchantId === e.merchantId &&
              (p.brandId === null || p.brandId === e.holderId) &&
              p.events.includes(type) &&
              p.createdAt <= e.at,
          )
          .map((p) => ({
            endpointId: p.id,
            eventId: e.id,
            event: type,
            objectKey: `${e.kind}:${e.objectId}`,
            payload: payloadOf(e, type),
          })),
      );
      if (rows.length) {
        const inserted = await tx
          .insert(webhookDeliveries)
          .values(rows)
          .onConflictDoNothing()
          .returning({ id: webhookDeliveries.id });
        for (const d of inserted) await deps.jobs.send('webhook.deliver', { deliveryId: d.id }, { tx });
        created = inserted.length;
      }
    }
    await tx.execute(sql`UPDATE ${webhookCursor} SET last_event_id = ${events[events.length - 1].id} WHERE id = 1`);
    return created;
  });
}

/** The last outbox event the dispatch has read (the pruning of the outbox keeps what comes after it). */
export async function webhookCursorEventId(deps: Pick<Deps, 'db'>): Promise<number> {
  const [row] = await deps.db.select({ id: webhookCursor.lastEventId }).from(webhookCursor);
  return row?.id ?? 0;
}
