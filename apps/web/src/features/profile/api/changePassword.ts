import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Changes the caller's password (the account's other sessions end). */
export const changePassword = (input: InputOf<typeof authOps.changePassword>) => call(authOps.changePassword, input);
