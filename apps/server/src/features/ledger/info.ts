import type { AccountBalanceResponse, AccountInfo } from '@obol/contract';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { FEE_ACCOUNT_REFERENCE, feeAccount, findAccountInScope, holderAccounts } from './accounts.ts';
import type { Holders } from './holders.ts';

/**
 * The caller's own accounts: a merchant or brand its payout, pay-in and CLP accounts; a merchant-side user
 * its merchant's; staff the platform's Fee Account.
 */
export async function accountInfoFor(db: Executor, s: Scope): Promise<AccountInfo> {
  const ownerId = s.kind === 'brand' ? s.brandId : s.kind === 'merchant' ? s.merchantId : null;
  if (ownerId !== null) {
    const a = await holderAccounts(db, ownerId);
    return {
      account_id: a.payout?.accountId ?? null,
      account_reference: a.payout?.accountReference ?? null,
      balance: a.payout?.balance ?? 0,
      payin_account_id: a.payin?.accountId ?? null,
      payin_balance: a.payin?.balance ?? 0,
      clp_account_id: a.clp?.accountId ?? null,
      clp_balance: a.clp?.balance ?? 0,
    };
  }
  if (s.kind === 'all') {
    const fee = await feeAccount(db);
    return {
      account_id: fee.accountId,
      account_reference: FEE_ACCOUNT_REFERENCE,
      balance: fee.balance,
      payin_account_id: null,
      payin_balance: 0,
      clp_account_id: null,
      clp_balance: 0,
    };
  }
  return {
    account_id: null,
    account_reference: null,
    balance: 0,
    payin_account_id: null,
    payin_balance: 0,
    clp_account_id: null,
    clp_balance: 0,
  };
}

/**
 * The balance of an account in the scope, with its holder's fee in percent; undefined for an account outside
 * the scope, exactly as for none.
 */
export async function accountBalanceIn(
  db: Executor,
  s: Scope,
  ref: { accountReference?: string; accountId?: string },
  holders: Pick<Holders, 'under' | 'feeBpsOf'>,
): Promise<AccountBalanceResponse | undefined> {
  const account = await findAccountInScope(db, s, ref, holders.under);
  if (!account) return undefined;
  const feeBps = account.ownerId === null ? 0 : await holders.feeBpsOf(db, account.ownerId);
  return {
    balance: account.balance,
    fee: feeBps / 100,
    account_id: account.accountId,
    account_reference: account.accountReference,
    currency: account.currency,
  };
}
