import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';

/** GET /statement: every settled item, by settled_at, optionally from/to. */
export function statementRoutes(app: FastifyInstance, { ctx }: Parts) {
  const { store } = ctx;
  app.get('/statement', async (req, reply) => {
    const q = req.query as { from?: string; to?: string };
    const from = q.from ? Date.parse(q.from) : -Infinity;
    const to = q.to ? Date.parse(q.to) : Infinity;
    if (Number.isNaN(from))
      return reply
        .status(400)
        .send({ error: ['from must be an ISO date'], fields: { from: ['from must be an ISO date'] } });
    if (Number.isNaN(to))
      return reply.status(400).send({ error: ['to must be an ISO date'], fields: { to: ['to must be an ISO date'] } });
    const items = Object.values(store.data.items)
      .filter((i) => i.settled_at && Date.parse(i.settled_at) >= from && Date.parse(i.settled_at) <= to)
      .sort((a, b) => a.settled_at!.localeCompare(b.settled_at!) || a.id.localeCompare(b.id))
      .map((i) => ({
        id: i.id,
        type: i.kind,
        reference: i.reference,
        idempotency_key: i.idempotency_key,
        amount: i.amount,
        status: i.status,
        ...(i.message ? { message: i.message } : {}),
        settled_at: i.settled_at!,
      }));
    return { items };
  });
}
