import { accountingOps, MSG } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { auditInTx } from '../../platform/audit.ts';
import { route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { startExport } from '../downloads/service.ts';
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

  route(app, accountingOps.updateCompanyStatus, async ({ input, req }) => {
    req.audit.targetType = 'company';
    req.audit.targetId = input.id;
    req.audit.after = { status: input.status };
    const { message } = await setCompanyStatus(deps.db, input.id, input.status);
    return { message };
  });

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

  route(app, accountingOps.accountingTransfer, async ({ input, auth, req, reply }) => {
    const r = await createAccountingTransfer(deps, auth, input, async (tx, transaction) => {
      req.audit.targetType = 'accounting_transaction';
      req.audit.targetId = transaction.id;
      req.audit.after = transaction;
      await auditInTx(tx, req, transaction.status === 'PENDING_APPROVAL' ? 202 : 201);
    });
    // waiting for a second 2D admin (a retry answers the same)
    if (r.approval_id) reply.status(202);
    return r;
  });

  route(app, accountingOps.rules, ({ input }) => listRules(deps.db, input));

  route(app, accountingOps.createRule, async ({ input, auth, req }) => {
    const { rule, message } = await createRule(deps, auth, input);
    req.audit.targetType = 'accounting_rule';
    req.audit.targetId = rule.id;
    req.audit.after = rule;
    return { message };
  });

  route(app, accountingOps.updateRuleStatus, async ({ input, req }) => {
    req.audit.targetType = 'accounting_rule';
    req.audit.targetId = input.id;
    req.audit.after = { status: input.status };
    const { message } = await setRuleStatus(deps.db, input.id, input.status);
    return { message };
  });

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
    const file = await startExport(deps, auth, ACCOUNTING_EXPORT, input);
    req.audit.targetType = 'download_file';
    req.audit.targetId = file.id;
    return { message: [MSG.processingBackground], file };
  });
}
