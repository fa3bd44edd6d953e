import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';
import { view } from '../items.ts';
import type { Kind } from '../store.ts';
import { err, refuse, text } from '../validation.ts';

/** most idempotency keys one `POST /<kind>/lookup` takes */
export const LOOKUP_MAX = 1000;

/** Reading items back: one by id, one by idempotency key, many by idempotency keys. */
export function lookupRoutes(app: FastifyInstance, { ctx, settlement }: Parts) {
  const { store } = ctx;
  // the current state of one item
  for (const [route, kind] of [
    ['/payouts/:id', 'payout'],
    ['/transfers/:id', 'transfer'],
    ['/payin-links/:id', 'payin'],
    ['/refunds/:id', 'refund'],
  ] as const) {
    app.get(route, async (req, reply) => {
      const item = store.data.items[(req.params as { id: string }).id];
      if (!item || item.kind !== kind) return err(reply, 404, `No ${kind} with this id`);
      if (kind === 'payin') settlement.linkState(item);
      return view(item);
    });
  }

  // look-up by idempotency key: what became of a create request whose answer was lost
  const byKey = (kind: Kind, key: string) => {
    const id = store.data.keys[`${kind}:${key}`];
    return id ? store.data.items[id] : undefined;
  };
  for (const [route, kind] of [
    ['/payouts', 'payout'],
    ['/transfers', 'transfer'],
    ['/refunds', 'refund'],
  ] as const) {
    app.get(route, async (req, reply) => {
      const key = (req.query as Record<string, unknown>).idempotency_key;
      if (refuse(reply, [['idempotency_key', text(key, 100), 'idempotency_key is required (at most 100 characters)']]))
        return reply;
      const item = byKey(kind, key as string);
      return item ? view(item) : err(reply, 404, `No ${kind} with this idempotency_key`);
    });
    app.post(`${route}/lookup`, async (req, reply) => {
      const keys = ((req.body ?? {}) as Record<string, unknown>).idempotency_keys;
      if (
        refuse(reply, [
          [
            'idempotency_keys',
            Array.isArray(keys) && keys.length <= LOOKUP_MAX && keys.every((k) => text(k, 100)),
            `idempotency_keys must be a list of at most ${LOOKUP_MAX} idempotency keys (1 to 100 characters each)`,
          ],
        ])
      )
        return reply;
      const items = [...new Set(keys as string[])].map((k) => byKey(kind, k)).filter((i) => i !== undefined);
      return { items: items.map(view) };
    });
  }
}
