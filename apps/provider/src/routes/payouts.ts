import type { FastifyInstance } from 'fastify';
import type { Parts } from '../context.ts';
import { CONFLICT, hash, insert, priorUse } from '../items.ts';
import type { Item } from '../store.ts';
import { AMOUNT_MESSAGE, KEY_RULE, err, optionalText, positiveCents, refuse, text, type Rule } from '../validation.ts';

/** Most payouts one `POST /payouts/batch` takes. */
export const PAYOUT_BATCH_MAX = 5000;

const payoutRules = (b: Record<string, unknown>): Rule[] => [
  KEY_RULE(b),
  ['reference', optionalText(b.reference), 'reference must be text of at most 200 characters'],
  ['obol_id', text(b.obol_id, 50), 'obol_id is required'],
  ['amount', positiveCents(b.amount), AMOUNT_MESSAGE],
  ['currency', b.currency === undefined || b.currency === 'EUR', 'currency must be EUR'],
  ['beneficiary_name', text(b.beneficiary_name), 'beneficiary_name is required (at most 200 characters)'],
  ['brand', text(b.brand, 100), 'brand is required (at most 100 characters)'],
];

type Outcome =
  | { kind: 'accepted' | 'replayed'; item: Item }
  | { kind: 'invalid'; field: string; message: string }
  | { kind: 'conflict' };

export function payoutRoutes(app: FastifyInstance, { ctx, settlement }: Parts) {
  const { store } = ctx;

  /** One payout: checked, then created once per idempotency key (a replay answers the first item). */
  function createPayout(b: Record<string, unknown>): Outcome {
    const bad = payoutRules(b).find((r) => !r[1]);
    if (bad) return { kind: 'invalid', field: bad[0], message: bad[2] };
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
    if (prior === 'conflict') return { kind: 'conflict' };
    if (prior !== 'new') return { kind: 'replayed', item: prior.item };
    const item = insert(store, 'payout', key, h, {
      id: store.nextId('po'),
      reference: payload.reference,
      amount: payload.amount,
      status: 'Processing',
      settle_at: Date.now() + settlement.settleDelay(),
      data: { obol_id: payload.obol_id, brand: payload.brand, beneficiary_name: payload.beneficiary_name },
    });
    return { kind: 'accepted', item };
  }

  /** POST /payouts: a payout to an Obol wallet, accepted as Processing and settled later. */
  app.post('/payouts', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (refuse(reply, payoutRules(b))) return reply;
    const r = createPayout(b);
    if (r.kind === 'conflict') return err(reply, 409, CONFLICT);
    if (r.kind === 'invalid') return refuse(reply, [[r.field, false, r.message]]);
    if (r.kind === 'accepted') settlement.watchSettlement(r.item);
    return reply.status(202).send(r.item.response);
  });

  /**
   * POST /payouts/batch: up to PAYOUT_BATCH_MAX payouts in one call, each under its own idempotency key and
   * each answered on its own, in the order sent: `accepted` (new), `replayed` (the key was used for the same
   * payout: the first answer), `rejected` (a field refused, with the message single creation would give, or the
   * key used for a different payout). The accepted ones are written in one journal line, so a crash keeps all
   * or none of them; a retry of the whole call replays what was kept. A key twice in one call is refused whole.
   */
  app.post('/payouts/batch', async (req, reply) => {
    const items = ((req.body ?? {}) as Record<string, unknown>).items;
    const list = Array.isArray(items) ? (items as unknown[]) : null;
    const keys = list?.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>).idempotency_key : null));
    if (
      refuse(reply, [
        [
          'items',
          !!list &&
            list.length > 0 &&
            list.length <= PAYOUT_BATCH_MAX &&
            list.every((i) => !!i && typeof i === 'object'),
          `items must be a list of 1 to ${PAYOUT_BATCH_MAX} payouts`,
        ],
        ['items', new Set(keys).size === keys?.length, 'each idempotency_key may appear once in a batch'],
      ])
    )
      return reply;
    const outcomes = store.atomic(() => list!.map((b) => createPayout(b as Record<string, unknown>)));
    for (const o of outcomes) if (o.kind === 'accepted') settlement.watchSettlement(o.item);
    return reply.status(200).send({
      results: outcomes.map((o, i) => {
        const idempotency_key = String(keys![i] ?? '');
        if (o.kind === 'accepted' || o.kind === 'replayed')
          return { idempotency_key, outcome: o.kind, payout: o.item.response };
        if (o.kind === 'conflict') return { idempotency_key, outcome: 'rejected', status: 409, error: [CONFLICT] };
        if (o.kind !== 'invalid') throw new Error('unreachable');
        return {
          idempotency_key,
          outcome: 'rejected',
          status: 400,
          error: [o.message],
          fields: { [o.field]: [o.message] },
        };
      }),
    });
  });
}
