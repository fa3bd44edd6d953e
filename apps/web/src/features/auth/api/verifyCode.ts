import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Second-factor step: answers the session (token, user, permissions, accounts, current batch). */
export const verifyCode = (input: InputOf<typeof authOps.verifyCode>) => call(authOps.verifyCode, input);
