import { transactionOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

type Input = InputOf<typeof transactionOps.batchHistory>;

/** A page of one batch's rows. */
export const batchHistory = (input: Input) => call(transactionOps.batchHistory, input);

/** One batch's history query: one cache entry per request. */
export const batchHistoryQuery = (input: Input) =>
  queryOptions({ queryKey: ['batch-history', input], queryFn: () => batchHistory(input) });
