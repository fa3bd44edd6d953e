import { WEBHOOK_MSG, webhookOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import {
  createEndpoint,
  deleteEndpoint,
  listAttempts,
  listEndpoints,
  resendDelivery,
  rotateSecret,
} from './service.ts';

/** Merchants' and brands' webhook endpoints and their delivery log (issue 49; docs/decisions/032-webhooks.md). */
export function webhooksRoutes(app: FastifyInstance, deps: Deps) {
  route(app, webhookOps.createWebhookEndpoint, async ({ input, auth, req, reply }) => {
    const { endpoint, secret } = await createEndpoint(deps, auth, input);
    req.audit.targetType = 'webhook_endpoint';
    req.audit.targetId = endpoint.id;
    req.audit.after = { url: endpoint.url, events: endpoint.events };
    reply.header('cache-control', 'no-store');
    return { message: [WEBHOOK_MSG.created], endpoint, secret };
  });

  route(app, webhookOps.webhookEndpoints, async ({ auth }) => ({ data: await listEndpoints(deps, auth) }));

  route(app, webhookOps.deleteWebhookEndpoint, async ({ input, auth, req }) => {
    const row = await deleteEndpoint(deps, auth, input.id);
    req.audit.targetType = 'webhook_endpoint';
    req.audit.targetId = row.id;
    req.audit.before = { url: row.url };
    return { message: [WEBHOOK_MSG.deleted] };
  });

  route(app, webhookOps.rotateWebhookSecret, async ({ input, auth, req, reply }) => {
    const { endpoint, secret } = await rotateSecret(deps, auth, input.id);
    req.audit.targetType = 'webhook_endpoint';
    req.audit.targetId = endpoint.id;
    req.audit.detail = 'signing secret rotated (the previous one signs for 24 hours)';
    reply.header('cache-control', 'no-store');
    return { message: [WEBHOOK_MSG.rotated], endpoint, secret };
  });

  route(app, webhookOps.webhookDeliveries, ({ input, auth }) =>
    listAttempts(deps, auth, { endpointId: input.endpoint_id, page: input.page, perPage: input.per_page }),
  );

  route(app, webhookOps.resendWebhook, async ({ input, auth, req }) => {
    const d = await resendDelivery(deps, auth, input.delivery_id);
    req.audit.targetType = 'webhook_delivery';
    req.audit.targetId = d.id;
    return { message: [WEBHOOK_MSG.resent] };
  });
}
