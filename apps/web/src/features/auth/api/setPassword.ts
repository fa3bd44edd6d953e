import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Sets a password with a password link. */
export const setPassword = (input: InputOf<typeof authOps.setPassword>) => call(authOps.setPassword, input);
