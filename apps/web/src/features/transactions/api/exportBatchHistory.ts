import { transactionOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

/** Starts a file of the rows of one batch; a job writes it, and it shows in the downloads. */
export const exportBatchHistory = (input: InputOf<typeof transactionOps.exportBatchHistory>) =>
  call(transactionOps.exportBatchHistory, input);

/** The export as a mutation: a new file joins the download list. */
export function useExportBatchHistory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: exportBatchHistory,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
