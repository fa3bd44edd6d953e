import {
  batchHistoryExportRequest,
  batchHistoryRequest,
  completedExportRequest,
  completedListRequest,
  MSG,
  payoutExportRequest,
  payoutListRequest,
  transactionDetailsRequest,
} from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { startExport } from '../downloads/service.ts';
import { completedWhere, payoutWhere } from './query.ts';
import { batchHistory, brandList, historyBatch, listCompleted, listPayouts, transactionDetails } from './service.ts';

const VIEW = 'User can view transactions';
const EXPORT = 'User can export transactions';
const cursor = { cursor: z.string().trim().max(200, 'cursor is not valid').optional().default('') };

/** The transaction lists of document 1 and their exports. */
export function transactionsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, {
    method: 'POST',
    url: '/api/payout-transactions',
    access: VIEW,
    input: payoutListRequest.extend(cursor),
    handler: ({ input, auth }) =>
      listPayouts(deps.db, auth.scope, input, input['sort-by'], {
        page: input.page,
        perPage: input.per_page,
        cursor: input.cursor,
      }),
  });

  route(app, {
    method: 'POST',
    url: '/api/export-payout-transactions',
    access: EXPORT,
    audit: 'transactions.export',
    input: payoutExportRequest,
    handler: async ({ input, auth, req }) => {
      await throttle(deps, 'export', auth.user.id); // per user, all export kinds together: 429 past the limit
      // bad filters are refused now, not in the job
      payoutWhere(auth.scope, input);
      const file = await startExport(deps, auth, 'payouts', input);
      req.audit.targetType = 'download_file';
      req.audit.targetId = file.id;
      return { message: [MSG.processingBackground], file };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/transaction-details',
    access: VIEW,
    input: transactionDetailsRequest,
    handler: ({ input, auth }) => transactionDetails(deps.db, auth.scope, input.id),
  });

  route(app, {
    method: 'POST',
    url: '/api/brand-list',
    access: VIEW,
    handler: ({ auth }) => brandList(deps.db, auth.scope),
  });

  route(app, {
    method: 'POST',
    url: '/api/completed-transactions',
    access: VIEW,
    input: completedListRequest.extend(cursor),
    handler: ({ input, auth }) =>
      listCompleted(deps.db, auth.scope, input, { page: input.page, perPage: input.per_page, cursor: input.cursor }),
  });

  route(app, {
    method: 'POST',
    url: '/api/export-completed-transactions',
    access: EXPORT,
    audit: 'transactions.export',
    input: completedExportRequest,
    handler: async ({ input, auth, req }) => {
      await throttle(deps, 'export', auth.user.id); // per user, all export kinds together: 429 past the limit
      completedWhere(auth.scope, input);
      const file = await startExport(deps, auth, 'completed', input);
      req.audit.targetType = 'download_file';
      req.audit.targetId = file.id;
      return { message: [MSG.processingBackground], file };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/batch-history',
    access: VIEW,
    input: batchHistoryRequest,
    handler: ({ input, auth }) =>
      batchHistory(deps.db, auth.scope, input, { page: input.page, perPage: input.per_page }),
  });

  route(app, {
    method: 'POST',
    url: '/api/export-batch-history',
    access: EXPORT,
    audit: 'transactions.export',
    input: batchHistoryExportRequest,
    handler: async ({ input, auth, req }) => {
      await throttle(deps, 'export', auth.user.id); // per user, all export kinds together: 429 past the limit
      const { executed } = await historyBatch(deps.db, auth.scope, input.batch_id);
      const file = await startExport(deps, auth, 'batch_history', { ...input, executed });
      req.audit.targetType = 'download_file';
      req.audit.targetId = file.id;
      return { message: [MSG.processingBackground], file };
    },
  });
}
