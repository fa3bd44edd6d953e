import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Password step of the sign-in: answers the challenge for the second factor. */
export const login = (input: InputOf<typeof authOps.login>) => call(authOps.login, input);
