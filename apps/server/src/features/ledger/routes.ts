import type { AccountInfo } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { users } from '../users/tables.ts';
import { accountInfoFor } from './info.ts';
import { findAccountInScope } from './accounts.ts';
import { trialBalance } from './service.ts';

export function ledgerRoutes(app: FastifyInstance, deps: Deps) {
  route(app, {
    method: 'POST',
    url: '/api/trial-balance',
    access: { roles: ['Admin', 'Accountant'] },
    handler: async () => trialBalance(deps.db),
  });

  route(app, {
    method: 'POST',
    url: '/api/login-user-account',
    access: 'authenticated',
    handler: async ({ auth }): Promise<AccountInfo & { id: string | null }> => {
      const info = await accountInfoFor(deps.db, auth.scope);
      return { ...info, id: info.account_id };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/account-balance',
    access: [
      'User can view payments',
      'User can view balance screen',
      'User can view balance',
      'User can view merchant balance',
    ],
    input: z
      .object({
        account_reference: z.string().trim().max(100).optional().default(''),
        account_id: z.union([z.string().trim().max(100), z.number()]).optional(),
      })
      .refine((v) => v.account_reference || v.account_id, {
        message: 'This field is required',
        path: ['account_reference'],
      }),
    handler: async ({ input, auth }) => {
      const accountId =
        input.account_id === undefined || input.account_id === 0 || input.account_id === '0' || input.account_id === ''
          ? undefined
          : String(input.account_id);
      const account = await findAccountInScope(deps.db, auth.scope, {
        accountReference: input.account_reference || undefined,
        accountId,
      });
      if (!account) throw notFound('Account not registered');
      let fee = 0;
      if (account.ownerId !== null) {
        const [owner] = await deps.db.select({ feeBps: users.feeBps }).from(users).where(eq(users.id, account.ownerId));
        fee = (owner?.feeBps ?? 0) / 100;
      }
      return {
        balance: account.balance,
        fee,
        account_id: account.accountId,
        account_reference: account.accountReference,
        currency: account.currency,
      };
    },
  });
}
