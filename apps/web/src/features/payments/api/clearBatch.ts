import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Declines a Pending batch; its staged rows go. Nothing to invalidate: the review page is left for the start
 * of a new payment.
 */
export const clearBatch = (input: InputOf<typeof batchOps.clearBatch>) => call(batchOps.clearBatch, input);
