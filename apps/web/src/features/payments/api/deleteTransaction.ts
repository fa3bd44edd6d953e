import { batchOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { batchAmountKeys } from './batchAmount.ts';
import { stagedKeys } from './stagedTransactions.ts';

/** Deletes one staged row of a Pending batch. */
export const deleteTransaction = (input: InputOf<typeof batchOps.deleteTransaction>) =>
  call(batchOps.deleteTransaction, input);

/** Invalidates the staged rows and the batch total. */
export function useDeleteTransaction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTransaction,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: stagedKeys.all });
      void qc.invalidateQueries({ queryKey: batchAmountKeys.all });
    },
  });
}
