import { MSG, REPORT_SCHEDULE_MSG, reportOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { startExport } from '../downloads/service.ts';
import { searchHolders } from '../merchants/holders.ts';
import { INVOICE_EXPORT, invoicePeriod, issueInvoice } from './invoices.ts';
import { feeChart } from './chart.ts';
import { pullReport } from './service.ts';
import { listSchedules, scheduleReport, unscheduleReport } from './schedules.ts';

export function reportsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, reportOps.reportHolders, async ({ input, auth }) => ({
    data: await searchHolders(deps.db, auth.scope, input.search),
  }));
  route(app, reportOps.reportSchedules, async ({ auth }) => ({ data: await listSchedules(deps.db, auth) }));
  route(app, reportOps.scheduleReport, async ({ input, auth, req }) => {
    const schedule = await scheduleReport(deps, auth, input);
    req.audit.targetType = 'report_schedule';
    req.audit.targetId = schedule.id;
    req.audit.after = schedule;
    return { message: [REPORT_SCHEDULE_MSG.scheduled], schedule };
  });
  route(app, reportOps.unscheduleReport, async ({ input, auth, req }) => {
    await unscheduleReport(deps.db, auth, input.id);
    req.audit.targetType = 'report_schedule';
    req.audit.targetId = input.id;
    return { message: [REPORT_SCHEDULE_MSG.removed] };
  });
  route(app, reportOps.feeChart, ({ input, auth }) => feeChart(deps.db, auth.scope, input.months));
  route(app, reportOps.invoice, async ({ input, auth, req }) => {
    await throttle(deps, 'export', auth.user.id);
    const inv = await issueInvoice(deps, auth, input.merchant_id, input.date);
    const file = await startExport(deps, auth, INVOICE_EXPORT, {
      format: 'pdf',
      invoice_id: inv.id,
      file_name: `invoice-${inv.number}`,
      ...invoicePeriod(inv.month),
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
      await throttle(deps, 'export', auth.user.id);
      const file = await pullReport(deps, auth, kind, input);
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
