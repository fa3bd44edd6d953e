import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createContext, type Parts } from './context.ts';
import { createDeliveries } from './deliveries.ts';
import { companyRoutes } from './routes/companies.ts';
import { controlRoutes } from './routes/control.ts';
import { lookupRoutes } from './routes/lookup.ts';
import { payinRoutes } from './routes/payins.ts';
import { payoutRoutes } from './routes/payouts.ts';
import { refundRoutes } from './routes/refunds.ts';
import { statementRoutes } from './routes/statement.ts';
import { transferRoutes } from './routes/transfers.ts';
import { walletRoutes } from './routes/wallets.ts';
import { createSettlement } from './settlement.ts';
import { Store } from './store.ts';
import { err } from './validation.ts';

export interface ProviderOptions {
  /** bearer key of every API call (default 'dev-provider-key') */
  apiKey?: string;
  /**
   * where webhooks are posted (default http://127.0.0.1:3000/api/provider/webhook); a function is asked at each
   * post, for a receiver that starts after the simulator (the tests' app)
   */
  webhookUrl?: string | (() => string);
  /** HMAC key of the webhook signature (default 'dev-webhook-secret') */
  webhookSecret?: string;
  /** delay from acceptance to settlement (default 1500 ms) */
  settleMs?: number;
  /** folder of the store (snapshot + journal); unset keeps everything in memory */
  dataDir?: string;
  /** fsync every journal write (survives a power loss, not only a process kill); default off */
  fsync?: boolean;
  /**
   * journal size (bytes) from which it is folded into a new snapshot (default 4 MiB, or the snapshot's size if
   * bigger)
   */
  compactBytes?: number;
  /** base of the hosted pay-page links (default: the address it listens on) */
  publicUrl?: string;
  logger?: boolean;
  /** how long one webhook POST may take before it counts as failed (default 5000 ms) */
  webhookTimeoutMs?: number;
  /** most events one webhook POST carries (default 1: one event per POST, its body the event; see deliveries.ts) */
  webhookBatchSize?: number;
  /** most webhook POSTs in flight at once (default 1: one after another; see deliveries.ts) */
  webhookConcurrency?: number;
}

export { defaultControls, type Controls } from './context.ts';
export { retryDelayMs } from './deliveries.ts';
export { LOOKUP_MAX } from './routes/lookup.ts';
export { PAYOUT_BATCH_MAX } from './routes/payouts.ts';

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
    // the process delivers events in batches of up to 500 unless told otherwise (1: one event per POST)
    webhookBatchSize: num(env.PROVIDER_WEBHOOK_BATCH) ?? 500,
    // and up to 4 POSTs at once (1: one after another, every event in order)
    webhookConcurrency: num(env.PROVIDER_WEBHOOK_CONCURRENCY) ?? 4,
  };
}

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

  const deliveries = createDeliveries(ctx, {
    webhookUrl,
    secret,
    webhookTimeoutMs,
    batchSize: Math.max(1, Math.floor(opts.webhookBatchSize ?? 1)),
    concurrency: Math.max(1, Math.floor(opts.webhookConcurrency ?? 1)),
  });
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
  const parts: Parts = { ctx, deliveries, settlement };
  walletRoutes(app);
  payoutRoutes(app, parts);
  transferRoutes(app, parts);
  payinRoutes(app, parts);
  refundRoutes(app, parts);
  lookupRoutes(app, parts);
  statementRoutes(app, parts);
  companyRoutes(app);
  controlRoutes(app, parts);

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
