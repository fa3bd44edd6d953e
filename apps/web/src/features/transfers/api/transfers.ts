import { ledgerOps, transferOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/** The caller's own accounts (a merchant's or brand's payout, pay-in and CLP; staff the Fee Account). */
export const ownAccountsQuery = () =>
  queryOptions({ queryKey: ['login-user-account'], queryFn: () => call(ledgerOps.loginUserAccount) });

/** The balance of one account in the caller's scope. */
export const transferBalanceQuery = (accountId: string) =>
  queryOptions({
    queryKey: ['transfer-balance', accountId],
    queryFn: () => call(ledgerOps.accountBalance, { account_id: accountId }),
    enabled: !!accountId,
  });

/** Checks the form and sends the one-time code bound to this transfer ("request transfer code"). */
export const sendOtp = (input: InputOf<typeof transferOps.sendOtp>) => call(transferOps.sendOtp, input);

/** A transfer approved by its code; the account's balance and the transfer list change. */
export function useAmountTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof transferOps.amountTransfer>) => call(transferOps.amountTransfer, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['transfers'] }),
  });
}

type ListInput = InputOf<typeof transferOps.transferList>;
/** A page of the transfers of the caller's scope. */
export const transfersQuery = (input: ListInput) =>
  queryOptions({ queryKey: ['transfers', input], queryFn: () => call(transferOps.transferList, input) });

/** Starts a file of the transfer list; a job writes it into the transactions downloads. */
export function useExportTransfers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof transferOps.exportTransfers>) => call(transferOps.exportTransfers, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}

/** Merchants Payout's chooser: the merchants and brands in scope with their account ids. */
export const merchantWithAccountQuery = (search: string) =>
  queryOptions({
    queryKey: ['merchant-with-account', search],
    queryFn: () => call(transferOps.merchantWithAccount, { search }),
  });
