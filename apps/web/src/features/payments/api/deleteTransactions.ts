import { batchOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { batchAmountKeys } from './batchAmount.ts';
import { stagedKeys } from './stagedTransactions.ts';

/** Deletes several staged rows of a Pending batch. */
export const deleteTransactions = (input: InputOf<typeof batchOps.deleteTransactions>) =>
  call(batchOps.deleteTransactions, input);

/** Invalidates the staged rows and the batch total. */
export function useDeleteTransactions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTransactions,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: stagedKeys.all });
      void qc.invalidateQueries({ queryKey: batchAmountKeys.all });
    },
  });
}
