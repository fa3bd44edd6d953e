import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';
import { CONFLICT, hash, insert, priorUse } from '../items.ts';
import { AMOUNT_MESSAGE, KEY_RULE, err, positiveCents, refuse, text } from '../validation.ts';

/** POST /refunds: a refund of (part of) a completed pay-in, accepted as Processing and settled later. */
export function refundRoutes(app: FastifyInstance, { ctx, settlement }: Parts) {
  const { store } = ctx;
  app.post('/refunds', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (
      refuse(reply, [
        KEY_RULE(b),
        ['payin_id', text(b.payin_id, 100), 'payin_id is required'],
        ['amount', positiveCents(b.amount), AMOUNT_MESSAGE],
      ])
    )
      return reply;
    const key = b.idempotency_key as string;
    const payload = { payin_id: b.payin_id as string, amount: b.amount as number };
    const h = hash(payload);
    const prior = priorUse(store, 'refund', key, h);
    if (prior === 'conflict') return err(reply, 409, CONFLICT);
    if (prior !== 'new') return reply.status(202).send(prior.item.response);
    const payin = store.data.items[payload.payin_id];
    if (!payin || payin.kind !== 'payin') return err(reply, 404, 'Pay-in not found');
    if (settlement.linkState(payin) !== 'Completed') return err(reply, 422, 'Only a completed pay-in can be refunded');
    const refunded = Number(payin.data.refunded ?? 0);
    if (refunded + payload.amount > payin.amount)
      return err(reply, 422, `The refund exceeds the pay-in amount (${payin.amount - refunded} cents left to refund)`);
    // the pay-in's refunded amount and the refund in one journal line
    const item = store.atomic(() => {
      payin.data.refunded = refunded + payload.amount;
      store.putItem(payin);
      return insert(store, 'refund', key, h, {
        id: store.nextId('rf'),
        reference: payin.reference,
        amount: payload.amount,
        status: 'Processing',
        settle_at: Date.now() + settlement.settleDelay(),
        data: { payin_id: payin.id },
      });
    });
    settlement.watchSettlement(item);
    return reply.status(202).send(item.response);
  });
}
