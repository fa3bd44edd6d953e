import { authOps } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The caller's permissions and session timing (also keeps the session alive). */
export const authPermission = () => call(authOps.authPermission);
