import { batchOps, type InputOf } from '@obol/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** Declines a Pending batch from the batch lists; its staged rows go, so its file may be uploaded again. */
export function useClearBatch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof batchOps.clearBatch>) => call(batchOps.clearBatch, input),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: ['batches'] }),
        qc.invalidateQueries({ queryKey: ['recent-batches'] }),
      ]),
  });
}
