import { dayRange } from '../../platform/dates.ts';
import type { Scope } from '../../platform/scope.ts';

/** What the report job is given besides the caller's scope. */
export interface ReportParams {
  /** the picked holder: 'all' (Select All), a merchant with its brands, or a brand alone */
  holder: { kind: 'all' } | { kind: 'merchant'; id: number } | { kind: 'brand'; id: number };
  start_date: string;
  end_date: string;
  tz: string;
}

/** The report's own scope: the picked holder, as a Scope the lists' filters understand. */
export function holderScope(p: ReportParams, caller: Scope): Scope {
  const h = p.holder;
  if (h.kind === 'all') return caller;
  if (h.kind === 'merchant') return { kind: 'merchant', merchantId: h.id };
  // the brand's merchant is not needed by the filters that take a brand scope
  return { kind: 'brand', merchantId: 0, brandId: h.id };
}

/** The days of a report as instants: one date is that day, a reversed range is reordered. */
export function bounds(p: ReportParams) {
  let a = p.start_date || p.end_date;
  let b = p.end_date || p.start_date;
  if (a > b) [a, b] = [b, a];
  return dayRange(a, b, p.tz || 'UTC');
}

// what every report reads of the job's params
export const params = (raw: Record<string, unknown>) => raw as unknown as ReportParams;
export const both = (caller: Scope, raw: Record<string, unknown>) =>
  [caller, holderScope(params(raw), caller)] as const;
export const num = (v: unknown) => Number(v ?? 0);
