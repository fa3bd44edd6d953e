import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

type RecentBatchesRequest = InputOf<typeof batchOps.recentBatches>;

/** The batches in scope changed in the last 24 hours, newest first; search by batch id or file name. */
export const recentBatches = (input: RecentBatchesRequest) => call(batchOps.recentBatches, input);

export const recentBatchesKeys = {
  all: ['recent-batches'] as const,
  list: (input: RecentBatchesRequest) => ['recent-batches', input] as const,
};

export const recentBatchesQuery = (input: RecentBatchesRequest) => ({
  queryKey: recentBatchesKeys.list(input),
  queryFn: () => recentBatches(input),
});
