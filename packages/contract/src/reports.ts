import { z } from 'zod';
import { exportFormat, exportResponse } from './downloads.ts';
import { dateRangeFilters } from './listFilters.ts';
import { MSG } from './messages.ts';
import { operation } from './operation.ts';
import { INT4_MAX, wholeNumber } from './params.ts';
import { searchMerchantRequest, searchMerchantResponse } from './payments.ts';
import type { Permission } from './permissions.ts';

/** The reports of /generate-reports (document 2, section 2.5), each under its own permission (DECISIONS.md). */
export const REPORTS = [
  {
    kind: 'activity',
    title: 'Merchant activity',
    description: 'Every movement on the accounts, with the running balance',
    permission: 'User can pull merchant activity report',
    path: '/api/activity-report',
    selectAll: true,
  },
  {
    kind: 'batch_payouts',
    title: 'Batch payouts',
    description: 'Per batch: rows, amount, fee and outcome',
    permission: 'User can pull batch payouts report',
    path: '/api/payout-report',
    selectAll: false,
  },
  {
    kind: 'failed',
    title: 'Failed or returned transfers',
    description: 'Payouts that failed or came back, with their reasons',
    permission: 'User can pull failed transfers report',
    path: '/api/failed-report',
    selectAll: false,
  },
  {
    kind: 'fees',
    title: 'Fees by merchant',
    description: 'The fees of completed payouts per merchant and brand, with totals',
    permission: 'User can pull fees by merchant report',
    path: '/api/fee-report',
    selectAll: false,
  },
] as const satisfies readonly {
  kind: string;
  title: string;
  description: string;
  permission: Permission;
  path: string;
  selectAll: boolean;
}[];
export type ReportKind = (typeof REPORTS)[number]['kind'];

export const REPORT_MSG = {
  holderRequired: 'Select a merchant or brand',
  dateRequired: 'Date Range is required',
} as const;

export const INVOICE_MSG = {
  merchantRequired: 'Select a merchant',
  merchantNotFound: 'Merchant not found',
  month: 'Choose a month from 2022-12 to this month',
} as const;
/** The first month an invoice can be issued for (document 2, section 5). */
export const INVOICE_FIRST_MONTH = '2022-12';
/** This month (UTC), YYYY-MM. */
export const currentMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** What an invoice is asked with: the merchant and the month (`date`, YYYY-MM; a full date names its month). */
const invoiceRequest = z.object({
  /** the merchant's name as the picker showed it */
  name: z.string().trim().max(100, 'Max 100 characters allowed').optional().default(''),
  merchant_id: wholeNumber('merchant_id', 1, INT4_MAX, {
    invalid: INVOICE_MSG.merchantRequired,
    required: INVOICE_MSG.merchantRequired,
    min: INVOICE_MSG.merchantRequired,
    max: INVOICE_MSG.merchantRequired,
    whole: INVOICE_MSG.merchantRequired,
  }),
  date: z
    .string({ error: INVOICE_MSG.month })
    .trim()
    .transform((v) => v.slice(0, 7))
    .refine(
      (v) => /^\d{4}-(0[1-9]|1[0-2])$/.test(v) && v >= INVOICE_FIRST_MONTH && v <= currentMonth(),
      INVOICE_MSG.month,
    ),
  /** the caller (the session decides who asks; accepted for the spec's call shape) */
  auth_id: wholeNumber('auth_id', 0, INT4_MAX).optional(),
});

/** `auth_id` 0 is Select All (the activity report only): every merchant and brand in the caller's scope. */
export const REPORT_SELECT_ALL = 0;

const requiredDate = dateRangeFilters.start_date.refine((v) => v !== '', REPORT_MSG.dateRequired);

/** What a report is pulled with: the merchant or brand (its id and name), the dates, the file's format. */
export const reportRequest = z.object({
  /** the merchant's or brand's name as the picker showed it (the file name carries it) */
  name: z.string().trim().max(100, 'Max 100 characters allowed').optional().default(''),
  /** the merchant or brand (0: Select All, for the activity report) */
  auth_id: wholeNumber('auth_id', 0, INT4_MAX, {
    invalid: REPORT_MSG.holderRequired,
    required: REPORT_MSG.holderRequired,
    min: REPORT_MSG.holderRequired,
    max: REPORT_MSG.holderRequired,
    whole: REPORT_MSG.holderRequired,
  }),
  start_date: requiredDate,
  end_date: dateRangeFilters.end_date,
  tz: dateRangeFilters.tz,
  format: exportFormat,
});
export type ReportRequest = z.input<typeof reportRequest>;

const TAG = 'Reports';

const reportOp = <K extends ReportKind>(kind: K, id: string, summary: string) => {
  const r = REPORTS.find((x) => x.kind === kind)!;
  return operation({
    id,
    method: 'POST',
    path: r.path as (typeof REPORTS)[number]['path'],
    tag: TAG,
    summary: `${summary}; a background job writes it (CSV or XLSX) into the report downloads. ${MSG.processingBackground}`,
    access: r.permission,
    audit: `report.${kind}`,
    input: reportRequest,
    output: exportResponse,
  });
};

/** The chart beside the fee report: the fees of each month, per merchant (or, for a merchant, per holder). */
const feeChartRequest = z.object({
  months: wholeNumber('months', 1, 24, { min: 'months must be 1 to 24', max: 'months must be 1 to 24' })
    .optional()
    .default(12),
});
const feeChartResponse = z.object({
  /** YYYY-MM, oldest first, ending with this month (UTC) */
  months: z.array(z.string()),
  /** one per merchant (staff) or holder (a merchant's team: the merchant and its brands), cents per month */
  series: z.array(z.object({ name: z.string(), fees: z.array(z.number().int()) })),
});
export type FeeChartResponse = z.output<typeof feeChartResponse>;

const REPORT_KINDS = REPORTS.map((r) => r.kind) as [ReportKind, ...ReportKind[]];

/** A report pulled every month (first day, UTC) for the month before, and mailed as a link. */
const scheduleReportRequest = z.object({
  kind: z.enum(REPORT_KINDS, { error: 'kind must be activity, batch_payouts, failed or fees' }),
  name: z.string().trim().max(100, 'Max 100 characters allowed').optional().default(''),
  auth_id: reportRequest.shape.auth_id,
  format: exportFormat,
});
const reportSchedule = z.object({
  id: z.number().int(),
  kind: z.enum(REPORT_KINDS),
  name: z.string(),
  auth_id: z.number().int(),
  format: z.enum(['csv', 'xlsx']),
  /** YYYY-MM of the last month pulled, or null */
  last_period: z.string().nullable(),
  /** when the next one is pulled (the first of next month, 00:00 UTC) */
  next_run: z.string(),
  created_at: z.string(),
});
export type ReportSchedule = z.output<typeof reportSchedule>;
export const REPORT_SCHEDULE_MSG = {
  scheduled: 'Scheduled. The report of each month is pulled on the first day of the next (UTC) and mailed to you.',
  removed: 'Schedule removed.',
} as const;

export const reportOps = {
  reportSchedules: operation({
    id: 'reportSchedules',
    method: 'POST',
    path: '/api/report-schedules',
    tag: TAG,
    summary: "The caller's monthly reports",
    access: REPORTS.map((r) => r.permission),
    output: z.object({ data: z.array(reportSchedule) }),
  }),
  scheduleReport: operation({
    id: 'scheduleReport',
    method: 'POST',
    path: '/api/schedule-report',
    tag: TAG,
    summary:
      'Schedules a report monthly: on the first day (UTC) the report of the month before is pulled with the ' +
      "caller's permissions and scope as they are then, and the caller is mailed a link once it is written",
    access: REPORTS.map((r) => r.permission),
    audit: 'report.schedule',
    input: scheduleReportRequest,
    output: z.object({ message: z.array(z.string()), schedule: reportSchedule }),
    status: 201,
  }),
  unscheduleReport: operation({
    id: 'unscheduleReport',
    method: 'POST',
    path: '/api/unschedule-report',
    tag: TAG,
    summary: "Removes one of the caller's monthly reports",
    access: REPORTS.map((r) => r.permission),
    audit: 'report.unschedule',
    input: z.object({
      id: wholeNumber('id', 1, INT4_MAX, 'id must be a schedule id'),
    }),
    output: z.object({ message: z.array(z.string()) }),
  }),
  feeChart: operation({
    id: 'feeChart',
    method: 'POST',
    path: '/api/fee-chart',
    tag: TAG,
    summary:
      "The fees of the caller's scope per month (UTC) for the last `months` months, per merchant for staff, per " +
      'merchant and brand for a merchant: the fee report rule, a batch counted in the month of its first completed payout',
    access: 'User can pull fees by merchant report',
    input: feeChartRequest,
    output: feeChartResponse,
  }),
  invoice: operation({
    id: 'invoice',
    method: 'POST',
    path: '/api/invoice',
    tag: TAG,
    summary:
      "A merchant's invoice for a month as a PDF in the report downloads: the fee lines by batch, the totals, the " +
      "merchant's and our details, a number of the year without gaps, the issue date (UTC). Issuing the month " +
      `again answers the same number and content. ${MSG.processingBackground}`,
    access: 'User can generate invoices',
    audit: 'report.invoice',
    input: invoiceRequest,
    output: exportResponse.extend({ invoice: z.object({ number: z.string(), total_fee: z.number().int() }) }),
  }),
  reportHolders: operation({
    id: 'reportHolders',
    method: 'POST',
    path: '/api/report-holders',
    tag: TAG,
    summary: "The reports' picker: merchants (with their brands) and brands in the caller's scope",
    access: REPORTS.map((r) => r.permission),
    input: searchMerchantRequest,
    output: searchMerchantResponse,
  }),
  activityReport: reportOp(
    'activity',
    'activityReport',
    "Merchant activity: every ledger movement on the payout, pay-in and CLP accounts of the merchant or brand (or of all in the caller's scope) in the dates, with the balance after each",
  ),
  payoutReport: reportOp(
    'batch_payouts',
    'payoutReport',
    'Batch payouts: per batch executed in the dates, its rows, amount, fee, and how many payouts completed, failed or are in flight',
  ),
  failedReport: reportOp(
    'failed',
    'failedReport',
    'Failed or returned transfers: the payouts that failed in the dates, with their reasons and the money returned',
  ),
  feeReport: reportOp(
    'fees',
    'feeReport',
    'Fees by merchant: the fees of the payouts completed in the dates per merchant and brand, and the total (equal to the completed list for the same dates)',
  ),
} as const;
