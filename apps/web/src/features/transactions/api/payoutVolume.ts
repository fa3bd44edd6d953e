import { transactionOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type PayoutVolumeInput = InputOf<typeof transactionOps.payoutVolume>;

/** Per day and status group, the count and amount of the payouts the list's filters select. */
export const payoutVolume = (input: PayoutVolumeInput) => call(transactionOps.payoutVolume, input);

/** The chart's query: one cache entry per set of filters. */
export const payoutVolumeQuery = (input: PayoutVolumeInput) =>
  queryOptions({ queryKey: ['payout-volume', input], queryFn: () => payoutVolume(input) });
