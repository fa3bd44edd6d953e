import type { Deliveries } from './deliveries.ts';
import type { Settlement } from './settlement.ts';
import type { Store } from './store.ts';

/** The fault switches of `/_control`. */
export interface Controls {
  latency_ms: number;
  fail_next: number;
  timeout_next: number;
  drop_after_accept_next: number;
  duplicate_webhooks: boolean;
  out_of_order_webhooks: boolean;
  settle_ms: number | null;
  paused_settlement: boolean;
}
export const defaultControls = (): Controls => ({
  latency_ms: 0,
  fail_next: 0,
  timeout_next: 0,
  drop_after_accept_next: 0,
  duplicate_webhooks: false,
  out_of_order_webhooks: false,
  settle_ms: null,
  paused_settlement: false,
});

/** What every part of one simulator shares: its store, its switches, and the timers close() must end. */
export interface Context {
  readonly store: Store;
  /** the fault switches (`/_control` replaces them, the API hooks count the `*_next` ones down) */
  controls: Controls;
  /** base of the hosted pay-page links, without a trailing slash ('' until known) */
  publicUrl: string;
  /** set by close(): no new timers, no more deliveries or settlements */
  closed: boolean;
  /** runs fn after ms, unless closed before */
  later(ms: number, fn: () => void): void;
  /** a sleep that close() cuts short */
  sleep(ms: number): Promise<void>;
  /** clears every `later` timer and wakes every sleeper (close()) */
  stopTimers(): void;
}

export function createContext(store: Store, publicUrl: string): Context {
  // ---- timers and sleeps that close() must end ----
  const timers = new Set<NodeJS.Timeout>();
  const sleepers = new Set<() => void>();
  const ctx: Context = {
    store,
    controls: defaultControls(),
    publicUrl,
    closed: false,
    later(ms, fn) {
      if (ctx.closed) return;
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          sleepers.delete(done);
          resolve();
        };
        const t = setTimeout(done, ms);
        sleepers.add(done);
      }),
    stopTimers() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const wake of [...sleepers]) wake();
    },
  };
  return ctx;
}

/** What each group of routes is given: the context, and the deliveries and settlement built on it. */
export interface Parts {
  ctx: Context;
  deliveries: Deliveries;
  settlement: Settlement;
}
