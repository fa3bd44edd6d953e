import { transactionOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/** Starts a file of the completed payouts the filters select; a job writes it, and it shows in the downloads. */
export const exportCompletedTransactions = (input: InputOf<typeof transactionOps.exportCompletedTransactions>) =>
  call(transactionOps.exportCompletedTransactions, input);

/** The export as a mutation: a new file joins the download list. */
export function useExportCompletedTransactions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: exportCompletedTransactions,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
