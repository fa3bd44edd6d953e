import { createHash, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { signWebhook } from './signature.ts';
import { Store, type Item, type Kind } from './store.ts';
import { bicError, closedAccount, findWallet, ibanError, payoutOutcome } from './testdata.ts';

export interface ProviderOptions {
  apiKey?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  settleMs?: number;
  /** folder of the JSON store; unset keeps everything in memory */
  dataDir?: string;
  publicUrl?: string;
  logger?: boolean;
}

export interface Controls {
  latency_ms: number;
  fail_next: number;
  timeout_next: number;
  drop_after_accept_next: number;
  duplicate_webhooks: boolean;
  out_of_order_webhooks: boolean;
  settle_ms: number | null;
  paused_settlement: boolean;
}
const defaultControls = (): Controls => ({
  latency_ms: 0,
  fail_next: 0,
  timeout_next: 0,
  drop_after_accept_next: 0,
  duplicate_webhooks: false,
  out_of_order_webhooks: false,
  settle_ms: null,
  paused_settlement: false,
});

const hash = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
const err = (reply: FastifyReply, status: number, ...messages: string[]) =>
  reply.status(status).send({ error: messages });
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const str = (v: unknown, max = 200) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function buildProvider(opts: ProviderOptions = {}) {
  const apiKey = opts.apiKey ?? 'dev-provider-key';
  const secret = opts.webhookSecret ?? 'dev-webhook-secret';
  const webhookUrl = opts.webhookUrl ?? 'http://127.0.0.1:3000/api/provider/webhook';
  const baseSettleMs = opts.settleMs ?? 1500;
  const store = new Store(opts.dataDir);
  let controls = defaultControls();
  let publicUrl = opts.publicUrl ?? '';
  const app: FastifyInstance = Fastify({ logger: opts.logger ? { level: 'info' } : false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // ---- settlement and webhooks ----
  const timers = new Set<NodeJS.Timeout>();
  const settleMs = () => controls.settle_ms ?? baseSettleMs;
  let held: { type: string; item: Item }[] = [];
  let heldTimer: NodeJS.Timeout | undefined;

  function enqueueEvent(type: string, item: Item) {
    const body = JSON.stringify({
      event_id: randomUUID(),
      type,
      created_at: new Date().toISOString(),
      data: {
        id: item.id,
        reference: item.reference,
        idempotency_key: item.idempotency_key,
        status: item.status,
        message: item.message,
        amount: item.amount,
        ...item.data,
      },
    });
    const copies = controls.duplicate_webhooks ? 2 : 1;
    for (let i = 0; i < copies; i++)
      store.data.deliveries.push({ id: randomUUID(), body, attempts: 0, next_at: Date.now() });
    store.changed();
  }

  function emit(type: string, item: Item) {
    if (!controls.out_of_order_webhooks) return enqueueEvent(type, item);
    held.push({ type, item });
    const release = () => {
      const group = held.reverse();
      held = [];
      if (heldTimer) clearTimeout(heldTimer);
      heldTimer = undefined;
      for (const g of group) enqueueEvent(g.type, g.item);
    };
    if (held.length >= 3) release();
    else heldTimer ??= setTimeout(release, 500);
  }

  function settle(item: Item, force = false) {
    if (item.status !== 'Processing') return;
    if (controls.paused_settlement && !force) return schedule(item, 200);
    let status = 'Completed';
    let message: string | undefined;
    if (item.kind === 'payout')
      ({ status, message } = payoutOutcome({
        obol_id: String(item.data.obol_id),
        brand: String(item.data.brand),
        amount: item.amount,
      }));
    if (item.kind === 'transfer' && closedAccount(String(item.data.iban))) {
      status = 'Failed';
      message = 'Account closed';
    }
    item.status = status;
    item.message = message;
    item.settled_at = new Date().toISOString();
    delete item.settle_at;
    store.changed();
    emit(`${item.kind}.${status === 'Completed' ? 'completed' : 'failed'}`, item);
  }

  function schedule(item: Item, delay = settleMs()) {
    item.settle_at = Date.now() + delay;
    const t = setTimeout(() => {
      timers.delete(t);
      settle(item);
    }, delay);
    timers.add(t);
  }

  function expireLink(item: Item) {
    if (item.status !== 'Initiated') return;
    item.status = 'Expired';
    item.settled_at = new Date().toISOString();
    store.changed();
    emit('payin.expired', item);
  }

  let delivering = false;
  const deliveryLoop = setInterval(async () => {
    if (delivering) return;
    delivering = true;
    try {
      const now = Date.now();
      const due = store.data.deliveries.filter((d) => d.next_at <= now).slice(0, 20);
      await Promise.all(
        due.map(async (d) => {
          let ok = false;
          try {
            const res = await fetch(webhookUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(secret, d.body) },
              body: d.body,
              signal: AbortSignal.timeout(5_000),
            });
            ok = res.status >= 200 && res.status < 300;
          } catch {
            ok = false;
          }
          if (ok) store.data.deliveries = store.data.deliveries.filter((x) => x.id !== d.id);
          else {
            d.attempts += 1;
            d.next_at = Date.now() + Math.min(30_000, 500 * 2 ** Math.min(d.attempts - 1, 6));
          }
        }),
      );
      if (due.length) store.changed();
    } finally {
      delivering = false;
    }
  }, 100);

  // resume what was pending before a restart
  for (const item of Object.values(store.data.items)) {
    if (item.status === 'Processing') schedule(item, Math.max(0, (item.settle_at ?? Date.now()) - Date.now()));
    if (item.kind === 'payin' && item.status === 'Initiated') {
      const left = Date.parse(String(item.data.expires_at)) - Date.now();
      const t = setTimeout(() => expireLink(item), Math.max(0, left));
      timers.add(t);
    }
  }

  // ---- auth and fault switches for the API ----
  const open = (url: string) =>
    url === '/health' || url.startsWith('/pay/') || url.startsWith('/wallets/') || url.startsWith('/_control');
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (open(req.url)) return;
    if (req.headers.authorization !== `Bearer ${apiKey}`) return err(reply, 401, 'Invalid API key');
    if (controls.latency_ms) await new Promise((r) => setTimeout(r, controls.latency_ms));
    if (controls.timeout_next > 0) {
      controls.timeout_next -= 1;
      await new Promise((r) => setTimeout(r, 30_000));
      reply.raw.destroy();
      return reply;
    }
    if (controls.fail_next > 0) {
      controls.fail_next -= 1;
      return err(reply, 500, 'Injected failure');
    }
  });
  /** answers 500 after doing the work, when drop_after_accept_next says so */
  const accepted = (reply: FastifyReply, status: number, body: unknown) => {
    if (controls.drop_after_accept_next > 0) {
      controls.drop_after_accept_next -= 1;
      return err(reply, 500, 'Injected failure after accepting');
    }
    return reply.status(status).send(body);
  };

  /** idempotent create: same key and payload answers the first item; another payload under the key is a 409 */
  function create(
    kind: Kind,
    key: string,
    payload: object,
    make: () => Item,
  ): { item: Item; replay: boolean } | { conflict: true } {
    const k = `${kind}:${key}`;
    const h = hash(payload);
    const prior = store.data.keys[k];
    if (prior) {
      const item = store.data.items[prior];
      return item.request_hash === h ? { item, replay: true } : { conflict: true };
    }
    const item = make();
    item.request_hash = h;
    store.data.items[item.id] = item;
    store.data.keys[k] = item.id;
    store.changed();
    return { item, replay: false };
  }
  const view = (i: Item) => ({
    id: i.id,
    status: i.status,
    idempotency_key: i.idempotency_key,
    reference: i.reference,
    amount: i.amount,
    message: i.message,
    ...i.data,
  });

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/wallets/:id', async (req, reply) => {
    const w = findWallet((req.params as { id: string }).id);
    return w ? w : err(reply, 404, 'Invalid Obol Id');
  });

  app.post('/payouts', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!str(b.idempotency_key)) return err(reply, 400, 'idempotency_key is required');
    if (!str(b.obol_id, 50)) return err(reply, 400, 'obol_id is required');
    if (!isInt(b.amount) || b.amount <= 0) return err(reply, 400, 'amount must be whole cents above 0');
    if (b.currency !== undefined && b.currency !== 'EUR') return err(reply, 400, 'currency must be EUR');
    if (!str(b.beneficiary_name)) return err(reply, 400, 'beneficiary_name is required');
    if (!str(b.brand)) return err(reply, 400, 'brand is required');
    const payload = {
      obol_id: b.obol_id,
      amount: b.amount,
      beneficiary_name: b.beneficiary_name,
      brand: b.brand,
      reference: b.reference ?? '',
    };
    const r = create('payout', b.idempotency_key as string, payload, () => ({
      id: store.nextId('po'),
      kind: 'payout',
      idempotency_key: b.idempotency_key as string,
      request_hash: '',
      reference: String(b.reference ?? ''),
      amount: b.amount as number,
      status: 'Processing',
      created_at: new Date().toISOString(),
      data: { obol_id: b.obol_id, brand: b.brand, beneficiary_name: b.beneficiary_name },
    }));
    if ('conflict' in r) return err(reply, 409, 'idempotency_key was used for a different payout');
    if (!r.replay) schedule(r.item);
    return accepted(reply, 202, view(r.item));
  });

  app.post('/transfers', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!str(b.idempotency_key)) return err(reply, 400, 'idempotency_key is required');
    if (typeof b.iban !== 'string') return err(reply, 400, 'iban is required');
    const ib = ibanError(b.iban);
    if (ib) return reply.status(400).send({ error: [ib], fields: { iban: [ib] } });
    const bc = typeof b.bic === 'string' ? bicError(b.bic) : 'bic is required';
    if (bc) return reply.status(400).send({ error: [bc], fields: { bic: [bc] } });
    if (!isInt(b.amount) || b.amount <= 0) return err(reply, 400, 'amount must be whole cents above 0');
    if (!str(b.beneficiary_name)) return err(reply, 400, 'beneficiary_name is required');
    const payload = {
      iban: b.iban,
      bic: b.bic,
      amount: b.amount,
      beneficiary_name: b.beneficiary_name,
      reference: b.reference ?? '',
    };
    const r = create('transfer', b.idempotency_key as string, payload, () => ({
      id: store.nextId('tr'),
      kind: 'transfer',
      idempotency_key: b.idempotency_key as string,
      request_hash: '',
      reference: String(b.reference ?? ''),
      amount: b.amount as number,
      status: 'Processing',
      created_at: new Date().toISOString(),
      data: {
        iban: String(b.iban).replace(/\s+/g, '').toUpperCase(),
        bic: String(b.bic).toUpperCase(),
        beneficiary_name: b.beneficiary_name,
      },
    }));
    if ('conflict' in r) return err(reply, 409, 'idempotency_key was used for a different transfer');
    if (!r.replay) schedule(r.item);
    return accepted(reply, 202, view(r.item));
  });

  app.post('/payin-links', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!str(b.idempotency_key)) return err(reply, 400, 'idempotency_key is required');
    if (!isInt(b.amount) || b.amount <= 0) return err(reply, 400, 'amount must be whole cents above 0');
    if (!str(b.reference)) return err(reply, 400, 'reference is required');
    const ttl = b.expires_in_seconds === undefined ? 900 : Number(b.expires_in_seconds);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > 7 * 86_400)
      return err(reply, 400, 'expires_in_seconds must be 1 to 604800');
    const payload = {
      amount: b.amount,
      reference: b.reference,
      description: b.description ?? '',
      ttl,
      return_url: b.return_url ?? '',
    };
    const r = create('payin', b.idempotency_key as string, payload, () => {
      const id = store.nextId('pl');
      return {
        id,
        kind: 'payin',
        idempotency_key: b.idempotency_key as string,
        request_hash: '',
        reference: String(b.reference),
        amount: b.amount as number,
        status: 'Initiated',
        created_at: new Date().toISOString(),
        data: {
          url: `${publicUrl}/pay/${id}`,
          expires_at: new Date(Date.now() + ttl * 1000).toISOString(),
          description: b.description ?? '',
          return_url: b.return_url ?? '',
          refunded: 0,
        },
      };
    });
    if ('conflict' in r) return err(reply, 409, 'idempotency_key was used for a different pay-in link');
    if (!r.replay) {
      const t = setTimeout(() => expireLink(r.item), ttl * 1000);
      timers.add(t);
    }
    return accepted(reply, 201, view(r.item));
  });

  app.get('/payin-links/:id', async (req, reply) => {
    const item = store.data.items[(req.params as { id: string }).id];
    return item?.kind === 'payin' ? view(item) : err(reply, 404, 'Unknown pay-in link');
  });

  const page = (title: string, body: string) =>
    `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width,initial-scale=1"><style>body{font-family:system-ui,sans-serif;max-width:420px;margin:3rem auto;padding:0 1rem}button{padding:.6rem 1.2rem;margin-right:.5rem;font-size:1rem}label{display:block;margin:.4rem 0}</style></head><body>${body}</body></html>`;
  const linkState = (item: Item) => {
    if (item.status === 'Initiated' && Date.parse(String(item.data.expires_at)) <= Date.now()) expireLink(item);
    return item.status;
  };

  app.get('/pay/:id', async (req, reply) => {
    const item = store.data.items[(req.params as { id: string }).id];
    reply.type('text/html');
    if (!item || item.kind !== 'payin')
      return reply.status(404).send(page('Not found', '<h1>Payment link not found</h1>'));
    const state = linkState(item);
    if (state !== 'Initiated') {
      const text =
        state === 'Expired'
          ? 'This payment link has expired'
          : state === 'Completed'
            ? 'Payment completed'
            : 'Payment declined';
      return reply.send(page(text, `<h1>${text}</h1>`));
    }
    return reply.send(
      page(
        'Pay',
        `<h1>Pay €${(item.amount / 100).toFixed(2)}</h1><p>Reference: ${escapeHtml(item.reference)}</p>${item.data.description ? `<p>${escapeHtml(String(item.data.description))}</p>` : ''}
        <form method="post" action="/pay/${item.id}/pay"><label>First name <input name="first_name"></label><label>Last name <input name="last_name"></label><label>Date of birth <input name="date_of_birth" type="date"></label><button type="submit">Pay</button></form>
        <form method="post" action="/pay/${item.id}/decline"><button type="submit">Decline</button></form>`,
      ),
    );
  });

  for (const action of ['pay', 'decline'] as const) {
    app.post(`/pay/:id/${action}`, async (req, reply) => {
      const item = store.data.items[(req.params as { id: string }).id];
      if (!item || item.kind !== 'payin')
        return reply.status(404).type('text/html').send(page('Not found', '<h1>Payment link not found</h1>'));
      const state = linkState(item);
      if (state !== 'Initiated') {
        const text = state === 'Expired' ? 'This payment link has expired' : 'This payment link was already used';
        return reply
          .status(409)
          .type('text/html')
          .send(page(text, `<h1>${text}</h1>`));
      }
      const form = (req.body ?? {}) as Record<string, string>;
      item.status = action === 'pay' ? 'Completed' : 'Declined';
      item.settled_at = new Date().toISOString();
      item.data = {
        ...item.data,
        first_name: form.first_name ?? '',
        last_name: form.last_name ?? '',
        date_of_birth: form.date_of_birth ?? '',
      };
      store.changed();
      emit(action === 'pay' ? 'payin.completed' : 'payin.declined', item);
      const text = action === 'pay' ? 'Payment completed' : 'Payment declined';
      const ret = String(item.data.return_url ?? '');
      if (ret) return reply.redirect(`${ret}${ret.includes('?') ? '&' : '?'}status=${item.status}`, 303);
      return reply.type('text/html').send(page(text, `<h1>${text}</h1>`));
    });
  }

  app.post('/refunds', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (!str(b.idempotency_key)) return err(reply, 400, 'idempotency_key is required');
    if (!isInt(b.amount) || b.amount <= 0) return err(reply, 400, 'amount must be whole cents above 0');
    const payin = store.data.items[String(b.payin_id)];
    if (!payin || payin.kind !== 'payin') return err(reply, 404, 'Unknown pay-in');
    const prior = store.data.keys[`refund:${b.idempotency_key}`];
    if (!prior) {
      if (payin.status !== 'Completed') return err(reply, 422, 'Only a completed pay-in can be refunded');
      if (Number(payin.data.refunded ?? 0) + (b.amount as number) > payin.amount)
        return err(reply, 422, 'The refund exceeds the pay-in amount');
    }
    const r = create('refund', b.idempotency_key as string, { payin_id: b.payin_id, amount: b.amount }, () => ({
      id: store.nextId('rf'),
      kind: 'refund',
      idempotency_key: b.idempotency_key as string,
      request_hash: '',
      reference: payin.reference,
      amount: b.amount as number,
      status: 'Processing',
      created_at: new Date().toISOString(),
      data: { payin_id: payin.id },
    }));
    if ('conflict' in r) return err(reply, 409, 'idempotency_key was used for a different refund');
    if (!r.replay) {
      payin.data.refunded = Number(payin.data.refunded ?? 0) + r.item.amount;
      schedule(r.item);
    }
    return accepted(reply, 202, view(r.item));
  });

  app.get('/statement', async (req, reply) => {
    const q = req.query as { from?: string; to?: string };
    const from = q.from ? Date.parse(q.from) : -Infinity;
    const to = q.to ? Date.parse(q.to) : Infinity;
    if (Number.isNaN(from) || Number.isNaN(to)) return err(reply, 400, 'from and to must be ISO dates');
    const items = Object.values(store.data.items)
      .filter((i) => i.settled_at && Date.parse(i.settled_at) >= from && Date.parse(i.settled_at) <= to)
      .sort((a, b) => a.settled_at!.localeCompare(b.settled_at!))
      .map((i) => ({
        id: i.id,
        type: i.kind,
        reference: i.reference,
        idempotency_key: i.idempotency_key,
        amount: i.amount,
        status: i.status,
        message: i.message,
        settled_at: i.settled_at,
      }));
    return { items };
  });

  app.get('/_control', async () => ({ ...controls, pending_deliveries: store.data.deliveries.length }));
  app.post('/_control', async (req, reply) => {
    const b = (req.body ?? {}) as Partial<Controls>;
    for (const [k, v] of Object.entries(b)) {
      if (!(k in controls)) return err(reply, 400, `unknown switch ${k}`);
      (controls as unknown as Record<string, unknown>)[k] = v;
    }
    return controls;
  });
  app.post('/_control/reset', async () => (controls = defaultControls()));
  app.post('/_control/settle-now', async () => {
    let n = 0;
    for (const i of Object.values(store.data.items)) {
      if (i.status === 'Processing') {
        settle(i, true);
        n += 1;
      }
    }
    return { settled: n };
  });

  return {
    app,
    store,
    setPublicUrl(url: string) {
      publicUrl = url;
    },
    async listen(port: number, host = '127.0.0.1') {
      const address = await app.listen({ port, host });
      if (!publicUrl) publicUrl = address.replace('[::1]', '127.0.0.1');
      for (const i of Object.values(store.data.items))
        if (i.kind === 'payin' && !String(i.data.url).startsWith('http')) i.data.url = `${publicUrl}/pay/${i.id}`;
      return address;
    },
    async close() {
      clearInterval(deliveryLoop);
      for (const t of timers) clearTimeout(t);
      if (heldTimer) clearTimeout(heldTimer);
      store.flush();
      await app.close();
    },
  };
}
