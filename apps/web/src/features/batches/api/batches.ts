import { batchOps, type BatchListRequest } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The batches in scope, newest first: search by batch id or file name, filter by status. */
export const batches = (input: BatchListRequest) => call(batchOps.batches, input);

export const batchesKeys = {
  all: ['batches'] as const,
  list: (input: BatchListRequest) => ['batches', input] as const,
};

export const batchesQuery = (input: BatchListRequest) => ({
  queryKey: batchesKeys.list(input),
  queryFn: () => batches(input),
});
