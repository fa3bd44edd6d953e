import { rolesOps, USERS_BY_ROLE_PER_PAGE, type RoleName } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';
import { roleKeys } from './userWithCount.ts';

/** A page of the users holding a role. */
export const userRoles = (role: RoleName, page: number) =>
  call(rolesOps.userRoles, { role, page, per_page: USERS_BY_ROLE_PER_PAGE });

export const usersOfRoleQuery = (role: RoleName, page: number) =>
  queryOptions({ queryKey: roleKeys.users(role, page), queryFn: () => userRoles(role, page) });
