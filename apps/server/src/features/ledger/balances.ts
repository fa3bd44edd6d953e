import type { HolderBalance, HolderBalancesResponse } from '@obol/contract';
import type { Executor } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { FEE_ACCOUNT_REFERENCE, feeAccount, holderAccounts, type AccountRow } from './accounts.ts';
import type { Holders } from './holders.ts';

const NO_HOLDER = "Merchant/Brand doesn't exist";
/** the order the balance screen shows a holder's accounts in */
const KINDS = ['payout', 'payin', 'clp'] as const;

const shape = (a: AccountRow): HolderBalance => ({
  kind: a.kind,
  account_id: a.accountId,
  account_reference: a.accountReference,
  balance: a.balance,
  currency: a.currency,
});

/**
 * The balance screen: a merchant's or brand's payout, pay-in and CLP balances, read in one snapshot of its rows.
 * Holder 0 is the Fee Account, for the Admin only (the spec's chooser offers it to the Admin alone). A holder
 * outside the caller's scope answers 404, as one that does not exist.
 */
export async function holderBalances(
  db: Executor,
  auth: AuthContext,
  id: number,
  holders: Pick<Holders, 'find'>,
): Promise<HolderBalancesResponse> {
  if (id === 0) {
    if (auth.user.role !== 'Admin') throw notFound(NO_HOLDER);
    const fee = await feeAccount(db);
    return { name: 'Fee Account', fee: null, account_reference: FEE_ACCOUNT_REFERENCE, data: [shape(fee)] };
  }
  const holder = await holders.find(db, auth.scope, id);
  if (!holder) throw notFound(NO_HOLDER);
  const accounts = await holderAccounts(db, holder.id);
  const data = KINDS.flatMap((k) => (accounts[k] ? [shape(accounts[k])] : []));
  return {
    name: holder.name,
    fee: holder.feeBps / 100,
    account_reference: data[0]?.account_reference ?? '',
    data,
  };
}
