import { transactionOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/** Starts a file of the payouts the filters select; a job writes it, and it shows in the downloads. */
export const exportPayoutTransactions = (input: InputOf<typeof transactionOps.exportPayoutTransactions>) =>
  call(transactionOps.exportPayoutTransactions, input);

/** The export as a mutation: a new file joins the download list. */
export function useExportPayoutTransactions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: exportPayoutTransactions,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
