import { liveEvent, type LiveEvent, type LiveKind } from '@obol/contract';
import { useQueryClient } from '@tanstack/react-query';
import { createParser } from 'eventsource-parser';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { sessionStore } from './session.ts';

/** The lists (query keys) each kind of event changes: they refetch in place when one arrives. */
const CHANGES: Record<LiveKind, readonly string[]> = {
  // a held one appears, or is decided: the approvals and the navigation's count
  payout: [
    'approvals',
    'payout-transactions',
    'completed-transactions',
    'payout-volume',
    'batch-history',
    'balance',
    'holder-balances',
  ],
  batch: ['approvals', 'batches', 'recent-batches', 'batch-history', 'batch-progress', 'balance', 'holder-balances'],
  payin: ['payins', 'rewards', 'balance', 'holder-balances'],
  refund: ['refunds', 'payins', 'balance', 'holder-balances'],
  reward: ['rewards', 'balance', 'holder-balances'],
  transfer: ['approvals', 'transfers', 'transfer-balance', 'balance', 'holder-balances'],
  '2d': ['approvals', 'accounting-transactions', 'company-accounts'],
  download: ['download-files'],
};

/** How long a changed row stays marked. */
const FRESH_MS = 3000;
/** Events arriving together (a batch settling) refetch their lists once. */
const GATHER_MS = 400;

interface Live {
  /** the stream is open: lists need not poll */
  connected: boolean;
  /** `<kind>:<id>` of what changed in the last few seconds */
  fresh: ReadonlySet<string>;
}
const Ctx = createContext<Live>({ connected: false, fresh: new Set() });

/** Whether the live stream is open (lists poll only while it is not). */
export const useLiveConnected = () => useContext(Ctx).connected;

/** A list's refetch interval: none while the stream is open, `ms` as the fallback while it is down. */
export const useFallbackPoll = (ms: number) => (useContext(Ctx).connected ? false : ms);

/** Whether a row of this kind changed a moment ago (for a subtle highlight); never, without a kind. */
export function useFresh(kind: LiveKind | undefined): (id: string | number) => boolean {
  const { fresh } = useContext(Ctx);
  return useMemo(() => (id) => kind !== undefined && fresh.has(`${kind}:${id}`), [fresh, kind]);
}

/**
 * The signed-in app's one stream of events (GET /api/events), read with fetch because it sends the session's
 * bearer token as every call does (EventSource cannot send a header). Reconnects with Last-Event-ID after a drop
 * (3 s, then slower), stops on 401 (the session ended: the next call signs out).
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [connected, setConnected] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const pending = useRef<{ keys: Set<string>; ids: Set<string> }>({ keys: new Set(), ids: new Set() });

  useEffect(() => {
    let stopped = false;
    let lastId: string | undefined;
    let abort: AbortController | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let gather: ReturnType<typeof setTimeout> | undefined;
    let delay = 3000;

    const flush = () => {
      gather = undefined;
      const { keys, ids } = pending.current;
      pending.current = { keys: new Set(), ids: new Set() };
      for (const key of keys) void client.invalidateQueries({ queryKey: [key] });
      setFresh((before) => new Set([...before, ...ids]));
      setTimeout(() => setFresh((now) => new Set([...now].filter((id) => !ids.has(id)))), FRESH_MS);
    };
    const heard = (e: LiveEvent) => {
      for (const key of CHANGES[e.kind]) pending.current.keys.add(key);
      pending.current.ids.add(`${e.kind}:${e.id}`);
      gather ??= setTimeout(flush, GATHER_MS);
    };

    const connect = async () => {
      const token = sessionStore.get()?.token;
      if (stopped || !token) return;
      abort = new AbortController();
      try {
        const res = await fetch('/api/events', {
          headers: { authorization: `Bearer ${token}`, ...(lastId ? { 'last-event-id': lastId } : {}) },
          signal: abort.signal,
        });
        // signed out, or a server without the stream: the lists keep polling
        if ([401, 403, 404].includes(res.status)) return;
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        setConnected(true);
        delay = 3000;
        const parser = createParser({
          onEvent: (m) => {
            if (m.id) lastId = m.id;
            const parsed = liveEvent.safeParse(JSON.parse(m.data));
            if (parsed.success) heard(parsed.data);
          },
        });
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // dropped, or the server is away: the lists poll meanwhile
      }
      setConnected(false);
      if (!stopped) {
        retry = setTimeout(() => void connect(), delay);
        delay = Math.min(delay * 2, 30_000);
      }
    };
    void connect();
    return () => {
      stopped = true;
      abort?.abort();
      clearTimeout(retry);
      clearTimeout(gather);
    };
  }, [client]);

  const value = useMemo(() => ({ connected, fresh }), [connected, fresh]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
