import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Renames a batch not yet executed or declined; answers the name kept (non-word characters dropped). Nothing
 * to invalidate: the review page shows the name of the current batch, which the caller updates.
 */
export const renameBatch = (input: InputOf<typeof batchOps.renameBatch>) => call(batchOps.renameBatch, input);
