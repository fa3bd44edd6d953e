import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';
import { CONFLICT, hash, insert, priorUse } from '../items.ts';
import { bicError, ibanError } from '../testdata.ts';
import { AMOUNT_MESSAGE, KEY_RULE, err, optionalText, positiveCents, refuse, text } from '../validation.ts';

/** POST /transfers: an IBAN transfer, accepted as Processing and settled later. */
export function transferRoutes(app: FastifyInstance, { ctx, settlement }: Parts) {
  const { store } = ctx;
  app.post('/transfers', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const ib = typeof b.iban === 'string' ? ibanError(b.iban) : 'iban is required';
    const bc = typeof b.bic === 'string' ? bicError(b.bic) : 'bic is required';
    if (
      refuse(reply, [
        KEY_RULE(b),
        ['iban', ib === null, ib ?? ''],
        ['bic', bc === null, bc ?? ''],
        ['amount', positiveCents(b.amount), AMOUNT_MESSAGE],
        ['beneficiary_name', text(b.beneficiary_name), 'beneficiary_name is required (at most 200 characters)'],
        ['reference', optionalText(b.reference), 'reference must be text of at most 200 characters'],
      ])
    )
      return reply;
    const key = b.idempotency_key as string;
    const payload = {
      iban: (b.iban as string).replace(/\s+/g, '').toUpperCase(),
      bic: (b.bic as string).trim().toUpperCase(),
      amount: b.amount as number,
      beneficiary_name: b.beneficiary_name as string,
      reference: String(b.reference ?? ''),
    };
    const h = hash(payload);
    const prior = priorUse(store, 'transfer', key, h);
    if (prior === 'conflict') return err(reply, 409, CONFLICT);
    if (prior !== 'new') return reply.status(202).send(prior.item.response);
    const item = insert(store, 'transfer', key, h, {
      id: store.nextId('tr'),
      reference: payload.reference,
      amount: payload.amount,
      status: 'Processing',
      settle_at: Date.now() + settlement.settleDelay(),
      data: { iban: payload.iban, bic: payload.bic, beneficiary_name: payload.beneficiary_name },
    });
    settlement.watchSettlement(item);
    return reply.status(202).send(item.response);
  });
}
