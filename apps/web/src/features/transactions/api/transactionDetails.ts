import { transactionOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** One payout's details. */
export const transactionDetails = (input: InputOf<typeof transactionOps.transactionDetails>) =>
  call(transactionOps.transactionDetails, input);
