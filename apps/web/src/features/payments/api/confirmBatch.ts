import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Executes a batch with its code: total and fee are reserved, its payouts created and sent. Nothing to
 * invalidate: the review page is left for Recent Batches, which reads the batches afresh.
 */
export const confirmBatch = (input: InputOf<typeof batchOps.confirmBatch>) => call(batchOps.confirmBatch, input);
