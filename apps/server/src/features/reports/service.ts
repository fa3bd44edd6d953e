import { REPORT_MSG, REPORT_SELECT_ALL, REPORTS, type ReportKind } from '@obol/contract';
import type { Deps } from '../../platform/deps.ts';
import { today } from '../../platform/dates.ts';
import type { Tx } from '../../platform/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { startExport, type ExportParams } from '../downloads/service.ts';
import { findHolderInScope } from '../merchants/holders.ts';
import type { ReportParams } from './params.ts';
import { REPORT_SPECS } from './reports.ts';

export interface PullInput {
  name: string;
  auth_id: number;
  start_date: string;
  end_date: string;
  tz: string;
  format: 'csv' | 'xlsx';
}

/** The report's holder, checked against the caller's scope (404 outside it) and the report's Select All rule. */
export async function reportHolder(
  deps: Deps,
  auth: AuthContext,
  kind: ReportKind,
  authId: number,
): Promise<ReportParams['holder']> {
  const report = REPORTS.find((r) => r.kind === kind)!;
  if (authId === REPORT_SELECT_ALL) {
    if (!report.selectAll) throw badRequest(REPORT_MSG.holderRequired, 'auth_id');
    return { kind: 'all' };
  }
  const h = await findHolderInScope(deps.db, auth.scope, authId);
  if (!h) throw notFound('Merchant or brand not found');
  return { kind: h.role === 'Brand' ? 'brand' : 'merchant', id: h.id };
}

/**
 * What a report is pulled with, checked: the merchant or brand must be in the caller's scope (another tenant's is
 * 404, as one that does not exist), Select All only where the report offers it; the dates up to today. With
 * `notifyEmail`, a link is mailed there once the file is written.
 */
export async function reportParams(
  deps: Deps,
  auth: AuthContext,
  kind: ReportKind,
  input: PullInput,
  opts: { notifyEmail?: string; now?: Date } = {},
): Promise<ExportParams & ReportParams> {
  const now = today(input.tz, opts.now);
  for (const field of ['start_date', 'end_date'] as const)
    if (input[field] && input[field] > now) throw badRequest('Date must not be after today', field);
  const holder = await reportHolder(deps, auth, kind, input.auth_id);
  return {
    holder,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date || input.start_date,
    tz: input.tz,
    format: input.format,
    ...(opts.notifyEmail ? { notify_email: opts.notifyEmail } : {}),
  };
}

/** Pulls a report: its file is then written by the export job into the report downloads. */
export async function pullReport(
  deps: Deps,
  auth: AuthContext,
  kind: ReportKind,
  input: PullInput,
  opts: { tx?: Tx; notifyEmail?: string; now?: Date } = {},
) {
  const params = await reportParams(deps, auth, kind, input, opts);
  return startExport(deps, auth, REPORT_SPECS[kind], params, opts.tx);
}
