import { profileOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** After the password: codes from the authenticator (with a code confirming the pending secret) or by e-mail. */
export const enableTwoFa = (input: InputOf<typeof profileOps.enableTwoFa>) => call(profileOps.enableTwoFa, input);
