import { FEE_MSG, feeOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { auditInTx } from '../../platform/audit.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden } from '../../platform/errors.ts';
import { route, type AuthContext } from '../../platform/http.ts';
import { feeIncome } from '../ledger/income.ts';
import { changeFee, feeHistory, listFees } from './fees.ts';

/**
 * The Fee Module is the platform's pricing: staff's only, whatever permissions a role editor gives a merchant-side
 * role (every merchant's fee and the Fee Account's income are not a tenant's to see or change).
 */
function staffOnly(auth: AuthContext) {
  if (auth.scope.kind !== 'all') throw forbidden('The Fee Module is for Obol staff');
}

export function feesRoutes(app: FastifyInstance, deps: Deps) {
  route(app, feeOps.feeList, ({ input, auth }) => {
    staffOnly(auth);
    return listFees(deps.db, { page: input.page, perPage: input.per_page, search: input.search });
  });

  route(app, feeOps.updateFee, ({ input, auth, req }) => {
    staffOnly(auth);
    return deps.db.transaction(async (tx) => {
      const change = await changeFee(tx, auth.user.id, input.id, input.fee, input.reason);
      req.audit.targetType = 'user';
      req.audit.targetId = input.id;
      req.audit.before = change.before;
      req.audit.after = change.after;
      await auditInTx(tx, req, 200);
      return { message: [FEE_MSG.updated], fee: change.after.fee };
    });
  });

  route(app, feeOps.feeHistory, async ({ input, auth }) => {
    staffOnly(auth);
    return { data: await feeHistory(deps.db, input.id) };
  });

  route(app, feeOps.feeIncome, ({ input, auth }) => {
    staffOnly(auth);
    return feeIncome(deps.db, { group: input.group, start: input.start_date, end: input.end_date });
  });
}
