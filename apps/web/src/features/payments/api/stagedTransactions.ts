import { batchOps, type StagedTransactionsRequest } from '@obol/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** A page of the staged rows of a batch, with their errors per field and the counts of the whole batch. */
export const stagedTransactions = (input: StagedTransactionsRequest) => call(batchOps.stagedTransactions, input);

export const stagedKeys = {
  /** every page of every batch: what a change to staged rows invalidates */
  all: ['staged'] as const,
  page: (batchId: string, page: number) => ['staged', batchId, page] as const,
};

/** A page of the review list; the previous page stays on screen while the next one loads. */
export const stagedTransactionsQuery = (batchId: string, page: number, perPage: number) => ({
  queryKey: stagedKeys.page(batchId, page),
  queryFn: () => stagedTransactions({ batch_id: batchId, per_page: perPage, page }),
  placeholderData: keepPreviousData,
});
