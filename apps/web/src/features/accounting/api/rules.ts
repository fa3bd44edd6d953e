import { accountingOps, type InputOf } from '@obol/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type RulesFilters = InputOf<typeof accountingOps.rules>;

/** A page of the rules (10), by rule or company name and rule type, with the counters. */
export const rulesQuery = (filters: RulesFilters) =>
  queryOptions({ queryKey: ['accounting-rules', filters], queryFn: () => call(accountingOps.rules, filters) });

/** A change of the rules: the list and its counters are read again. */
function useRulesMutation<I, R>(fn: (input: I) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['accounting-rules'] }),
  });
}

export const useCreateRule = () =>
  useRulesMutation((input: InputOf<typeof accountingOps.createRule>) => call(accountingOps.createRule, input));
export const useUpdateRuleStatus = () =>
  useRulesMutation((input: InputOf<typeof accountingOps.updateRuleStatus>) =>
    call(accountingOps.updateRuleStatus, input),
  );
export const useDeleteRule = () =>
  useRulesMutation((input: InputOf<typeof accountingOps.deleteRule>) => call(accountingOps.deleteRule, input));
