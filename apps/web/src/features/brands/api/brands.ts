import { brandOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type BrandsFilters = InputOf<typeof brandOps.brands>;

/** A page of the brands the caller may see, by name, with the counters of all of them. */
export const brandsQuery = (filters: BrandsFilters) =>
  queryOptions({ queryKey: ['brands', filters], queryFn: () => call(brandOps.brands, filters) });
