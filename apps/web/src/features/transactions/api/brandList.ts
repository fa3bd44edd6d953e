import { transactionOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The brands the caller may filter by. */
export const brandList = () => call(transactionOps.brandList);

/** The brand list's query: it seldom changes, so it is kept a minute. */
export const brandListQuery = () => queryOptions({ queryKey: ['brand-list'], queryFn: brandList, staleTime: 60_000 });
