import { APPROVAL_MSG, approvalOps, type ApprovalRow } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditInTx } from '../../platform/audit.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import {
  approve,
  listApprovals,
  readPolicy,
  reject,
  requestApproverCode,
  writePolicy,
  type Releases,
} from './service.ts';

/** What app.ts hands in: each kind's release and return, and the name of a merchant or company (null: none). */
export interface ApprovalWiring {
  releases: Releases;
  holderName(db: Executor, holderType: 'merchant' | 'company', id: number): Promise<string | null>;
}

/** Four eyes on large amounts (issue 50; docs/decisions/037-four-eyes-approvals.md). */
export function approvalsRoutes(app: FastifyInstance, deps: Deps, wiring: ApprovalWiring) {
  const known = async (holderType: 'merchant' | 'company', id: number) => {
    const name = await wiring.holderName(deps.db, holderType, id);
    if (name === null) throw notFound(holderType === 'merchant' ? "Merchant doesn't exist" : 'Company not found');
    return name;
  };

  route(app, approvalOps.approvalPolicy, async ({ input }) => {
    await known(input.holder_type, input.holder_id);
    return { policy: await readPolicy(deps.db, input.holder_type, input.holder_id) };
  });

  route(app, approvalOps.setApprovalPolicy, async ({ input, auth, req }) => {
    const name = await known(input.holder_type, input.holder_id);
    const { before, after } = await writePolicy(
      deps.db,
      input.holder_type,
      input.holder_id,
      input.threshold,
      auth.user.name,
    );
    req.audit.targetType = input.holder_type;
    req.audit.targetId = input.holder_id;
    req.audit.detail = `approval threshold of ${name}`;
    req.audit.before = { threshold: before.threshold };
    req.audit.after = { threshold: after.threshold };
    return { message: [APPROVAL_MSG.policySaved], policy: after };
  });

  route(app, approvalOps.approvals, ({ input, auth }) => listApprovals(deps, auth, input));

  route(app, approvalOps.requestApprovalCode, async ({ input, auth, req }) => {
    req.audit.targetType = 'approval';
    req.audit.targetId = input.id;
    return requestApproverCode(deps, auth, input.id);
  });

  // the decision's activity record commits with the money it releases or returns
  const recordDecision = (req: FastifyRequest, verb: string) => async (tx: Tx, a: ApprovalRow) => {
    req.audit.targetType = 'approval';
    req.audit.targetId = a.id;
    req.audit.detail = `${a.kind} ${a.object_id} ${verb}`;
    req.audit.after = a;
    await auditInTx(tx, req, 200);
  };

  route(app, approvalOps.approve, async ({ input, auth, req }) => {
    const approval = await approve(deps, auth, input, wiring.releases, recordDecision(req, 'approved'));
    return { message: [APPROVAL_MSG.approved], approval };
  });

  route(app, approvalOps.reject, async ({ input, auth, req }) => {
    const approval = await reject(deps, auth, input, wiring.releases, recordDecision(req, 'rejected'));
    return { message: [APPROVAL_MSG.rejected], approval };
  });
}
