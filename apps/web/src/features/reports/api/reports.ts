import { reportOps, type InputOf, type ReportKind, type ReportRequest } from '@obol/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The merchants (with their active brands) a report may be pulled for, by name; the last page stays while typing. */
export const reportHoldersQuery = (search: string) =>
  queryOptions({
    queryKey: ['report-holders', search],
    queryFn: () => call(reportOps.reportHolders, { search }),
    placeholderData: keepPreviousData,
  });

/** The caller's monthly reports. */
export const reportSchedulesQuery = queryOptions({
  queryKey: ['report-schedules'],
  queryFn: () => call(reportOps.reportSchedules, undefined),
});

const OPS = {
  activity: reportOps.activityReport,
  batch_payouts: reportOps.payoutReport,
  failed: reportOps.failedReport,
  fees: reportOps.feeReport,
} as const;

/** Pulls a report: the file is written in the background into Download Reports. */
export const pullReport = (kind: ReportKind, input: ReportRequest) => call(OPS[kind], input);
/** Schedules a report monthly for a holder. */
export const scheduleReport = (input: InputOf<typeof reportOps.scheduleReport>) =>
  call(reportOps.scheduleReport, input);
/** Removes one of the caller's monthly reports. */
export const unscheduleReport = (id: number) => call(reportOps.unscheduleReport, { id });
/** Issues (or finds again) a merchant's invoice of a month. */
export const issueInvoice = (input: InputOf<typeof reportOps.invoice>) => call(reportOps.invoice, input);
