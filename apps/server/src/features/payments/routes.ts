import { paymentsOps, PENDING_APPROVAL } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { auditInTx } from '../../platform/audit.ts';
import { issueApprovalCode } from '../auth/approval.ts';
import { accountChoices, searchHolders } from '../merchants/holders.ts';
import { createManualPayout, manualPayoutBinding } from './service.ts';

export function paymentsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, paymentsOps.searchMerchant, async ({ input, auth }) => ({
    data: await searchHolders(deps.db, auth.scope, input.search),
  }));

  route(app, paymentsOps.merchantAccounts, ({ input, auth }) => accountChoices(deps.db, auth, input.id));

  route(app, paymentsOps.requestCode, ({ input, auth }) =>
    issueApprovalCode(
      deps,
      auth.user,
      'manual_payout',
      manualPayoutBinding(input.amount, input.obol_id),
      `a payout of ${(input.amount / 100).toFixed(2)} EUR to wallet ${input.obol_id}`,
    ),
  );

  route(app, paymentsOps.createPayout, async ({ input, auth, req, reply }) => {
    const r = await createManualPayout(deps, auth, input, async (tx, payout) => {
      req.audit.targetType = 'payout';
      req.audit.targetId = payout.id;
      req.audit.after = payout;
      await auditInTx(tx, req, payout.status === PENDING_APPROVAL ? 202 : 201);
    });
    // waiting for a second person (a retry answers the same)
    if (r.approval_id) reply.status(202);
    return r;
  });
}
