import type { HistoryResponse } from '@obol/contract';
import { api } from '../../../lib/api.ts';

/**
 * The first row of a batch's transaction history: whether the batch can be read yet, and its names. A call of
 * the transactions feature's operation, not yet in the contract: call() once it is.
 */
export const batchHistory = (batchId: string) =>
  api<HistoryResponse>('/api/batch-history', { batch_id: batchId, page: 1, per_page: 1 });
