import { demoShopOps, type DemoShopEventRow } from '@obol/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { heldToSchema, route } from '../../platform/http.ts';
import { demoShopEvents } from './tables.ts';

/** The demo shop's inbox keeps a day of events, and shows its newest 50. */
export const DEMO_SHOP_KEEP_HOURS = 24;
const SHOWN = 50;

/**
 * Keeps an event that arrived at a demo shop's address, if Obol itself delivered that body there: a delivery with
 * that event id and those exact bytes, to an endpoint whose URL ends with this address. One statement, so a resend
 * (the same event id) counts a second time instead of making a second row. False when it was not Obol's.
 */
export async function receiveDemoShopEvent(
  deps: Deps,
  inbox: string,
  eventId: string,
  signature: string,
  raw: string,
): Promise<boolean> {
  const n = /^evt_(\d{1,15})$/.exec(eventId)?.[1];
  if (!n) return false;
  const address = `/api/demo-shop/${inbox}/webhook`;
  const rows = rowsOf<{ ok: number }>(
    await deps.db.execute(sql`
      INSERT INTO ${demoShopEvents} (inbox, event_id, event, body, signature)
      SELECT ${inbox}, ${eventId}, d.event, ${raw}, ${signature}
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.event_id = ${Number(n)} AND d.payload = ${raw} AND right(e.url, ${address.length}) = ${address}
      LIMIT 1
      ON CONFLICT (inbox, event_id) DO UPDATE
        SET times = demo_shop_events.times + 1, signature = excluded.signature, received_at = now()
      RETURNING 1 AS ok`),
  );
  return rows.length > 0;
}

export async function listDemoShopEvents(deps: Deps, inbox: string): Promise<DemoShopEventRow[]> {
  const rows = rowsOf<{
    event_id: string;
    event: DemoShopEventRow['event'];
    body: string;
    signature: string;
    times: number;
    received_at: Date | string;
  }>(
    await deps.db.execute(sql`
      SELECT event_id, event, body, signature, times, received_at FROM ${demoShopEvents}
      WHERE inbox = ${inbox} AND received_at > now() - make_interval(hours => ${DEMO_SHOP_KEEP_HOURS})
      ORDER BY received_at DESC, event_id DESC LIMIT ${SHOWN}`),
  );
  return rows.map((r) => ({ ...r, received_at: new Date(r.received_at).toISOString() }));
}

/** The hourly housekeeping drops what the inbox no longer shows. */
export async function tidyDemoShop(deps: Deps): Promise<number> {
  const rows = rowsOf<{ ok: number }>(
    await deps.db.execute(sql`
      DELETE FROM ${demoShopEvents}
      WHERE received_at < now() - make_interval(hours => ${DEMO_SHOP_KEEP_HOURS}) RETURNING 1 AS ok`),
  );
  return rows.length;
}

/**
 * The demo storefront's receiver, a stand-in for a merchant's own server: its address is one the shop's page shows,
 * for the merchant to add on API Keys; the page reads back what arrived and checks each signature itself. The body
 * is kept as its bytes came, so the receiver takes it as text (its own content-type parser, in its own scope).
 */
export function demoShopRoutes(app: FastifyInstance, deps: Deps) {
  const op = demoShopOps.demoShopWebhook;
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.route({
      method: op.method,
      url: op.path,
      config: { access: op.access, operation: op },
      handler: async (req) => {
        const params = op.params.safeParse(req.params);
        if (!params.success) throw notFound();
        const raw = typeof req.body === 'string' ? req.body : '';
        const id = req.headers['obol-event-id'];
        const sig = req.headers['obol-signature'];
        if (typeof id !== 'string' || typeof sig !== 'string')
          throw new ApiError(400, ['Obol-Event-Id and Obol-Signature are required']);
        if (!(await receiveDemoShopEvent(deps, params.data.inbox, id, sig, raw)))
          throw notFound('Not an event Obol sent to this address');
        return heldToSchema(op, { message: ['Received'] }, app.answerMode ?? 'strict', req);
      },
    });
  });

  route(app, demoShopOps.demoShopEvents, async ({ params, reply }) => {
    reply.header('cache-control', 'no-store');
    return { data: await listDemoShopEvents(deps, params.inbox) };
  });
}
