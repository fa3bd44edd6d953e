import { profileOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** After the password: a new key pair for the caller; the previous public key keeps working for the grace period. */
export const rotateApiKey = (input: InputOf<typeof profileOps.rotateApiKey>) => call(profileOps.rotateApiKey, input);
