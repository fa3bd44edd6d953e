import { INVOICE_FIRST_MONTH, REPORT_SELECT_ALL, type HolderOption, type ReportRequest } from '@obol/contract';
import { browserTimeZone } from '../../lib/dates.ts';

/** A merchant or brand a report is pulled for, as the holder picker offers it. */
export interface Choice {
  id: number;
  name: string;
  kind: string;
}
export const SELECT_ALL: Choice = { id: REPORT_SELECT_ALL, name: 'Select All', kind: '' };

export type ReportFormat = 'csv' | 'xlsx';

/**
 * The picker's options: Select All first where the report offers it, then each merchant followed by its active
 * brands, or merchants only (invoices).
 */
export function holderChoices(holders: HolderOption[], selectAll: boolean, merchantsOnly: boolean): Choice[] {
  return [
    ...(selectAll ? [SELECT_ALL] : []),
    ...holders.flatMap((m) => [
      { id: m.id, name: m.name, kind: m.roles[0]?.name ?? '' },
      ...(merchantsOnly ? [] : m.active_brands.map((b) => ({ id: b.id, name: b.name, kind: b.roles[0]?.name ?? '' }))),
    ]),
  ].filter((o) => !merchantsOnly || o.kind === 'Merchant');
}

/** The request of Pull Report: one date is that day (a reversed range is reordered by the server). */
export function reportRequest(holder: Choice, start: string, end: string, format: ReportFormat): ReportRequest {
  return {
    name: holder.name,
    auth_id: holder.id,
    start_date: start || end,
    end_date: end || start,
    tz: browserTimeZone(),
    format,
  };
}

/** An invoice can be pulled for a merchant and a month from the first invoiced month up to `max` (this month). */
export const invoiceReady = (merchant: Choice | null, month: string, max: string) =>
  !!merchant && /^\d{4}-\d{2}$/.test(month) && month >= INVOICE_FIRST_MONTH && month <= max;
