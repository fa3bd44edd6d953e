import { activityOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type LogsFilters = InputOf<typeof activityOps.getLogs>;

/** A page of the activity log (the spec's shape: the page is data[0]). */
export const getLogs = (filters: LogsFilters) => call(activityOps.getLogs, filters);

/** The activity log list, by its day and page. */
export const logsQuery = (filters: LogsFilters) =>
  queryOptions({ queryKey: ['activity-logs', filters], queryFn: () => getLogs(filters) });
