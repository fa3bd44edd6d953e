import { MSG, PENDING_APPROVAL, transferOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { auditInTx } from '../../platform/audit.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { startExport } from '../downloads/service.ts';
import { TRANSFERS_EXPORT } from './exports.ts';
import { merchantsWithAccounts } from './chooser.ts';
import { listTransfers } from './list.ts';
import { createTransfer, requestTransferCode } from './service.ts';

/** Amount Transfer, Merchants Payout and Transfer Transactions (document 3). */
export function transfersRoutes(app: FastifyInstance, deps: Deps) {
  route(app, transferOps.sendOtp, ({ input, auth }) => requestTransferCode(deps, auth, input));

  route(app, transferOps.amountTransfer, async ({ input, auth, req, reply }) => {
    const r = await createTransfer(deps, auth, input, async (tx, transfer) => {
      req.audit.targetType = 'transfer';
      req.audit.targetId = transfer.id;
      req.audit.after = transfer;
      await auditInTx(tx, req, transfer.status === PENDING_APPROVAL ? 202 : 201);
    });
    // waiting for a second person (a retry answers the same)
    if (r.approval_id) reply.status(202);
    return r;
  });

  route(app, transferOps.transferList, ({ input, auth }) => listTransfers(deps.db, auth.scope, input));

  route(app, transferOps.exportTransfers, async ({ input, auth, req }) => {
    await throttle(deps, 'export', auth.user.id);
    const file = await startExport(deps, auth, TRANSFERS_EXPORT, input);
    req.audit.targetType = 'download_file';
    req.audit.targetId = file.id;
    return { message: [MSG.processingBackground], file };
  });

  route(app, transferOps.merchantWithAccount, async ({ input, auth }) => ({
    data: await merchantsWithAccounts(deps.db, auth.scope, input.search),
  }));
}
