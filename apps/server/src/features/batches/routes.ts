import { APPROVAL_MSG, batchOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { auditInTx } from '../../platform/audit.ts';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
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

  route(app, batchOps.confirmBatch, async ({ input, auth, req, reply }) => {
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    const r = await execute.confirmExecution(deps, auth, input.batch_id, input.code, async (tx, after) => {
      req.audit.after = after;
      await auditInTx(tx, req, after.approval_id ? 202 : 200);
    });
    if (r.approval_id) {
      // waiting for a second person: reserved, nothing sent
      reply.status(202);
      return { message: [APPROVAL_MSG.pending], batch_id: input.batch_id, ...r };
    }
    return { message: ['Batch is being executed'], batch_id: input.batch_id, ...r };
  });
}

/** The batch lists: all batches in scope, and those of the last 24 hours. */
export function batchListRoutes(app: FastifyInstance, deps: Deps) {
  const list = (scope: Scope, input: { page: number; per_page: number; search: string }, status = '', recent = false) =>
    listBatches(deps.db, scope, { page: input.page, perPage: input.per_page, search: input.search, status, recent });
  route(app, batchOps.batches, ({ input, auth }) => list(auth.scope, input, input.status));
  route(app, batchOps.recentBatches, ({ input, auth }) => list(auth.scope, input, '', true));
}
