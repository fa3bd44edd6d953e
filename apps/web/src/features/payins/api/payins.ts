import { payinOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/queryKeys.ts';

type ListInput = InputOf<typeof payinOps.payinList>;
/** A page of the pay-ins of the caller's scope. */
export const payinsQuery = (input: ListInput) =>
  queryOptions({ queryKey: ['payins', input], queryFn: () => call(payinOps.payinList, input) });

/** Starts a file of the pay-in list; a job writes it into the transactions downloads. */
export function useExportPayins() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof payinOps.exportPayins>) => call(payinOps.exportPayins, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}

/** Sends the one-time code bound to refunding this pay-in (its request id). */
export const requestRefundCode = (reference: string) => call(payinOps.generateRefundCode, { reference });

/** Refunds a pay-in with its code; the pay-in list changes. */
export function usePayinRefund() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof payinOps.payinRefund>) => call(payinOps.payinRefund, input),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['payins'] }),
        client.invalidateQueries({ queryKey: ['refunds'] }),
      ]),
  });
}

type RefundListInput = InputOf<typeof payinOps.refundList>;
/** A page of the refunds of the caller's scope. */
export const refundsQuery = (input: RefundListInput) =>
  queryOptions({ queryKey: ['refunds', input], queryFn: () => call(payinOps.refundList, input) });

/** Starts a file of the refund list; a job writes it into the transactions downloads. */
export function useExportRefunds() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof payinOps.exportRefunds>) => call(payinOps.exportRefunds, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}

type RewardListInput = InputOf<typeof payinOps.payinRewards>;
/** A page of the rewards of the caller's scope. */
export const rewardsQuery = (input: Omit<RewardListInput, 'id'>) =>
  queryOptions({ queryKey: ['rewards', input], queryFn: () => call(payinOps.payinRewards, input) });

/** Pays a reward ("update reward": the same call with its id); the reward list changes. */
export function useUpdateReward() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: RewardListInput & { id: number }) => call(payinOps.payinRewards, input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['rewards'] }),
  });
}

/** Starts a file of the reward list; a job writes it into the transactions downloads. */
export function useExportRewards() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<typeof payinOps.exportPayinRewards>) => call(payinOps.exportPayinRewards, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.downloadFiles }),
  });
}
