import { z } from 'zod';
import { pageField, perPageField } from './params.ts';
import { ROLES, type RoleName } from './roles.ts';

export const pageParams = { per_page: perPageField(), page: pageField() };

export const usersListRequest = z.object({
  ...pageParams,
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
  roles: z
    .union([z.enum(ROLES), z.literal(''), z.literal('All Roles')], { error: 'Unknown role' })
    .optional()
    .default(''),
});
export type UsersListRequest = z.input<typeof usersListRequest>;

export interface UserRow {
  id: number;
  name: string;
  email: string;
  roles: { name: RoleName }[];
  is_active: '0' | '1';
  created_at: string;
  last_login: string | null;
  parent: { id: number; name: string } | null;
  remember_token_status: 'Verified' | 'Not verified';
  resend_mail: 0 | 1;
  two_fa_as_otp: boolean;
}
export interface UsersListResponse {
  users: { data: UserRow[]; total: number };
  count: number;
  active: number;
  inactive: number;
}
