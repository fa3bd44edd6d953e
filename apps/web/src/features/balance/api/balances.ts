import { ledgerOps } from '@obol/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The merchants (with their brands) and brands whose balances the caller may see, matching a search. */
export const balanceHoldersQuery = (search: string) =>
  queryOptions({
    queryKey: ['balance-holders', search],
    queryFn: () => call(ledgerOps.balanceHolders, { search }),
    placeholderData: keepPreviousData,
  });

/** A holder's payout, pay-in and CLP balances (id 0: the Fee Account, for the Admin). */
export const holderBalancesQuery = (id: number) =>
  queryOptions({ queryKey: ['holder-balances', id], queryFn: () => call(ledgerOps.holderBalances, { id }) });
