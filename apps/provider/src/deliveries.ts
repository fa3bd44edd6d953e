import { randomUUID } from 'node:crypto';
import type { Context } from './context.ts';
import { publicData } from './items.ts';
import { signWebhook } from './signature.ts';
import type { Delivery, Item } from './store.ts';

/** Backoff of webhook deliveries: 0.5 s, 1 s, 2 s, 4 s, ... doubling, capped at 30 s (reached at the 7th retry). */
export const retryDelayMs = (attempts: number) => Math.min(30_000, 500 * 2 ** Math.max(0, attempts - 1));

export interface DeliveryOptions {
  /** where webhooks are posted; a function is asked at each post (a receiver that starts after the simulator) */
  webhookUrl: string | (() => string);
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
  /**
   * Most webhook POSTs in flight at once. 1 (the default): one after another. More: up to that many at once,
   * as real providers deliver under load; the events of one item still arrive in the order they happened (an
   * item with an event in flight has its later events wait), events of different items may cross.
   */
  concurrency?: number;
}

/** The events of items' new states, and their signed webhooks: queued in the store, posted in order, retried. */
export interface Deliveries {
  /** records an event and its deliveries (held first while out_of_order_webhooks is on) */
  emit(type: string, item: Item): void;
  /** enqueues the held events now, reversed */
  releaseHeld(): void;
  /** stops the pump and aborts the POSTs in flight; answers when those still ending have ended, if any (close()) */
  stop(): Promise<void> | undefined;
}

export function createDeliveries(
  ctx: Context,
  { webhookUrl, secret, webhookTimeoutMs, batchSize = 1, concurrency = 1 }: DeliveryOptions,
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
        store.addDelivery({
          id: randomUUID(),
          event_id,
          type,
          item_id: item.id,
          body,
          attempts: 0,
          next_at: Date.now(),
        });
    });
    pump();
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
  /** the POSTs in flight, and the deliveries and items they carry */
  const flying = new Set<Promise<void>>();
  const busy = new Set<Delivery>();
  const busyItems = new Map<string, number>();
  /** the item a delivery is about (a delivery queued before item_id was kept: read from its body) */
  const itemOf = (d: Delivery) => (d.item_id ??= String((JSON.parse(d.body) as { data?: { id?: unknown } }).data?.id));
  /** posts one event alone, or several due ones together (batchSize > 1); acknowledged or retried as one */
  async function deliver(group: Delivery[]) {
    const body = batchSize > 1 ? `{"events":[${group.map((d) => d.body).join(',')}]}` : group[0].body;
    let failure: { status?: number; error?: string } | null = null;
    try {
      const res = await fetch(typeof webhookUrl === 'function' ? webhookUrl() : webhookUrl, {
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
  /**
   * The oldest due deliveries not in flight, at most batchSize of them, in the order they were queued; none of
   * an item that has an event in flight (its later events wait for it).
   */
  function due(now: number): Delivery[] {
    const out: Delivery[] = [];
    for (const d of store.data.deliveries) {
      if (busy.has(d) || d.next_at > now || busyItems.has(itemOf(d))) continue;
      out.push(d);
      if (out.length >= batchSize) break;
    }
    return out;
  }
  /**
   * Sends due deliveries, oldest first, up to `concurrency` POSTs at a time (1: one after another, so the receiver
   * sees every event in the order it happened; more: each item's events still in their order).
   */
  function pump() {
    while (!ctx.closed && !store.broken && flying.size < concurrency) {
      const group = due(Date.now());
      if (!group.length) break;
      for (const d of group) {
        busy.add(d);
        busyItems.set(itemOf(d), (busyItems.get(itemOf(d)) ?? 0) + 1);
      }
      const sent: Promise<void> = deliver(group)
        .catch(() => undefined) // a broken store stops the pump (store.broken)
        .finally(() => {
          for (const d of group) {
            busy.delete(d);
            const n = busyItems.get(itemOf(d))! - 1;
            if (n) busyItems.set(itemOf(d), n);
            else busyItems.delete(itemOf(d));
          }
          flying.delete(sent);
          pump();
        });
      flying.add(sent);
    }
  }
  const pumpInterval = setInterval(pump, 100);

  return {
    emit,
    releaseHeld,
    stop() {
      clearInterval(pumpInterval);
      inflight.abort();
      return flying.size ? Promise.all(flying).then(() => undefined) : undefined;
    },
  };
}
