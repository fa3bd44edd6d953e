import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Parts } from '../context.ts';
import { CONFLICT, hash, insert, priorUse } from '../items.ts';
import { payPage, resultPage, stateText } from '../pages.ts';
import {
  AMOUNT_MESSAGE,
  KEY_RULE,
  err,
  isHttpUrl,
  isInt,
  optionalText,
  positiveCents,
  refuse,
  text,
} from '../validation.ts';

const MAX_TTL = 7 * 86_400;

/** POST /payin-links: a pay-in link, and the hosted page where the payer pays or declines it. */
export function payinRoutes(app: FastifyInstance, { ctx, deliveries, settlement }: Parts) {
  const { store } = ctx;
  app.post('/payin-links', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const ttl = b.expires_in_seconds ?? 900;
    if (
      refuse(reply, [
        KEY_RULE(b),
        ['amount', positiveCents(b.amount), AMOUNT_MESSAGE],
        ['reference', text(b.reference), 'reference is required (at most 200 characters)'],
        ['description', optionalText(b.description, 500), 'description must be text of at most 500 characters'],
        [
          'expires_in_seconds',
          isInt(ttl) && ttl >= 1 && ttl <= MAX_TTL,
          `expires_in_seconds must be a whole number from 1 to ${MAX_TTL}`,
        ],
        [
          'return_url',
          b.return_url === undefined || b.return_url === null || isHttpUrl(b.return_url),
          'return_url must be an http(s) URL',
        ],
      ])
    )
      return reply;
    const key = b.idempotency_key as string;
    const payload = {
      amount: b.amount as number,
      reference: b.reference as string,
      description: String(b.description ?? ''),
      expires_in_seconds: ttl as number,
      return_url: String(b.return_url ?? ''),
    };
    const h = hash(payload);
    const prior = priorUse(store, 'payin', key, h);
    if (prior === 'conflict') return err(reply, 409, CONFLICT);
    if (prior !== 'new') return reply.status(201).send(prior.item.response);
    const id = store.nextId('pl');
    const item = insert(store, 'payin', key, h, {
      id,
      reference: payload.reference,
      amount: payload.amount,
      status: 'Initiated',
      data: {
        url: `${ctx.publicUrl}/pay/${id}`,
        expires_at: new Date(Date.now() + payload.expires_in_seconds * 1000).toISOString(),
        description: payload.description,
        return_url: payload.return_url,
        refunded: 0,
      },
    });
    settlement.watchExpiry(item);
    return reply.status(201).send(item.response);
  });

  // ---- the hosted pay pages (no auth) ----
  const findLink = (req: FastifyRequest) => {
    const item = store.data.items[(req.params as { id: string }).id];
    return item?.kind === 'payin' ? item : undefined;
  };

  app.get('/pay/:id', async (req, reply) => {
    reply.type('text/html; charset=utf-8');
    const item = findLink(req);
    if (!item) return reply.status(404).send(resultPage('Payment link not found'));
    const state = settlement.linkState(item);
    return reply.send(state === 'Initiated' ? payPage(item) : resultPage(stateText[state] ?? state));
  });

  for (const action of ['pay', 'decline'] as const) {
    app.post(`/pay/:id/${action}`, async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      const item = findLink(req);
      if (!item) return reply.status(404).send(resultPage('Payment link not found'));
      const state = settlement.linkState(item);
      if (state !== 'Initiated')
        return reply
          .status(409)
          .send(
            resultPage(
              state === 'Expired'
                ? stateText.Expired
                : `This payment link was already used (${stateText[state] ?? state})`,
            ),
          );
      const form = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const field = (name: string, max: number) =>
        typeof form[name] === 'string' ? (form[name] as string).trim().slice(0, max) : '';
      const dob = field('date_of_birth', 10);
      store.atomic(() => {
        item.status = action === 'pay' ? 'Completed' : 'Declined';
        item.settled_at = new Date().toISOString();
        item.data = {
          ...item.data,
          first_name: field('first_name', 100),
          last_name: field('last_name', 100),
          date_of_birth: /^\d{4}-\d{2}-\d{2}$/.test(dob) ? dob : '',
        };
        store.putItem(item);
        deliveries.emit(action === 'pay' ? 'payin.completed' : 'payin.declined', item);
      });
      const ret = String(item.data.return_url ?? '');
      if (ret) return reply.redirect(`${ret}${ret.includes('?') ? '&' : '?'}status=${item.status}`, 303);
      return reply.send(resultPage(stateText[item.status]));
    });
  }
}
