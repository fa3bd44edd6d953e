import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG, systemOps } from '@obol/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { authRoutes } from './features/auth/routes.ts';
import { currentBatchOf } from './features/batches/current.ts';
import { passkeyRoutes } from './features/passkeys/routes.ts';
import { authenticateKey, endSessions, tokenKey } from './features/auth/sessions.ts';
import { confirmPassword, newInvitation } from './features/auth/passwords.ts';
import { usersRoutes } from './features/users/routes.ts';
import { assertSomeoneCanEditRoles } from './features/users/guard.ts';
import { brandsRoutes } from './features/brands/routes.ts';
import { merchantsRoutes } from './features/merchants/routes.ts';
import { feesRoutes } from './features/fees/routes.ts';
import { apiKeysRoutes } from './features/api-keys/routes.ts';
import { issueApiKey } from './features/api-keys/service.ts';
import { webhooksRoutes } from './features/webhooks/routes.ts';
import { demoShopRoutes } from './features/webhooks/demo-shop.ts';
import { approvalsRoutes } from './features/approvals/routes.ts';
import { manualPayoutApproval } from './features/payments/service.ts';
import { findHolderInScope, searchHolders } from './features/merchants/holders.ts';
import { feeBpsOf, usersUnder } from './features/users/repo.ts';
import { batchApproval } from './features/batches/execute.ts';
import { transferApproval } from './features/transfers/service.ts';
import { accountingApproval } from './features/accounting/transfers.ts';
import { companyName } from './features/accounting/accounts.ts';
import { liveRoutes } from './features/live/routes.ts';
import { rolesRoutes } from './features/roles/routes.ts';
import { ledgerRoutes } from './features/ledger/routes.ts';
import { providerRoutes } from './features/provider/routes.ts';
import { paymentsRoutes } from './features/payments/routes.ts';
import { batchesRoutes, batchListRoutes } from './features/batches/routes.ts';
import { transactionsRoutes } from './features/transactions/routes.ts';
import { transfersRoutes } from './features/transfers/routes.ts';
import { accountingRoutes } from './features/accounting/routes.ts';
import { payinsRoutes } from './features/payins/routes.ts';
import { reportsRoutes } from './features/reports/routes.ts';
import { downloadsRoutes } from './features/downloads/routes.ts';
import { activityRoutes } from './features/activity/routes.ts';
import { createFileStore, type FileStore } from './platform/files.ts';
import { createJobs, type Jobs } from './platform/jobs.ts';
import { createProviderClient, type ProviderClient } from './platform/provider.ts';
import { registerAudit } from './platform/audit.ts';
import { createMetrics, holdsMetricsToken, readiness } from './platform/metrics.ts';
import { payoutMetrics } from './features/payouts/metrics.ts';
import { webhookMetrics } from './features/webhooks/metrics.ts';
import type { Config } from './platform/config.ts';
import { ping, type Database } from './platform/db.ts';
import type { Deps } from './platform/deps.ts';
import { ApiError, notFound, unauthorized } from './platform/errors.ts';
import { createMailer, type Mailer } from './platform/mail.ts';
import { registerSecurityHeaders, setSecurityHeaders } from './platform/headers.ts';
import { loggerOptions } from './platform/logging.ts';
import { randomUUID } from 'node:crypto';
import { apiDocsRoutes } from './platform/apidocs.ts';
import { registerFormBodies } from './platform/forms.ts';
import { route } from './platform/http.ts';
import { isAppPage, registerCompression, registerWebApp, shouldServeWeb } from './platform/web.ts';

/** The version of the API document. */
export const API_VERSION = '0.1.0';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  /** serve the built web app (default: when apps/web/dist exists) */
  serveWeb?: boolean;
  jobs?: Jobs;
  provider?: ProviderClient;
  files?: FileStore;
  /** where the log goes (default stdout; the tests capture it) */
  logStream?: DestinationStream;
  /** the built web app's folder (default apps/web/dist) */
  webDist?: string;
  /** called for every route as it is declared (the test harness collects the route table with it) */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; deps: Deps }> {
  const { config, database } = opts;
  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // the router's refusals (a malformed URL or percent-escape, an over-long parameter) are answered before any
    // hook: give them the same headers and the error envelope
    frameworkErrors: (err, req, reply) => {
      setSecurityHeaders(reply, config);
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
      const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'The address is too long' : 'The address is not valid';
      return (reply as FastifyReply)
        .status(status)
        .header('x-request-id', req.id)
        .send({ error: [message] });
    },
  });
  registerSecurityHeaders(app, config);
  await registerCompression(app);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  const deps: Deps = {
    config,
    database,
    db: database.db,
    log: app.log,
    mailer: opts.mailer ?? createMailer(config, database.db, app.log),
    jobs: opts.jobs ?? (await createJobs(database, app.log)),
    provider:
      opts.provider ??
      createProviderClient({ baseUrl: config.providerUrl, apiKey: config.providerApiKey, log: app.log }),
    files: opts.files ?? createFileStore(config),
  };
  app.addHook('onClose', async () => {
    if (!opts.jobs) await deps.jobs.stop();
  });

  app.decorateRequest('auth', null);
  app.decorateRequest('audit', null as never);
  // a callback hook: a request without a session token goes on at once (no promise, no extra turn)
  app.addHook('onRequest', (req, reply, done) => {
    req.audit = {};
    reply.header('x-request-id', req.id);
    const header = req.headers.authorization;
    // a merchant API token (mt_...) is not a session: the merchant API checks it itself
    if (!header?.startsWith('Bearer ') || header.startsWith('Bearer mt_')) return done();
    const token = header.slice(7).trim();
    if (!token || token.length > 200) return done();
    const key = tokenKey(token);
    authenticateKey(deps, key).then((auth) => {
      req.auth = auth;
      done();
    }, done);
  });
  registerAudit(app, database.db);
  registerFormBodies(app);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send(err.body());
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      const message =
        e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'The request body must be JSON'
          : e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request body is too large'
            : e.statusCode === 400
              ? 'The request body is not valid JSON'
              : (e.message ?? 'Bad request');
      return reply.status(e.statusCode).send({ error: [message] });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.status(500).send({ error: [MSG.somethingWrong], request_id: String(req.id) });
  });

  app.decorate('answerMode', config.production ? 'strip' : 'strict');
  const metrics = createMetrics(app, database, [payoutMetrics, webhookMetrics]);
  route(app, systemOps.ready, async ({ reply }) => {
    const answer = await readiness(database);
    reply.status(answer.status === 'ready' ? 200 : 503);
    return answer;
  });
  route(app, systemOps.metrics, async ({ req, reply }) => {
    // no token configured: as if the route did not exist
    if (!config.metricsToken) throw notFound();
    if (!holdsMetricsToken(req.headers.authorization, config.metricsToken)) throw unauthorized('Invalid metrics token');
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.render());
  });
  route(app, systemOps.health, async ({ reply }) => {
    const reachable = await ping(database);
    reply.status(reachable ? 200 : 503);
    return {
      status: reachable ? ('ok' as const) : ('unavailable' as const),
      database: { kind: database.kind, reachable },
    };
  });
  apiDocsRoutes(app, config, API_VERSION);

  authRoutes(app, deps, currentBatchOf);
  passkeyRoutes(app, deps, confirmPassword);
  usersRoutes(app, deps, { endSessions, newInvitation });
  merchantsRoutes(app, deps, { issueApiKey, newInvitation });
  brandsRoutes(app, deps);
  feesRoutes(app, deps);
  apiKeysRoutes(app, deps);
  webhooksRoutes(app, deps);
  demoShopRoutes(app, deps);
  // the features that own the movements import approvals/, so their release and return are handed in here
  approvalsRoutes(app, deps, {
    releases: {
      payout: manualPayoutApproval(deps),
      batch: batchApproval(deps),
      transfer: transferApproval(deps),
      '2d': accountingApproval(deps),
    },
    holderName: async (db, holderType, id) => {
      if (holderType === 'company') return companyName(db, id);
      const h = await findHolderInScope(db, { kind: 'all' }, id);
      return h?.role === 'Merchant' ? h.name : null;
    },
  });
  liveRoutes(app, deps);
  rolesRoutes(app, deps, assertSomeoneCanEditRoles);
  // the ledger is the bottom layer: what it shows of merchants and brands is handed in
  ledgerRoutes(app, deps, { under: usersUnder, feeBpsOf, find: findHolderInScope, search: searchHolders });
  providerRoutes(app, deps);
  paymentsRoutes(app, deps);
  batchesRoutes(app, deps);
  batchListRoutes(app, deps);
  transactionsRoutes(app, deps);
  transfersRoutes(app, deps);
  accountingRoutes(app, deps);
  payinsRoutes(app, deps);
  reportsRoutes(app, deps);
  downloadsRoutes(app, deps);
  activityRoutes(app, deps);

  const webDist = opts.webDist ?? WEB_DIST;
  const serveWeb = shouldServeWeb(webDist, opts.serveWeb);
  if (serveWeb) await registerWebApp(app, webDist);
  app.setNotFoundHandler((req, reply) => {
    if (!serveWeb || !isAppPage(req.method, req.url)) {
      return reply.status(404).send({ error: [`No route ${req.method} ${req.url.split('?')[0]}`] });
    }
    return reply.type('text/html').sendFile('index.html');
  });

  return { app, deps };
}
