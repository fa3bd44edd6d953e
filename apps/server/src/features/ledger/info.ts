import type { AccountInfo } from '@obol/contract';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { FEE_ACCOUNT_REFERENCE, holderAccounts, platformAccountId } from './accounts.ts';
import { accounts } from './tables.ts';
import { eq } from 'drizzle-orm';

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
    const feeId = await platformAccountId(db, 'fee');
    const [fee] = await db.select().from(accounts).where(eq(accounts.id, feeId));
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
