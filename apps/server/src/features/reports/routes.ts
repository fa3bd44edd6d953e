import { MSG, REPORT_MSG, REPORT_SELECT_ALL, REPORTS, reportOps, type ReportKind } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { today } from '../../platform/dates.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { route, type AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { startExport, type ExportParams } from '../downloads/service.ts';
import { findHolderInScope, searchHolders } from '../payments/holders.ts';
import { INVOICE_EXPORT, issueInvoice } from './invoices.ts';
import { feeChart, REPORT_SPECS, type ReportParams } from './reports.ts';

type Input = {
  name: string;
  auth_id: number;
  start_date: string;
  end_date: string;
  tz: string;
  format: 'csv' | 'xlsx';
};

/**
 * Pulls a report: the merchant or brand must be in the caller's scope (another tenant's is 404, as one that does
 * not exist), Select All only where the report offers it; the dates up to today. The file is then written by the
 * export job into the report downloads.
 */
async function pull(deps: Deps, auth: AuthContext, kind: ReportKind, input: Input) {
  const report = REPORTS.find((r) => r.kind === kind)!;
  const now = today(input.tz);
  for (const field of ['start_date', 'end_date'] as const)
    if (input[field] && input[field] > now) throw badRequest('Date must not be after today', field);
  let holder: ReportParams['holder'];
  if (input.auth_id === REPORT_SELECT_ALL) {
    if (!report.selectAll) throw badRequest(REPORT_MSG.holderRequired, 'auth_id');
    holder = { kind: 'all' };
  } else {
    const h = await findHolderInScope(deps.db, auth.scope, input.auth_id);
    if (!h) throw notFound('Merchant or brand not found');
    holder = { kind: h.role === 'Brand' ? 'brand' : 'merchant', id: h.id };
  }
  await throttle(deps, 'export', auth.user.id);
  const params: ExportParams & ReportParams = {
    holder,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date || input.start_date,
    tz: input.tz,
    format: input.format,
  };
  return startExport(deps, auth, REPORT_SPECS[kind], params);
}

export function reportsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, reportOps.reportHolders, async ({ input, auth }) => ({
    data: await searchHolders(deps.db, auth.scope, input.search),
  }));
  route(app, reportOps.feeChart, ({ input, auth }) => feeChart(deps.db, auth.scope, input.months));
  route(app, reportOps.invoice, async ({ input, auth, req }) => {
    await throttle(deps, 'export', auth.user.id);
    const inv = await issueInvoice(deps, auth, input.merchant_id, input.date);
    const file = await startExport(deps, auth, INVOICE_EXPORT, {
      format: 'pdf',
      invoice_id: inv.id,
      file_name: `invoice-${inv.number}`,
      start_date: inv.month,
      end_date: inv.month,
    });
    req.audit.targetType = 'invoice';
    req.audit.targetId = inv.number;
    req.audit.after = { merchant_id: input.merchant_id, month: input.date, number: inv.number };
    return { message: [MSG.processingBackground], file, invoice: { number: inv.number, total_fee: inv.totalFee } };
  });
  for (const [op, kind] of [
    [reportOps.activityReport, 'activity'],
    [reportOps.payoutReport, 'batch_payouts'],
    [reportOps.failedReport, 'failed'],
    [reportOps.feeReport, 'fees'],
  ] as const) {
    route(app, op, async ({ input, auth, req }) => {
      const file = await pull(deps, auth, kind, input);
      req.audit.targetType = 'download_file';
      req.audit.targetId = file.id;
      req.audit.after = {
        report: kind,
        auth_id: input.auth_id,
        start_date: input.start_date,
        end_date: input.end_date,
      };
      return { message: [MSG.processingBackground], file };
    });
  }
}
