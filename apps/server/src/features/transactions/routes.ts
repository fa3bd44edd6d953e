import { transactionOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { exportStarted, startExport } from '../downloads/service.ts';
import { BATCH_HISTORY_EXPORT, COMPLETED_EXPORT, PAYOUTS_EXPORT } from './exports.ts';
import { batchHistory, historyBatch } from './history.ts';
import { completedWhere, payoutWhere } from './query.ts';
import { brandList, listCompleted, listPayouts, transactionDetails, type Paging } from './service.ts';
import { payoutVolume } from './volume.ts';

/** A list's page: by number (OFFSET), or one step from a cursor of the page the client shows. */
const paging = (input: { page: number; per_page: number; cursor: string; prev_cursor: string }): Paging => ({
  page: input.page,
  perPage: input.per_page,
  cursor: input.cursor,
  prevCursor: input.prev_cursor,
});

/** The transaction lists of document 1 and their exports. */
export function transactionsRoutes(app: FastifyInstance, deps: Deps) {
  /** per user, all export kinds together: 429 past the limit, before anything else is looked at */
  const throttleExports = (userId: number) => throttle(deps, 'export', userId);

  route(app, transactionOps.payoutTransactions, ({ input, auth }) =>
    listPayouts(deps.db, auth.scope, input, input['sort-by'], paging(input)),
  );

  route(app, transactionOps.payoutVolume, ({ input, auth }) => payoutVolume(deps.db, auth.scope, input));

  route(app, transactionOps.exportPayoutTransactions, async ({ input, auth, req }) => {
    await throttleExports(auth.user.id);
    payoutWhere(auth.scope, input); // bad filters are refused now, not in the job
    return exportStarted(req, await startExport(deps, auth, PAYOUTS_EXPORT, input));
  });

  route(app, transactionOps.transactionDetails, ({ input, auth }) => transactionDetails(deps.db, auth.scope, input.id));

  route(app, transactionOps.brandList, ({ auth }) => brandList(deps.db, auth.scope));

  route(app, transactionOps.completedTransactions, ({ input, auth }) =>
    listCompleted(deps.db, auth.scope, input, paging(input)),
  );

  route(app, transactionOps.exportCompletedTransactions, async ({ input, auth, req }) => {
    await throttleExports(auth.user.id);
    completedWhere(auth.scope, input);
    return exportStarted(req, await startExport(deps, auth, COMPLETED_EXPORT, input));
  });

  route(app, transactionOps.batchHistory, ({ input, auth }) =>
    batchHistory(deps.db, auth.scope, input, { page: input.page, perPage: input.per_page }),
  );

  route(app, transactionOps.exportBatchHistory, async ({ input, auth, req }) => {
    await throttleExports(auth.user.id);
    const { executed } = await historyBatch(deps.db, auth.scope, input.batch_id);
    return exportStarted(req, await startExport(deps, auth, BATCH_HISTORY_EXPORT, { ...input, executed }));
  });
}
