import { z } from 'zod';
import { messageAnswer, operation, pageOf, timestamp } from './operation.ts';
import { pageField, perPageField, wholeNumber } from './params.ts';
import { ROLES } from './roles.ts';

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

export const userDetailRequest = z.object({ id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER) });

/** A user as the users screens show it. */
export const userRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.object({ name: z.enum(ROLES) })),
  is_active: z.enum(['0', '1']),
  created_at: timestamp,
  last_login: timestamp.nullable(),
  parent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  remember_token_status: z.enum(['Verified', 'Not verified']),
  resend_mail: z.union([z.literal(0), z.literal(1)]),
  two_fa_as_otp: z.boolean(),
});
export type UserRow = z.output<typeof userRow>;

/** A page of users, with the counters of every user the caller may see (whatever the filters). */
export const usersListResponse = z.object({
  users: pageOf(userRow),
  count: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type UsersListResponse = z.output<typeof usersListResponse>;

export const userDetailResponse = z.object({ user: userRow });
export type UserDetailResponse = z.output<typeof userDetailResponse>;

// ---- the calls ----

const TAG = 'Users';
export const usersOps = {
  users: operation({
    id: 'users',
    method: 'POST',
    path: '/api/users',
    tag: TAG,
    summary: 'A page of the users the caller may see (staff all, a merchant its team), with counters',
    access: 'User can view users',
    input: usersListRequest,
    output: usersListResponse,
  }),
  getUserDetail: operation({
    id: 'getUserDetail',
    method: 'POST',
    path: '/api/get-user-detail',
    tag: TAG,
    summary: "One user in the caller's scope (404 for another tenant's user, as for none)",
    access: 'User can view users',
    input: userDetailRequest,
    output: userDetailResponse,
  }),
  deleteUser: operation({
    id: 'deleteUser',
    method: 'POST',
    path: '/api/delete-user',
    tag: TAG,
    summary: "Deletes a user in the caller's scope",
    access: 'User can update user details',
    audit: 'users.delete',
    input: userDetailRequest,
    output: messageAnswer,
  }),
} as const;
