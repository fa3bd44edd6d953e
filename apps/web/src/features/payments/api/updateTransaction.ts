import { batchOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { batchAmountKeys } from './batchAmount.ts';
import { stagedKeys } from './stagedTransactions.ts';

/** Saves an edited staged row; the server checks it again (it may still have errors). */
export const updateTransaction = (input: InputOf<typeof batchOps.updateTransaction>) =>
  call(batchOps.updateTransaction, input);

/** Invalidates the staged rows and the batch total. */
export function useUpdateTransaction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateTransaction,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: stagedKeys.all });
      void qc.invalidateQueries({ queryKey: batchAmountKeys.all });
    },
  });
}
