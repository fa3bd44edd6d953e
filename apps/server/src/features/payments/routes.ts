import { createPayoutRequest, INT4_MAX, requestCodeRequest, wholeNumber } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { auditInTx } from '../../platform/audit.ts';
import { issueApprovalCode } from '../auth/approval.ts';
import { FEE_ACCOUNT_REFERENCE, platformAccountId } from '../ledger/accounts.ts';
import { accounts } from '../ledger/tables.ts';
import { findHolderInScope, searchHolders } from './holders.ts';
import { createManualPayout, manualPayoutBinding } from './service.ts';

export function paymentsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, {
    method: 'POST',
    url: '/api/search-merchant',
    access: 'User can view payments',
    input: z.object({ search: z.string().trim().max(100).optional().default('') }),
    handler: async ({ input, auth }) => ({ data: await searchHolders(deps.db, auth.scope, input.search) }),
  });

  route(app, {
    method: 'POST',
    url: '/api/merchant-accounts',
    access: 'User can view payments',
    input: z.object({
      id: wholeNumber('id', 0, INT4_MAX),
      parent_id: wholeNumber('parent_id', 0, INT4_MAX).nullable().optional(),
    }),
    handler: async ({ input, auth }) => {
      const data: { merchant_name: string; account_id: string; account_reference: string; balance: number }[] = [];
      if (input.id === 0) {
        // the Fee Account, for the Admin
        if (auth.user.role !== 'Admin') throw notFound("Merchant/Brand doesn't exist");
        const [fee] = await deps.db
          .select()
          .from(accounts)
          .where(eq(accounts.id, await platformAccountId(deps.db, 'fee')));
        data.push({
          merchant_name: 'Fee Account',
          account_id: fee.accountId,
          account_reference: FEE_ACCOUNT_REFERENCE,
          balance: fee.balance,
        });
        return { data };
      }
      const holder = await findHolderInScope(deps.db, auth.scope, input.id);
      if (!holder) throw notFound("Merchant/Brand doesn't exist");
      const rows = await deps.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.ownerId, holder.id), eq(accounts.kind, 'payout')));
      for (const a of rows)
        data.push({
          merchant_name: holder.name,
          account_id: a.accountId,
          account_reference: a.accountReference,
          balance: a.balance,
        });
      return { data, fee: holder.feeBps / 100 };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/request-code',
    access: 'User can able to issue a transfer on behalf of merchant',
    input: requestCodeRequest,
    audit: 'payout.request-code',
    handler: async ({ input, auth }) =>
      issueApprovalCode(
        deps,
        auth.user,
        'manual_payout',
        manualPayoutBinding(input.amount, input.obol_id),
        `a payout of ${(input.amount / 100).toFixed(2)} EUR to wallet ${input.obol_id}`,
      ),
  });

  route(app, {
    method: 'POST',
    url: '/api/create-payout',
    access: 'User can able to issue a transfer on behalf of merchant',
    input: createPayoutRequest,
    audit: 'payout.create',
    handler: async ({ input, auth, req, reply }) => {
      const result = await createManualPayout(deps, auth, { ...input, amount: input.amount }, async (tx, payout) => {
        req.audit.targetType = 'payout';
        req.audit.targetId = payout.id;
        req.audit.after = payout;
        await auditInTx(tx, req, 201);
      });
      return reply.status(201).send(result);
    },
  });
}
