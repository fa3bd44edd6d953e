import { ledgerOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The balance of an account in the caller's scope, and its holder's fee in percent. */
export const accountBalance = (input: InputOf<typeof ledgerOps.accountBalance>) =>
  call(ledgerOps.accountBalance, input);
