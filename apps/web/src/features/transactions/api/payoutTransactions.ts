import { transactionOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

type Input = InputOf<typeof transactionOps.payoutTransactions>;

/** A page of the payouts the filters select. */
export const payoutTransactions = (input: Input) => call(transactionOps.payoutTransactions, input);

/** The payout list's query: one cache entry per request. */
export const payoutTransactionsQuery = (input: Input) =>
  queryOptions({ queryKey: ['payout-transactions', input], queryFn: () => payoutTransactions(input) });
