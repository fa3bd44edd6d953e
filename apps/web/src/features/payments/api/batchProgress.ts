import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** How far the staging of a batch is; a 422 with the reason when its file was refused. */
export const batchProgress = (input: InputOf<typeof batchOps.batchProgress>) => call(batchOps.batchProgress, input);

export const batchProgressKeys = {
  all: ['batch-progress'] as const,
  of: (batchId: string) => ['batch-progress', batchId] as const,
};

/** The progress of a batch as a query (a page polls it while the batch is being staged). */
export const batchProgressQuery = (batchId: string) => ({
  queryKey: batchProgressKeys.of(batchId),
  queryFn: () => batchProgress({ id: batchId }),
});
