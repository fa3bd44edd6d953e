import { usersOps } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The roles the caller may give. */
export const allUserRoles = () => call(usersOps.allUserRoles);
export const allUserRolesQuery = () =>
  queryOptions({ queryKey: ['all-user-roles'], queryFn: allUserRoles, staleTime: 5 * 60_000 });
