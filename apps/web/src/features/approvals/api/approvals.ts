import { approvalOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

type ListInput = InputOf<typeof approvalOps.approvals>;

/** A page of what waits for a second person (or was decided): the payments' approvals, or the 2D transfers'. */
export const approvalsQuery = (input: ListInput) =>
  queryOptions({ queryKey: ['approvals', input], queryFn: () => call(approvalOps.approvals, input) });

/** How many wait for the caller (not their own): the navigation's badge. */
export const pendingApprovalsQuery = (group: 'payments' | '2d') =>
  queryOptions({
    queryKey: ['approvals', 'pending', group],
    queryFn: async () => (await call(approvalOps.approvals, { group, status: 'Pending', per_page: 1 })).pending,
  });

export const requestApprovalCode = (id: number) => call(approvalOps.requestApprovalCode, { id });

/** Approve with the code, or reject with a reason: the list, the badge and the movement's lists change. */
export function useDecide() {
  const client = useQueryClient();
  const done = () => client.invalidateQueries({ queryKey: ['approvals'] });
  return {
    approve: useMutation({
      mutationFn: (input: InputOf<typeof approvalOps.approve>) => call(approvalOps.approve, input),
      onSuccess: done,
    }),
    reject: useMutation({
      mutationFn: (input: InputOf<typeof approvalOps.reject>) => call(approvalOps.reject, input),
      onSuccess: done,
    }),
  };
}
