import { authOps } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Ends the session on the server. */
export const logout = () => call(authOps.logout);
