import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Mails a password link; the same answer whether or not the account exists. */
export const forgotPassword = (input: InputOf<typeof authOps.forgotPassword>) => call(authOps.forgotPassword, input);
