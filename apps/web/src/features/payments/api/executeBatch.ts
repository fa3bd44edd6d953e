import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/**
 * Asks for the code that approves exactly this batch and total (a batch whose total changed since is
 * refused). Changes nothing the page reads: nothing to invalidate.
 */
export const executeBatch = (input: InputOf<typeof batchOps.executeBatch>) => call(batchOps.executeBatch, input);
