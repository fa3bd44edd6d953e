import { transactionOps } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The first row of a batch's transaction history: whether the batch can be read yet, and its names. */
export const batchHistory = (batchId: string) =>
  call(transactionOps.batchHistory, { batch_id: batchId, page: 1, per_page: 1 });
