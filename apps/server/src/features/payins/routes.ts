import { payinOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { createPayinLink } from './service.ts';
import { issueMerchantToken, merchantCaller } from './token.ts';

/** The merchant API (document 3, "Demo payment provider"): what a merchant's own system calls with its API key. */
export function payinsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, payinOps.merchantToken, ({ req }) => issueMerchantToken(deps, req.headers['x-api-key']));

  route(app, payinOps.createPayinLink, async ({ input, req }) => {
    const caller = await merchantCaller(deps, req);
    const { holder } = caller;
    req.audit.actor = { id: holder.id, name: holder.name, email: holder.email };
    // a retry answers the first link, as the first answer did (201)
    const link = await createPayinLink(deps, caller, input, req.headers['idempotency-key']);
    req.audit.targetType = 'payin';
    req.audit.targetId = link.request_id;
    req.audit.after = link;
    return link;
  });
}
