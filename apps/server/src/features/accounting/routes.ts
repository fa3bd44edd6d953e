import { accountingOps } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { createdOrHeld } from '../../platform/audit.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { exportStarted, startExport } from '../downloads/service.ts';
import {
  accountsOfCompany,
  activeCompany,
  beneficiariesOfCompany,
  companyOptions,
  toBeneficiary,
  toCompanyAccount,
} from './accounts.ts';
import { listCompanies, registerCompany, revealCompanyKey, setCompanyStatus } from './companies.ts';
import { approveConsent, consentDetails } from './consent.ts';
import { ACCOUNTING_EXPORT } from './exports.ts';
import { createRule, deleteRule, listRules, setRuleStatus } from './rules.ts';
import { listAccountingTransactions } from './list.ts';
import { createAccountingTransfer, requestAccountingCode } from './transfers.ts';

/** The accounting module (2D): companies, 2D payments, rules and 2D transactions (document 2, sections 2.6-2.9). */
export function accountingRoutes(app: FastifyInstance, deps: Deps) {
  route(app, accountingOps.companies, ({ input }) => listCompanies(deps.db, input));

  route(app, accountingOps.registerCompany, async ({ input, auth, req }) => {
    const { company, message } = await registerCompany(deps, auth, input);
    req.audit.targetType = 'company';
    req.audit.targetId = company.id;
    req.audit.after = { name: company.name, email: company.email };
    return { message };
  });

  /** a company or rule switched on or off: the activity names it and its new status */
  const switchStatus = async (
    req: FastifyRequest,
    targetType: string,
    input: { id: number; status: number },
    set: (db: Executor, id: number, status: number) => Promise<{ message: string[] }>,
  ) => {
    req.audit.targetType = targetType;
    req.audit.targetId = input.id;
    req.audit.after = { status: input.status };
    const { message } = await set(deps.db, input.id, input.status);
    return { message };
  };

  route(app, accountingOps.updateCompanyStatus, ({ input, req }) =>
    switchStatus(req, 'company', input, setCompanyStatus),
  );

  route(app, accountingOps.companyApiKey, async ({ input, auth, req, reply }) => {
    req.audit.targetType = 'company';
    req.audit.targetId = input.id;
    const { company, answer } = await revealCompanyKey(deps, auth, input, req.ip);
    req.audit.detail = `API key of ${company.name} revealed`;
    reply.header('cache-control', 'no-store');
    return answer;
  });

  route(app, accountingOps.companyList, () => companyOptions(deps.db));

  route(app, accountingOps.companyAccounts, async ({ input }) => {
    const company = await activeCompany(deps.db, input.companyId);
    return { accounts: (await accountsOfCompany(deps.db, company.id)).map(toCompanyAccount) };
  });

  route(app, accountingOps.companyBeneficiaries, async ({ input }) => {
    const company = await activeCompany(deps.db, input.companyId);
    const [beneficiaries, list] = await Promise.all([
      beneficiariesOfCompany(deps.db, company.id),
      accountsOfCompany(deps.db, company.id),
    ]);
    return { beneficiaries: beneficiaries.map(toBeneficiary), accounts: list.map(toCompanyAccount) };
  });

  route(app, accountingOps.consentDetails, async ({ input, req }) => {
    await throttle(deps, 'consent', req.ip);
    return consentDetails(deps, input.token);
  });

  route(app, accountingOps.consentApprove, async ({ input, req }) => {
    await throttle(deps, 'consent', req.ip);
    const { company, message } = await approveConsent(deps, input.token);
    req.audit.targetType = 'company';
    req.audit.targetId = company.id;
    return { message };
  });

  route(app, accountingOps.accountingOtp, ({ input, auth }) => requestAccountingCode(deps, auth, input));

  // may wait for a second 2D admin
  route(app, accountingOps.accountingTransfer, ({ input, auth, req, reply }) =>
    createdOrHeld(req, reply, { type: 'accounting_transaction', heldStatus: 'PENDING_APPROVAL' }, (record) =>
      createAccountingTransfer(deps, auth, input, record),
    ),
  );

  route(app, accountingOps.rules, ({ input }) => listRules(deps.db, input));

  route(app, accountingOps.createRule, async ({ input, auth, req }) => {
    const { rule, message } = await createRule(deps, auth, input);
    req.audit.targetType = 'accounting_rule';
    req.audit.targetId = rule.id;
    req.audit.after = rule;
    return { message };
  });

  route(app, accountingOps.updateRuleStatus, ({ input, req }) =>
    switchStatus(req, 'accounting_rule', input, setRuleStatus),
  );

  route(app, accountingOps.deleteRule, async ({ input, req }) => {
    req.audit.targetType = 'accounting_rule';
    req.audit.targetId = input.id;
    const { rule, message } = await deleteRule(deps.db, input.id);
    req.audit.before = rule;
    return { message };
  });

  route(app, accountingOps.accountingTransactions, ({ input }) => listAccountingTransactions(deps.db, input));

  route(app, accountingOps.exportAccountingTransactions, async ({ input, auth, req }) => {
    await throttle(deps, 'export', auth.user.id);
    return exportStarted(req, await startExport(deps, auth, ACCOUNTING_EXPORT, input));
  });
}
