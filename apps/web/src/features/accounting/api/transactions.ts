import { accountingOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

export type AccountingTransactionsFilters = InputOf<typeof accountingOps.accountingTransactions>;

/** A page of the 2D transactions (transfers and rule runs). */
export const accountingTransactionsQuery = (filters: AccountingTransactionsFilters) =>
  queryOptions({
    queryKey: ['accounting-transactions', filters],
    queryFn: () => call(accountingOps.accountingTransactions, filters),
  });

/** Starts a file of the 2D transactions; a job writes it into the 2D downloads. */
export function useExportAccountingTransactions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof accountingOps.exportAccountingTransactions>) =>
      call(accountingOps.exportAccountingTransactions, input),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
