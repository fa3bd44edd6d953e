import { passkeyOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Keeps the credential the browser created as a passkey. */
export const passkeyRegister = (input: InputOf<typeof passkeyOps.passkeyRegister>) =>
  call(passkeyOps.passkeyRegister, input);
