import { transactionOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

type Input = InputOf<typeof transactionOps.completedTransactions>;

/** A page of the completed payouts the filters select, with the fee totals of the whole selection. */
export const completedTransactions = (input: Input) => call(transactionOps.completedTransactions, input);

/** The completed list's query: one cache entry per request. */
export const completedTransactionsQuery = (input: Input) =>
  queryOptions({ queryKey: ['completed-transactions', input], queryFn: () => completedTransactions(input) });
