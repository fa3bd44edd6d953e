import { authOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Whether a password link is still valid. */
export const checkLinkExpiry = (input: InputOf<typeof authOps.checkLinkExpiry>) => call(authOps.checkLinkExpiry, input);
