import { brandOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { listBrands } from './brands.ts';

export function brandsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, brandOps.brands, ({ input, auth }) =>
    listBrands(deps.db, auth.scope, { page: input.page, perPage: input.per_page, name: input.name }),
  );
}
