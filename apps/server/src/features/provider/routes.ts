import { providerOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { heldToSchema, refuseUnsafeText, route } from '../../platform/http.ts';
import { auditInTx } from '../../platform/audit.ts';
import { verifyWebhookSignature } from '../../platform/provider.ts';
import { applyProviderEvent, applyProviderEvents, latestReconciliation, reconcile } from './service.ts';

export function providerRoutes(app: FastifyInstance, deps: Deps) {
  webhookRoute(app, deps);

  route(app, providerOps.walletChecker, async ({ input }) => {
    const info = await deps.provider.lookupWallet(input.obol_id);
    if (!info) throw notFound('Invalid Obol Id');
    return {
      user_info: {
        first_name: info.first_name,
        last_name: info.last_name,
        date_of_birth: info.date_of_birth,
        // the spec's field name, kept for clients that read it
        date_of_bith: info.date_of_birth,
        obol_id: info.obol_id,
      },
    };
  });

  route(app, providerOps.reconcile, () => reconcile(deps));

  route(app, providerOps.reconciliationReport, async () => {
    const report = await latestReconciliation(deps);
    if (!report) throw notFound('No reconciliation has run yet');
    return {
      report: { ...report, startedAt: report.startedAt.toISOString(), finishedAt: report.finishedAt.toISOString() },
    };
  });
}

/**
 * The provider's webhook, declared from its operation like route() declares one. Its signature is over the
 * raw body, so the route parses JSON itself (its own content-type parser, in a scope of its own) and checks the
 * signature before anything else; then the text rule and the operation's input schema, and its answer is held
 * to its schema.
 */
function webhookRoute(app: FastifyInstance, deps: Deps) {
  const op = providerOps.providerWebhook;
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.route({
      method: op.method,
      url: op.path,
      // no `input` in the config: that is for tools that post to a route's fields (the fuzz and text-rule
      // tests), and nothing reaches this input without the signature (unsigned, every body is a 401)
      config: { access: op.access, audit: op.audit, operation: op },
      handler: async (req) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        const sig = req.headers['x-provider-signature'];
        if (!verifyWebhookSignature(deps.config.providerWebhookSecret, typeof sig === 'string' ? sig : undefined, raw))
          throw new ApiError(401, ['Invalid webhook signature']);
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ApiError(400, ['The request body is not valid JSON']);
        }
        // the text rule of every route: a NUL or a lone surrogate cannot be stored (a 400 the provider sees)
        refuseUnsafeText(req, parsed);
        const ev = op.input.safeParse(parsed);
        if (!ev.success) throw new ApiError(400, ['Not a provider event']);
        req.audit.actor = { id: null, name: 'Provider', email: null };
        if ('events' in ev.data) {
          // a batch: each event applied once, each answered in order; an activity record per transaction
          const outcomes = await applyProviderEvents(deps, ev.data.events, async (tx, what) => {
            req.audit.targetType = what.type;
            req.audit.targetId = what.id;
            req.audit.detail = what.outcome;
            await auditInTx(tx, req, 200);
          });
          req.audit.targetType = 'events';
          req.audit.targetId = `${outcomes.length} events`;
          req.audit.detail = outcomes.join(',').slice(0, 500);
          return heldToSchema(op, { message: outcomes }, app.answerMode ?? 'strict', req);
        }
        const one = ev.data;
        req.audit.targetType = one.type;
        req.audit.targetId = one.data.id;
        const outcome = await applyProviderEvent(deps, one, async (tx, applied) => {
          req.audit.detail = applied;
          await auditInTx(tx, req, 200);
        });
        req.audit.detail = outcome;
        return heldToSchema(op, { message: [outcome] }, app.answerMode ?? 'strict', req);
      },
    });
  });
}
