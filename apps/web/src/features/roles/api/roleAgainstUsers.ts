import { rolesOps, type RoleName } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { roleKeys } from './userWithCount.ts';

/** A role's permissions grouped by screen. */
export const roleAgainstUsers = (role: RoleName) => call(rolesOps.roleAgainstUsers, { role });

export const roleScreensQuery = (role: RoleName) =>
  queryOptions({ queryKey: roleKeys.screens(role), queryFn: () => roleAgainstUsers(role), staleTime: 0 });
