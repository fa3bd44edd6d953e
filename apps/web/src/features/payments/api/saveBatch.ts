import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Keeps a staged batch for review once its staging is done (a 409 while it is still being staged). Nothing to
 * invalidate: the review page it leads to reads the batch afresh.
 */
export const saveBatch = (input: InputOf<typeof batchOps.saveBatch>) => call(batchOps.saveBatch, input);
