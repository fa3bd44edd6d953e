import { feeOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type FeeListFilters = InputOf<typeof feeOps.feeList>;
export type FeeIncomeFilters = InputOf<typeof feeOps.feeIncome>;

export const feeListQuery = (filters: FeeListFilters) =>
  queryOptions({ queryKey: ['fee-list', filters], queryFn: () => call(feeOps.feeList, filters) });

export const feeHistoryQuery = (id: number) =>
  queryOptions({ queryKey: ['fee-history', id], queryFn: () => call(feeOps.feeHistory, { id }) });

export const feeIncomeQuery = (filters: FeeIncomeFilters) =>
  queryOptions({ queryKey: ['fee-income', filters], queryFn: () => call(feeOps.feeIncome, filters) });

export const updateFee = (input: InputOf<typeof feeOps.updateFee>) => call(feeOps.updateFee, input);
