import type { Context } from './context.ts';
import type { Deliveries } from './deliveries.ts';
import type { Item } from './store.ts';
import { closedAccount, payoutOutcome } from './testdata.ts';

/** When accepted items settle, and when pay-in links expire. */
export interface Settlement {
  /** delay from acceptance to settlement (the settle_ms switch, else the settleMs option) */
  settleDelay(): number;
  /** settles an item at its `settle_at` (at once when overdue) */
  watchSettlement(item: Item): void;
  /** settles every Processing item now, paused or not, and answers how many */
  settleNow(): number;
  /** the link's state, expiring it first when its time has passed (the timer may not have fired yet) */
  linkState(item: Item): string;
  /** expires a pay-in link at its `expires_at` */
  watchExpiry(item: Item): void;
  /** watches again what was pending before a restart */
  resume(): void;
}

/** The granularity of settlement times: items falling due within one tick settle together. */
export const SETTLE_TICK_MS = 10;

export function createSettlement(ctx: Context, deliveries: Deliveries, baseSettleMs: number): Settlement {
  const { store } = ctx;
  const settleDelay = () => ctx.controls.settle_ms ?? baseSettleMs;

  /**
   * Items waiting to settle, by the tick (SETTLE_TICK_MS) they fall due in: one timer per tick, not per item, and
   * the items of a tick settle together, their new states and webhooks in one journal line (a batch of a thousand
   * payouts accepted together settles together, as one write instead of a thousand). An item settles at most one
   * tick after its `settle_at`.
   */
  const waiting = new Map<number, Item[]>();
  function watchAt(at: number, item: Item) {
    const tick = Math.ceil(at / SETTLE_TICK_MS) * SETTLE_TICK_MS;
    const group = waiting.get(tick);
    if (group) return void group.push(item);
    waiting.set(tick, [item]);
    ctx.later(Math.max(0, tick - Date.now()), () => {
      const due = waiting.get(tick) ?? [];
      waiting.delete(tick);
      if (ctx.closed || store.broken) return;
      store.atomic(() => {
        for (const i of due) settle(i);
      });
    });
  }
  const watchSettlement = (item: Item) => watchAt(item.settle_at ?? Date.now(), item);
  /** a held settlement tries again later (the new time is not recorded: after a restart it is due at once) */
  function schedule(item: Item, delay: number) {
    item.settle_at = Date.now() + delay;
    watchAt(item.settle_at, item);
  }

  function settle(item: Item, force = false) {
    if (item.status !== 'Processing' || ctx.closed || store.broken) return;
    if (ctx.controls.paused_settlement && !force) return schedule(item, 200);
    let status: 'Completed' | 'Failed' = 'Completed';
    let message: string | undefined;
    if (item.kind === 'payout')
      ({ status, message } = payoutOutcome({
        obol_id: String(item.data.obol_id),
        brand: String(item.data.brand),
        amount: item.amount,
      }));
    if (item.kind === 'transfer' && closedAccount(String(item.data.iban))) {
      status = 'Failed';
      message = 'Account closed';
    }
    // the new state and its webhook in one journal line: a crash keeps both or neither
    store.atomic(() => {
      item.status = status;
      item.message = message;
      item.settled_at = new Date().toISOString();
      delete item.settle_at;
      store.putItem(item);
      deliveries.emit(`${item.kind}.${status === 'Completed' ? 'completed' : 'failed'}`, item);
    });
  }

  function settleNow() {
    let n = 0;
    store.atomic(() => {
      for (const i of Object.values(store.data.items))
        if (i.status === 'Processing') {
          settle(i, true);
          n += 1;
        }
    });
    return n;
  }

  const expiresAt = (item: Item) => Date.parse(String(item.data.expires_at));
  function expireLink(item: Item) {
    if (item.kind !== 'payin' || item.status !== 'Initiated' || ctx.closed || store.broken) return;
    store.atomic(() => {
      item.status = 'Expired';
      item.settled_at = new Date().toISOString();
      store.putItem(item);
      deliveries.emit('payin.expired', item);
    });
  }
  const linkState = (item: Item) => {
    if (item.status === 'Initiated' && expiresAt(item) <= Date.now()) expireLink(item);
    return item.status;
  };
  const watchExpiry = (item: Item) => ctx.later(Math.max(0, expiresAt(item) - Date.now()), () => expireLink(item));

  function resume() {
    for (const item of Object.values(store.data.items)) {
      if (item.status === 'Processing') watchSettlement(item);
      if (item.kind === 'payin' && item.status === 'Initiated') watchExpiry(item);
    }
  }

  return { settleDelay, watchSettlement, settleNow, linkState, watchExpiry, resume };
}
