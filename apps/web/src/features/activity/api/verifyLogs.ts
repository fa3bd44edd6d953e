import { activityOps } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** Walks the activity log's hash chain on the server (recorded as a new record, so the list changes too). */
export const verifyLogs = () => call(activityOps.verifyLogs);
