import { API_KEYS_MSG, apiKeyOps, maskKey, profileOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { brandKeys, emailKeys, listApiKeyHolders, plainBrandKeys } from './holders.ts';
import { apiKeyOverview, revealApiKey, rotateApiKey } from './service.ts';

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
    // a merchant sees its brands' keys with its own (after the same password)
    const brands = await plainBrandKeys(deps, auth);
    // the log names every key shown: the brands' too (by their masked public keys, never a key itself)
    if (brands.length)
      req.audit.detail += `, with the keys of ${brands.length} brand(s): ${brands
        .map((b) => `${b.name} (${maskKey(b.public_key)})`)
        .join(', ')}`;
    return brands.length ? { ...answer, brands } : answer;
  });

  route(app, apiKeyOps.apiAndKeys, ({ input, auth }) =>
    listApiKeyHolders(deps.db, auth.scope, { page: input.page, perPage: input.per_page, name: input.name }),
  );

  route(app, apiKeyOps.apiKeyBrands, async ({ input, auth }) => ({
    data: await brandKeys(deps.db, auth.scope, input.id),
  }));

  route(app, apiKeyOps.emailKeys, async ({ input, auth, req }) => {
    req.audit.targetType = 'user';
    req.audit.targetId = input.id;
    const shared = await emailKeys(deps, auth, input.id, input.email);
    req.audit.detail = `public keys of ${shared.merchant} and ${shared.brands} brand(s) mailed to ${input.email}`;
    return { message: [API_KEYS_MSG.shared] };
  });

  route(app, profileOps.rotateApiKey, async ({ input, auth, req, reply }) => {
    req.audit.targetType = 'api_key';
    req.audit.targetId = auth.user.id;
    const answer = await rotateApiKey(deps, auth, input.current_password, req.ip, ({ previous, next }) => {
      // which keys, never a key itself
      req.audit.before = previous ? { public_key: previous } : null;
      req.audit.after = { public_key: next };
    });
    reply.header('cache-control', 'no-store');
    return answer;
  });
}
