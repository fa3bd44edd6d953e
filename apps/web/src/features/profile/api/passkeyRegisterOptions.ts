import { passkeyOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The options for the browser's passkey prompt, after the password. */
export const passkeyRegisterOptions = (input: InputOf<typeof passkeyOps.passkeyRegisterOptions>) =>
  call(passkeyOps.passkeyRegisterOptions, input);
