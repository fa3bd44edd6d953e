import { PENDING_APPROVAL, transferOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { createdOrHeld } from '../../platform/audit.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { exportStarted, startExport } from '../downloads/service.ts';
import { TRANSFERS_EXPORT } from './exports.ts';
import { merchantsWithAccounts } from './chooser.ts';
import { listTransfers } from './list.ts';
import { createTransfer, requestTransferCode } from './service.ts';

/** Amount Transfer, Merchants Payout and Transfer Transactions (document 3). */
export function transfersRoutes(app: FastifyInstance, deps: Deps) {
  route(app, transferOps.sendOtp, ({ input, auth }) => requestTransferCode(deps, auth, input));

  route(app, transferOps.amountTransfer, ({ input, auth, req, reply }) =>
    createdOrHeld(req, reply, { type: 'transfer', heldStatus: PENDING_APPROVAL }, (record) =>
      createTransfer(deps, auth, input, record),
    ),
  );

  route(app, transferOps.transferList, ({ input, auth }) => listTransfers(deps.db, auth.scope, input));

  route(app, transferOps.exportTransfers, async ({ input, auth, req }) => {
    await throttle(deps, 'export', auth.user.id);
    return exportStarted(req, await startExport(deps, auth, TRANSFERS_EXPORT, input));
  });

  route(app, transferOps.merchantWithAccount, async ({ input, auth }) => ({
    data: await merchantsWithAccounts(deps.db, auth.scope, input.search),
  }));
}
