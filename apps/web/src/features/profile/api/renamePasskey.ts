import { passkeyOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Renames one of the caller's passkeys. */
export const renamePasskey = (input: InputOf<typeof passkeyOps.renamePasskey>) => call(passkeyOps.renamePasskey, input);
