import { activityOps, FILTER_MSG, verifyMessage } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { dayRange, today } from '../../platform/dates.ts';
import type { Deps } from '../../platform/deps.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { verifyChain } from './chain.ts';
import { listLogs } from './repo.ts';

export function activityRoutes(app: FastifyInstance, deps: Deps) {
  route(app, activityOps.getLogs, async ({ input, auth }) => {
    if (input.date && input.date > today(input.tz)) throw badRequest(FILTER_MSG.dateFuture, 'date');
    const range = input.date ? dayRange(input.date, input.date, input.tz) : undefined;
    const page = await listLogs(deps.db, auth.scope, { page: input.page, perPage: input.per_page, range });
    return { data: [page] };
  });

  route(app, activityOps.verifyLogs, async ({ auth, req }) => {
    // the chain is the whole platform's: its length and breaks are for staff to see
    if (auth.scope.kind !== 'all') throw forbidden();
    const result = await verifyChain(deps.db);
    const message = verifyMessage(result);
    req.audit.targetType = 'activity_log';
    req.audit.after = result;
    req.audit.detail = message;
    return { message: [message], ...result };
  });
}
