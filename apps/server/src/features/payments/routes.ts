import { paymentsOps, PENDING_APPROVAL } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { createdOrHeld } from '../../platform/audit.ts';
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

  route(app, paymentsOps.createPayout, ({ input, auth, req, reply }) =>
    createdOrHeld(req, reply, { type: 'payout', heldStatus: PENDING_APPROVAL }, (record) =>
      createManualPayout(deps, auth, input, record),
    ),
  );
}
