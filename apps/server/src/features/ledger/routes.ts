import { ledgerOps } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http.ts';
import { holderBalances } from './balances.ts';
import type { Holders } from './holders.ts';
import { accountBalanceIn, accountInfoFor } from './info.ts';
import { trialBalance } from './service.ts';

/** `holders` comes from the features above the ledger, handed in by the app. */
export function ledgerRoutes(app: FastifyInstance, deps: Deps, holders: Holders) {
  route(app, ledgerOps.trialBalance, () => trialBalance(deps.db));

  route(app, ledgerOps.loginUserAccount, async ({ auth }) => {
    const info = await accountInfoFor(deps.db, auth.scope);
    return { ...info, id: info.account_id };
  });

  route(app, ledgerOps.accountBalance, async ({ input, auth }) => {
    // 0 and '' mean "no account id" (the web sends 0 with a reference)
    const id = input.account_id;
    const accountId = id === undefined || id === 0 || id === '0' || id === '' ? undefined : String(id);
    const balance = await accountBalanceIn(
      deps.db,
      auth.scope,
      {
        accountReference: input.account_reference || undefined,
        accountId,
      },
      holders,
    );
    if (!balance) throw notFound('Account not registered');
    return balance;
  });

  route(app, ledgerOps.balanceHolders, async ({ input, auth }) => ({
    data: await holders.search(deps.db, auth.scope, input.search),
  }));

  route(app, ledgerOps.holderBalances, ({ input, auth }) => holderBalances(deps.db, auth, input.id, holders));
}
