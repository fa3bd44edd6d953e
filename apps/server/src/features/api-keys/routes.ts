import { profileOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { apiKeyOverview, revealApiKey } from './service.ts';

export function apiKeysRoutes(app: FastifyInstance, deps: Deps) {
  route(app, profileOps.apiKeyOverview, ({ auth }) => apiKeyOverview(deps, auth));

  route(app, profileOps.apiKey, async ({ input, auth, req, reply }) => {
    req.audit.targetType = 'api_key';
    req.audit.targetId = auth.user.id;
    const answer = await revealApiKey(deps, auth, input, req.ip, (keyId, masked) => {
      // which key was shown, never the key itself
      req.audit.targetId = keyId;
      req.audit.detail = `keys revealed to their holder (public key ${masked})`;
    });
    reply.header('cache-control', 'no-store');
    return answer;
  });
}
