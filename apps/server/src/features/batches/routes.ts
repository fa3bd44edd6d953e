import { batchOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { auditInTx } from '../../platform/audit.ts';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import * as execute from './execute.ts';
import { listBatches } from './list.ts';
import { reviewRoutes } from './review-routes.ts';
import { uploadRoutes } from './upload-routes.ts';

/** A batch payout: upload and staging (upload-routes.ts), review (review-routes.ts), execution. */
export function batchesRoutes(app: FastifyInstance, deps: Deps) {
  uploadRoutes(app, deps);
  reviewRoutes(app, deps);

  route(app, batchOps.executeBatch, async ({ input, auth, req }) => {
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    return execute.requestExecution(deps, auth, input.batch_id, input.amount);
  });

  route(app, batchOps.confirmBatch, async ({ input, auth, req }) => {
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    const r = await execute.confirmExecution(deps, auth, input.batch_id, input.code, async (tx, after) => {
      req.audit.after = after;
      await auditInTx(tx, req, 200);
    });
    return { message: ['Batch is being executed'], batch_id: input.batch_id, ...r };
  });
}

/** The batch lists: all batches in scope, and those of the last 24 hours. */
export function batchListRoutes(app: FastifyInstance, deps: Deps) {
  route(
    app,
    batchOps.batches,
    async ({ input, auth }) =>
      listBatches(deps.db, auth.scope, {
        page: input.page,
        perPage: input.per_page,
        search: input.search,
        status: input.status,
      }),
    { speculative: true },
  );

  route(
    app,
    batchOps.recentBatches,
    async ({ input, auth }) =>
      listBatches(deps.db, auth.scope, {
        page: input.page,
        perPage: input.per_page,
        search: input.search,
        status: '',
        recent: true,
      }),
    { speculative: true },
  );
}
