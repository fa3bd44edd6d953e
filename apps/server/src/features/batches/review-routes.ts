import { batchOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import * as review from './review.ts';
import { batchAmount, batchView, findBatchInScope } from './service.ts';

/** The review page: the staged rows and the total, edits, deletes, the name, clearing the batch. */
export function reviewRoutes(app: FastifyInstance, deps: Deps) {
  route(app, batchOps.stagedTransactions, async ({ input, auth }) => {
    const b = await findBatchInScope(deps.db, auth.scope, input.batch_id);
    const page = await review.stagedPage(deps.db, b.batchId, {
      page: input.page,
      perPage: input.per_page,
      search: input.search,
      status: input.status,
    });
    return { ...page, batch: await batchView(deps.db, b.batchId) };
  });

  route(app, batchOps.batchAmount, async ({ input, auth }) => {
    const b = await findBatchInScope(deps.db, auth.scope, input.batch_id);
    const { amount, fee } = await batchAmount(deps.db, b);
    return { amount, fee };
  });

  route(app, batchOps.updateTransaction, async ({ input, auth, req }) => {
    const r = await review.updateStagedRow(deps, auth, input.batch_id, input);
    req.audit.targetType = 'staged_transaction';
    req.audit.targetId = input.id;
    req.audit.before = r.before;
    req.audit.after = r.after;
    return {
      message: [r.after.status === 'Pending' ? 'Transaction updated' : 'Transaction updated; it still has errors'],
      transaction: r.after,
    };
  });

  route(app, batchOps.deleteTransaction, async ({ input, auth, req }) => {
    req.audit.targetType = 'staged_transaction';
    req.audit.targetId = input.id;
    await review.deleteStagedRows(deps, auth, input.batch_id ?? null, [input.id]);
    return { message: ['Transaction deleted'] };
  });

  route(app, batchOps.deleteTransactions, async ({ input, auth, req }) => {
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    req.audit.before = { ids: input.id };
    const n = await review.deleteStagedRows(deps, auth, input.batch_id, input.id);
    return { message: [`${n} transaction${n === 1 ? '' : 's'} deleted`] };
  });

  route(app, batchOps.renameBatch, async ({ input, auth, req }) => {
    const r = await review.renameBatch(deps, auth, input.batch_id, input.file_name);
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    req.audit.before = { file_name: r.before };
    req.audit.after = { file_name: r.after };
    return { message: ['File renamed'], file_name: r.after };
  });

  route(app, batchOps.clearBatch, async ({ input, auth, req }) => {
    req.audit.targetType = 'batch';
    req.audit.targetId = input.batch_id;
    await review.clearBatch(deps, auth, input.batch_id);
    return { message: ['Batch cleared'] };
  });
}
