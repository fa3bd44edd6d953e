import { passkeyOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Removes one of the caller's passkeys, after the password. */
export const deletePasskey = (input: InputOf<typeof passkeyOps.deletePasskey>) => call(passkeyOps.deletePasskey, input);
