import { profileOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** After the password: a new authenticator secret, pending until a code from the app confirms it. */
export const twoFaSetup = (input: InputOf<typeof profileOps.twoFaSetup>) => call(profileOps.twoFaSetup, input);
