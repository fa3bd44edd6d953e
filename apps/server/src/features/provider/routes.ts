import type { FastifyInstance } from 'fastify';
import { desc } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { refuseUnsafeText, route } from '../../platform/http.ts';
import { auditInTx } from '../../platform/audit.ts';
import { verifyWebhookSignature } from '../../platform/provider.ts';
import { applyProviderEvent, reconcile, type ProviderEvent } from './service.ts';
import { reconciliationReports } from './tables.ts';

const eventSchema = z.object({
  event_id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  created_at: z.string().optional(),
  data: z
    .object({
      id: z.string().min(1),
      reference: z.string().optional(),
      idempotency_key: z.string().optional(),
      status: z.string().optional(),
      message: z.string().optional(),
      amount: z.number().optional(),
    })
    .passthrough(),
});

const obolId = z
  .string({ error: 'This field is required' })
  .trim()
  .min(1, 'This field is required')
  .max(50, 'Invalid Obol Id');

export function providerRoutes(app: FastifyInstance, deps: Deps) {
  // webhooks: the raw body is needed for the signature, so this route parses JSON itself
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/provider/webhook',
      { config: { access: 'public', audit: 'provider.webhook' } },
      async (req, reply) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        const sig = req.headers['x-provider-signature'];
        if (
          !verifyWebhookSignature(deps.config.providerWebhookSecret, typeof sig === 'string' ? sig : undefined, raw)
        ) {
          throw new ApiError(401, ['Invalid webhook signature']);
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ApiError(400, ['The request body is not valid JSON']);
        }
        // the text rule of every route: a NUL or a lone surrogate cannot be stored (a 400 the provider sees)
        refuseUnsafeText(req, parsed);
        const ev = eventSchema.safeParse(parsed);
        if (!ev.success) throw new ApiError(400, ['Not a provider event']);
        req.audit.actor = { id: null, name: 'Provider', email: null };
        req.audit.targetType = ev.data.type;
        req.audit.targetId = ev.data.data.id;
        const outcome = await applyProviderEvent(deps, ev.data as ProviderEvent, async (tx, applied) => {
          req.audit.detail = applied;
          await auditInTx(tx, req, 200);
        });
        req.audit.detail = outcome;
        return reply.send({ message: [outcome] });
      },
    );
  });

  route(app, {
    method: 'POST',
    url: '/api/wallet-checker',
    access: ['User can view payments', 'User can view profile'],
    input: z.object({ obol_id: obolId }),
    handler: async ({ input }) => {
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
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/reconcile',
    access: { roles: ['Admin', 'Accountant'] },
    audit: 'provider.reconcile',
    handler: async () => reconcile(deps),
  });

  route(app, {
    method: 'POST',
    url: '/api/reconciliation-report',
    access: { roles: ['Admin', 'Accountant'] },
    handler: async () => {
      const [latest] = await deps.db
        .select()
        .from(reconciliationReports)
        .orderBy(desc(reconciliationReports.id))
        .limit(1);
      if (!latest) throw notFound('No reconciliation has run yet');
      return { report: latest };
    },
  });
}
