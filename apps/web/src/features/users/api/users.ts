import { usersOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export type UsersFilters = InputOf<typeof usersOps.users>;

/** A page of the users the caller may see, with the counters of all of them. */
export const users = (filters: UsersFilters) => call(usersOps.users, filters);

/** The users list, by its filters and page. */
export const usersQuery = (filters: UsersFilters) =>
  queryOptions({ queryKey: ['users', filters], queryFn: () => users(filters) });
