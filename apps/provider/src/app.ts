import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createContext, defaultControls, type Controls } from './context.ts';
import { createDeliveries } from './deliveries.ts';
import { createSettlement } from './settlement.ts';
import { CONFLICT, hash, insert, priorUse, view } from './items.ts';
import { payPage, resultPage, stateText } from './pages.ts';
import { Store, type Kind } from './store.ts';
import { bicError, findWallet, ibanError } from './testdata.ts';
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
} from './validation.ts';

export interface ProviderOptions {
  /** bearer key of every API call (default 'dev-provider-key') */
  apiKey?: string;
  /** where webhooks are posted (default http://127.0.0.1:3000/api/provider/webhook) */
  webhookUrl?: string;
  /** HMAC key of the webhook signature (default 'dev-webhook-secret') */
  webhookSecret?: string;
  /** delay from acceptance to settlement (default 1500 ms) */
  settleMs?: number;
  /** folder of the store (snapshot + journal); unset keeps everything in memory */
  dataDir?: string;
  /** fsync every journal write (survives a power loss, not only a process kill); default off */
  fsync?: boolean;
  /** journal size (bytes) from which it is folded into a new snapshot (default 4 MiB, or the snapshot's size if bigger) */
  compactBytes?: number;
  /** base of the hosted pay-page links (default: the address it listens on) */
  publicUrl?: string;
  logger?: boolean;
  /** how long one webhook POST may take before it counts as failed (default 5000 ms) */
  webhookTimeoutMs?: number;
}

export { defaultControls, type Controls } from './context.ts';
export { retryDelayMs } from './deliveries.ts';

export interface Provider {
  app: FastifyInstance;
  store: Store;
  /** listens and answers its base address (`http://127.0.0.1:<port>`) */
  listen(port?: number, host?: string): Promise<string>;
  setPublicUrl(url: string): void;
  /** settles every Processing item now (as POST /_control/settle-now) and answers how many */
  settleNow(): number;
  /** stops timers and deliveries, writes the store and closes the server */
  close(): Promise<void>;
}

/** The options `src/main.ts` reads from the environment. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderOptions & { port: number; host: string } {
  const num = (v: string | undefined) => (v && Number.isFinite(Number(v)) ? Number(v) : undefined);
  return {
    port: num(env.PROVIDER_PORT) ?? 3100,
    host: env.PROVIDER_HOST || '127.0.0.1',
    apiKey: env.PROVIDER_API_KEY || undefined,
    webhookUrl: env.PROVIDER_WEBHOOK_URL || undefined,
    webhookSecret: env.PROVIDER_WEBHOOK_SECRET || undefined,
    settleMs: num(env.PROVIDER_SETTLE_MS),
    dataDir: env.PROVIDER_DATA_DIR || `${env.DATA_DIR || './data'}/provider`,
    publicUrl: env.PROVIDER_PUBLIC_URL || undefined,
    logger: env.PROVIDER_LOG === '1' || env.PROVIDER_LOG === 'true',
    fsync: env.PROVIDER_FSYNC === '1' || env.PROVIDER_FSYNC === 'true',
  };
}

const MAX_TTL = 7 * 86_400;
/** most idempotency keys one `POST /<kind>/lookup` takes */
export const LOOKUP_MAX = 1000;

export async function buildProvider(opts: ProviderOptions = {}): Promise<Provider> {
  const apiKey = opts.apiKey ?? 'dev-provider-key';
  const secret = opts.webhookSecret ?? 'dev-webhook-secret';
  const webhookUrl = opts.webhookUrl ?? 'http://127.0.0.1:3000/api/provider/webhook';
  const baseSettleMs = opts.settleMs ?? 1500;
  const webhookTimeoutMs = opts.webhookTimeoutMs ?? 5_000;
  const store = new Store(opts.dataDir, { fsync: opts.fsync, compactBytes: opts.compactBytes });
  const ctx = createContext(store, (opts.publicUrl ?? '').replace(/\/+$/, ''));
  const app: FastifyInstance = Fastify({ logger: opts.logger ? { level: 'info' } : false });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  const deliveries = createDeliveries(ctx, { webhookUrl, secret, webhookTimeoutMs });
  const settlement = createSettlement(ctx, deliveries, baseSettleMs);
  // resume what was pending before a restart
  settlement.resume();

  // ---- auth and fault switches for the API ----
  const pathOf = (req: FastifyRequest) => req.url.split('?')[0];
  /** API calls: everything but /health, the hosted pay pages and /_control */
  const isApi = (p: string) =>
    !(p === '/health' || p.startsWith('/pay/') || p === '/_control' || p.startsWith('/_control/'));
  const needsKey = (req: FastifyRequest, p: string) => !(req.method === 'GET' && p.startsWith('/wallets/'));

  app.addHook('onRequest', async (req, reply) => {
    const p = pathOf(req);
    if (!isApi(p)) return;
    if (needsKey(req, p) && req.headers.authorization !== `Bearer ${apiKey}`)
      return err(reply, 401, 'Missing or invalid API key');
    if (store.broken) return err(reply, 503, 'The provider store failed; restart the simulator');
    if (ctx.controls.latency_ms > 0) await ctx.sleep(ctx.controls.latency_ms);
    if (ctx.controls.timeout_next > 0) {
      ctx.controls.timeout_next -= 1;
      reply.hijack();
      await ctx.sleep(30_000);
      reply.raw.destroy();
      return reply;
    }
    if (ctx.controls.fail_next > 0) {
      ctx.controls.fail_next -= 1;
      return err(reply, 500, 'Injected failure');
    }
  });
  // drop_after_accept_next: the work is done, but the answer is replaced by a 500
  app.addHook('onSend', async (req, reply, payload) => {
    if (!isApi(pathOf(req)) || reply.statusCode >= 400 || ctx.controls.drop_after_accept_next <= 0) return payload;
    ctx.controls.drop_after_accept_next -= 1;
    reply.status(500).type('application/json');
    return JSON.stringify({ error: ['Injected failure after accepting'] });
  });

  app.setNotFoundHandler((req, reply) => err(reply, 404, `No route ${req.method} ${pathOf(req)}`));
  app.setErrorHandler((e: Error & { statusCode?: number }, _req, reply) => {
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    if (status === 500) app.log.error(e);
    return err(reply, status, status === 500 ? 'Internal error' : e.message);
  });

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/wallets/:obol_id', async (req, reply) => {
    const w = findWallet((req.params as { obol_id: string }).obol_id);
    return w ?? err(reply, 404, 'Invalid Obol Id');
  });

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

  // ---- fault switches ----
  const SWITCHES: Record<keyof Controls, (v: unknown) => boolean> = {
    latency_ms: (v) => isInt(v) && v >= 0 && v <= 60_000,
    fail_next: (v) => isInt(v) && v >= 0,
    timeout_next: (v) => isInt(v) && v >= 0,
    drop_after_accept_next: (v) => isInt(v) && v >= 0,
    duplicate_webhooks: (v) => typeof v === 'boolean',
    out_of_order_webhooks: (v) => typeof v === 'boolean',
    settle_ms: (v) => v === null || (isInt(v) && v >= 0),
    paused_settlement: (v) => typeof v === 'boolean',
  };
  const controlState = () => ({ ...ctx.controls, pending_deliveries: store.data.deliveries.length });
  app.get('/_control', async () => controlState());
  app.post('/_control', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) return err(reply, 400, 'body must be an object of switches');
    for (const [k, v] of Object.entries(b)) {
      const ok = SWITCHES[k as keyof Controls];
      if (!ok) return err(reply, 400, `unknown switch ${k}`);
      if (!ok(v)) return err(reply, 400, `invalid value for ${k}`);
    }
    const wasOutOfOrder = ctx.controls.out_of_order_webhooks;
    ctx.controls = { ...ctx.controls, ...(b as Partial<Controls>) };
    if (wasOutOfOrder && !ctx.controls.out_of_order_webhooks) deliveries.releaseHeld();
    return controlState();
  });
  app.post('/_control/reset', async () => {
    ctx.controls = defaultControls();
    deliveries.releaseHeld();
    return controlState();
  });
  app.post('/_control/settle-now', async () => ({ settled: settlement.settleNow() }));

  return {
    app,
    store,
    setPublicUrl(url: string) {
      ctx.publicUrl = url.replace(/\/+$/, '');
    },
    settleNow: settlement.settleNow,
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const { port: actual } = app.server.address() as { port: number };
      const base = `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}`;
      if (!ctx.publicUrl) ctx.publicUrl = base;
      // links made before the address was known
      for (const i of Object.values(store.data.items))
        if (i.kind === 'payin' && !String(i.data.url).startsWith('http')) {
          i.data.url = `${ctx.publicUrl}/pay/${i.id}`;
          store.putItem(i);
        }
      return base;
    },
    async close() {
      if (ctx.closed) return;
      deliveries.releaseHeld();
      ctx.closed = true;
      ctx.stopTimers();
      await deliveries.stop();
      await app.close(); // requests still running may record changes
      store.close();
    },
  };
}
