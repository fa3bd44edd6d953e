import { FEE_MSG, feeOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { auditInTx } from '../../platform/audit.ts';
import type { Deps } from '../../platform/deps.ts';
import { route } from '../../platform/http.ts';
import { feeIncome } from '../ledger/income.ts';
import { changeFee, feeHistory, listFees } from '../users/fees.ts';

export function feesRoutes(app: FastifyInstance, deps: Deps) {
  route(app, feeOps.feeList, ({ input }) =>
    listFees(deps.db, { page: input.page, perPage: input.per_page, search: input.search }),
  );

  route(app, feeOps.updateFee, ({ input, auth, req }) =>
    deps.db.transaction(async (tx) => {
      const change = await changeFee(tx, auth.user.id, input.id, input.fee, input.reason);
      req.audit.targetType = 'user';
      req.audit.targetId = input.id;
      req.audit.before = change.before;
      req.audit.after = change.after;
      await auditInTx(tx, req, 200);
      return { message: [FEE_MSG.updated], fee: change.after.fee };
    }),
  );

  route(app, feeOps.feeHistory, async ({ input }) => ({ data: await feeHistory(deps.db, input.id) }));

  route(app, feeOps.feeIncome, ({ input }) =>
    feeIncome(deps.db, { group: input.group, start: input.start_date, end: input.end_date }),
  );
}
