import { batchOps, type InputOf } from '@obol/contract';
import { call } from '../../../lib/api.ts';

/** The total of the executable rows of a batch and the batch fee on it, in cents. */
export const batchAmount = (input: InputOf<typeof batchOps.batchAmount>) => call(batchOps.batchAmount, input);

export const batchAmountKeys = {
  /** every batch: what a change to staged rows invalidates */
  all: ['batch-amount'] as const,
  of: (batchId: string) => ['batch-amount', batchId] as const,
};

export const batchAmountQuery = (batchId: string, accountReference?: string) => ({
  queryKey: batchAmountKeys.of(batchId),
  queryFn: () => batchAmount({ batch_id: batchId, account_reference: accountReference }),
});
