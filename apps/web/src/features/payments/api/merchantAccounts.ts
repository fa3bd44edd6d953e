import { paymentsOps } from '@obol/contract';
import { queryOptions, skipToken } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The payout accounts of a merchant or brand, and its fee. */
export const merchantAccounts = (holder: { id: number; parent_id: number | null }) =>
  call(paymentsOps.merchantAccounts, { id: holder.id, parent_id: holder.parent_id });

/** Holder 0: the Fee Account, which the Admin may pay from (on behalf of the merchant or brand chosen). */
export const FEE_ACCOUNT_HOLDER = { id: 0, parent_id: null };

/** The accounts of the chosen holder (nothing is asked before one is chosen). */
export const merchantAccountsQuery = (holder: { id: number; parent_id: number | null } | null) =>
  queryOptions({
    queryKey: ['merchant-accounts', holder?.id ?? null],
    queryFn: holder ? () => merchantAccounts(holder) : skipToken,
  });
