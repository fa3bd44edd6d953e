import { paymentsOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Sends (or asks the authenticator for) the one-time code approving this amount to this wallet. */
export const requestCode = (input: InputOf<typeof paymentsOps.requestCode>) => call(paymentsOps.requestCode, input);
