import { randomUUID } from 'node:crypto';
import type { Context } from './context.ts';
import { publicData } from './items.ts';
import { signWebhook } from './signature.ts';
import type { Delivery, Item } from './store.ts';

/** Backoff of webhook deliveries: 0.5 s, 1 s, 2 s, 4 s, ... doubling, capped at 30 s (reached at the 7th retry). */
export const retryDelayMs = (attempts: number) => Math.min(30_000, 500 * 2 ** Math.max(0, attempts - 1));

export interface DeliveryOptions {
  /** where webhooks are posted */
  webhookUrl: string;
  /** HMAC key of the webhook signature */
  secret: string;
  /** how long one webhook POST may take before it counts as failed */
  webhookTimeoutMs: number;
  /**
   * Most events one webhook POST carries. 1 (the default): each event is posted alone, its body the event.
   * More: the due events are posted together, in order, as `{"events": [...]}` under one signature, as real
   * providers deliver them under load; the receiver acknowledges the whole batch or retries it whole.
   */
  batchSize?: number;
}

/** The events of items' new states, and their signed webhooks: queued in the store, posted in order, retried. */
export interface Deliveries {
  /** records an event and its deliveries (held first while out_of_order_webhooks is on) */
  emit(type: string, item: Item): void;
  /** enqueues the held events now, reversed */
  releaseHeld(): void;
  /** stops the pump and aborts the POST in flight; answers the pump run still ending, if any (close()) */
  stop(): Promise<void> | undefined;
}

export function createDeliveries(
  ctx: Context,
  { webhookUrl, secret, webhookTimeoutMs, batchSize = 1 }: DeliveryOptions,
): Deliveries {
  const { store } = ctx;
  let held: { type: string; item: Item }[] = [];
  let heldTimer: NodeJS.Timeout | undefined;

  function enqueueEvent(type: string, item: Item) {
    const event_id = `evt_${randomUUID()}`;
    const body = JSON.stringify({
      event_id,
      type,
      created_at: new Date().toISOString(),
      data: {
        id: item.id,
        reference: item.reference,
        idempotency_key: item.idempotency_key,
        status: item.status,
        message: item.message,
        amount: item.amount,
        currency: 'EUR',
        settled_at: item.settled_at,
        ...publicData(item),
      },
    });
    const copies = ctx.controls.duplicate_webhooks ? 2 : 1;
    store.atomic(() => {
      for (let i = 0; i < copies; i++)
        store.addDelivery({ id: randomUUID(), event_id, type, body, attempts: 0, next_at: Date.now() });
    });
    void pump();
  }

  function releaseHeld() {
    const group = held.reverse();
    held = [];
    if (heldTimer) clearTimeout(heldTimer);
    heldTimer = undefined;
    store.atomic(() => {
      for (const g of group) enqueueEvent(g.type, g.item);
    });
  }

  /**
   * out_of_order_webhooks holds events and releases them reversed, in groups of three (or after 300 ms).
   * Held events are in memory only: a crash while one is held loses that webhook (a test switch).
   */
  function emit(type: string, item: Item) {
    if (!ctx.controls.out_of_order_webhooks) return enqueueEvent(type, item);
    held.push({ type, item });
    if (held.length >= 3) releaseHeld();
    else heldTimer ??= setTimeout(releaseHeld, 300);
  }

  const inflight = new AbortController();
  let pumping: Promise<void> | undefined;
  /** posts one event alone, or several due ones together (batchSize > 1); acknowledged or retried as one */
  async function deliver(group: Delivery[]) {
    const body = batchSize > 1 ? `{"events":[${group.map((d) => d.body).join(',')}]}` : group[0].body;
    let failure: { status?: number; error?: string } | null = null;
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(secret, body) },
        body,
        signal: AbortSignal.any([inflight.signal, AbortSignal.timeout(webhookTimeoutMs)]),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status < 200 || res.status >= 300) failure = { status: res.status };
    } catch (e) {
      failure = { error: String((e as Error)?.message ?? e) };
    }
    if (!failure) return store.removeDeliveries(group);
    const { status, error } = failure;
    store.atomic(() => {
      for (const d of group) {
        d.attempts += 1;
        d.next_at = Date.now() + retryDelayMs(d.attempts);
        d.last_status = status;
        d.last_error = error;
        store.updateDelivery(d);
      }
    });
  }
  /** the oldest due deliveries, at most batchSize of them, in the order they were queued */
  function due(now: number): Delivery[] {
    const out: Delivery[] = [];
    for (const d of store.data.deliveries) {
      if (d.next_at <= now) out.push(d);
      if (out.length >= batchSize) break;
    }
    return out;
  }
  /** sends due deliveries one (batch) at a time, oldest first, so the receiver sees events in the order they happened */
  function pump(): Promise<void> {
    pumping ??= (async () => {
      await Promise.resolve(); // so `pumping` is set before the finally below clears it
      try {
        while (!ctx.closed && !store.broken) {
          const group = due(Date.now());
          if (!group.length) break;
          await deliver(group);
        }
      } finally {
        pumping = undefined;
      }
    })();
    return pumping;
  }
  const pumpInterval = setInterval(() => void pump(), 100);

  return {
    emit,
    releaseHeld,
    stop() {
      clearInterval(pumpInterval);
      inflight.abort();
      return pumping;
    },
  };
}
