import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';
import { CONFLICT, hash, insert, priorUse } from '../items.ts';
import { AMOUNT_MESSAGE, KEY_RULE, err, optionalText, positiveCents, refuse, text } from '../validation.ts';

/** POST /payouts: a payout to an Obol wallet, accepted as Processing and settled later. */
export function payoutRoutes(app: FastifyInstance, { ctx, settlement }: Parts) {
  const { store } = ctx;
  app.post('/payouts', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (
      refuse(reply, [
        KEY_RULE(b),
        ['reference', optionalText(b.reference), 'reference must be text of at most 200 characters'],
        ['obol_id', text(b.obol_id, 50), 'obol_id is required'],
        ['amount', positiveCents(b.amount), AMOUNT_MESSAGE],
        ['currency', b.currency === undefined || b.currency === 'EUR', 'currency must be EUR'],
        ['beneficiary_name', text(b.beneficiary_name), 'beneficiary_name is required (at most 200 characters)'],
        ['brand', text(b.brand, 100), 'brand is required (at most 100 characters)'],
      ])
    )
      return reply;
    const key = b.idempotency_key as string;
    const payload = {
      reference: String(b.reference ?? ''),
      obol_id: String(b.obol_id).trim(),
      amount: b.amount as number,
      currency: 'EUR',
      beneficiary_name: b.beneficiary_name as string,
      brand: b.brand as string,
    };
    const h = hash(payload);
    const prior = priorUse(store, 'payout', key, h);
    if (prior === 'conflict') return err(reply, 409, CONFLICT);
    if (prior !== 'new') return reply.status(202).send(prior.item.response);
    const item = insert(store, 'payout', key, h, {
      id: store.nextId('po'),
      reference: payload.reference,
      amount: payload.amount,
      status: 'Processing',
      settle_at: Date.now() + settlement.settleDelay(),
      data: { obol_id: payload.obol_id, brand: payload.brand, beneficiary_name: payload.beneficiary_name },
    });
    settlement.watchSettlement(item);
    return reply.status(202).send(item.response);
  });
}
