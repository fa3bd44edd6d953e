import { paymentsOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The merchants (with their brands) and brands the caller may pay out for, matching a search. */
export const searchMerchant = (search: string) => call(paymentsOps.searchMerchant, { search });

export const searchMerchantQuery = (search: string) =>
  queryOptions({ queryKey: ['search-merchant', search], queryFn: () => searchMerchant(search) });
