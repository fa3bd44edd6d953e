import {
  accountingOps,
  batchOps,
  liveOps,
  payinOps,
  transactionOps,
  transferOps,
  type Access,
  type LiveEvent,
  type LiveKind,
} from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { listen } from '../../platform/db.ts';
import { allows, route, type AuthContext } from '../../platform/http.ts';
import { sessionHolds } from '../auth/sessions.ts';
import { eventsAfter, lastEventId, type MoneyEvent } from '../engine/events.ts';

/** A kind is heard by those who may open a list that shows it (a file by its owner alone: the reader's rule). */
const LISTS: Record<LiveKind, readonly Access[]> = {
  payout: [transactionOps.payoutTransactions.access],
  batch: [transactionOps.batchHistory.access, batchOps.recentBatches.access],
  payin: [payinOps.payinList.access],
  refund: [payinOps.refundList.access],
  reward: [payinOps.payinRewards.access],
  transfer: [transferOps.transferList.access],
  '2d': [accountingOps.accountingTransactions.access],
  download: ['authenticated'],
};

/** A comment this often keeps proxies from closing the stream, and checks that the session still holds. */
const HEARTBEAT_MS = 20_000;
/** Without a NOTIFY (a dropped listener), the streams read anyway this often. */
const FALLBACK_MS = 5_000;
const PAGE = 200;

interface Stream {
  wake(): void;
  end(): void;
}

/**
 * The process's open streams, woken together: by NOTIFY at the commit of new outbox events (from any process on
 * PostgreSQL, PGlite's own in process) and by a slow timer. Each stream reads the outbox after its own cursor with
 * its own scope, so a reconnect with Last-Event-ID resumes exactly, and no stream sees another's events.
 */
class Hub {
  private streams = new Set<Stream>();
  private stopListening?: Promise<() => Promise<void>>;
  private timer?: NodeJS.Timeout;
  private deps: Deps;
  constructor(deps: Deps) {
    this.deps = deps;
  }

  add(s: Stream) {
    this.streams.add(s);
    this.stopListening ??= listen(this.deps.database, 'money_events', () => this.wakeAll());
    this.timer ??= setInterval(() => this.wakeAll(), FALLBACK_MS).unref();
  }
  remove(s: Stream) {
    this.streams.delete(s);
  }
  private wakeAll() {
    for (const s of this.streams) s.wake();
  }
  async close() {
    clearInterval(this.timer);
    for (const s of [...this.streams]) s.end();
    if (this.stopListening) await (await this.stopListening)();
  }
}

const frame = (e: MoneyEvent) => {
  const data: LiveEvent = { kind: e.kind, id: e.objectId, status: e.to, amount: e.amount, at: e.at.toISOString() };
  return `id: ${e.id}\nevent: ${e.kind}\ndata: ${JSON.stringify(data)}\n\n`;
};

const hears = (auth: AuthContext, kind: LiveKind) => LISTS[kind].some((access) => allows(auth, access));

/** GET /api/events: the caller's live events (docs/decisions/036-live-events.md). */
export function liveRoutes(app: FastifyInstance, deps: Deps) {
  const hub = new Hub(deps);
  // before the server waits for open connections to end: an open stream would hold it for ever
  app.addHook('preClose', async () => hub.close());

  route(app, liveOps.events, async ({ auth, req, reply }) => {
    const asked = String(req.headers['last-event-id'] ?? '');
    let cursor = /^\d{1,15}$/.test(asked) ? Number(asked) : await lastEventId(deps.db);
    const reader = { scope: auth.scope, ownerId: auth.user.id };
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': req.id,
    });
    raw.write('retry: 3000\n: connected\n\n');

    let reading = false;
    let again = false;
    let ended = false;
    const read = async () => {
      if (reading) return void (again = true);
      reading = true;
      try {
        do {
          again = false;
          for (;;) {
            const page = await eventsAfter(deps.db, cursor, reader, PAGE);
            if (!page.length || ended) break;
            const out = page.filter((e) => hears(auth, e.kind)).map(frame);
            if (out.length) raw.write(out.join(''));
            cursor = page[page.length - 1].id;
            if (page.length < PAGE) break;
          }
        } while (again && !ended);
      } catch (err) {
        req.log.warn({ err }, 'live events read failed; the next wake reads again');
      } finally {
        reading = false;
      }
    };
    const stream: Stream = {
      wake: () => void read(),
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        hub.remove(stream);
        raw.end();
      },
    };
    const beat = setInterval(() => {
      sessionHolds(deps.db, auth.sessionId).then(
        (holds) => (holds ? raw.write(': ping\n\n') : stream.end()),
        () => undefined,
      );
    }, HEARTBEAT_MS);
    beat.unref();
    raw.on('close', () => stream.end());
    hub.add(stream);
    // what happened since Last-Event-ID (or nothing: the cursor is now)
    await read();
    return reply;
  });
}
