import { z } from 'zod';
import { email } from './auth.ts';
import { MSG } from './messages.ts';
import { messageAnswer, messages, operation, pageOf, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import { MERCHANT_SIDE_ROLES, ROLES, STAFF_ASSIGNABLE_ROLES, type RoleName } from './roles.ts';

const pageParams = { per_page: perPageField(), page: pageField() };

const usersListRequest = z.object({
  ...pageParams,
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
  roles: z
    .union([z.enum(ROLES), z.literal(''), z.literal('All Roles')], { error: 'Unknown role' })
    .optional()
    .default(''),
});

const userDetailRequest = z.object({ id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER) });

const role = (field: string) =>
  z.enum(ROLES, { error: (i) => (i.input === undefined ? MSG.required : `${field} must be a known role`) });

/** Invite user: name, e-mail and role; parent_id (a merchant) when staff invite a merchant-side role. */
const inviteUserRequest = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, 'Name must be at most 100 characters'),
  email,
  rolename: role('rolename'),
  parent_id: wholeNumber('parent_id', 1, INT4_MAX).nullish(),
});

const inviteUserResponse = z.object({ message: messages, id: z.number().int() });

/** Activate (1) or deactivate (0) a user; `level_type` is 'User' here (brands are switched on the Merchants screen). */
const changeUserStatusRequest = z.object({
  id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER),
  status: z.union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.boolean()], {
    error: (i) => (i.input === undefined ? MSG.required : 'status must be 0 or 1'),
  }),
  level_type: z.literal('User', { error: (i) => (i.input === undefined ? MSG.required : 'level_type must be User') }),
  parent_id: wholeNumber('parent_id', 1, Number.MAX_SAFE_INTEGER).nullish(),
});
/** Whether a status value means active. */
export const isActiveStatus = (s: z.output<typeof changeUserStatusRequest>['status']) =>
  s === 1 || s === '1' || s === true;

const updateRoleRequest = z.object({
  id: wholeNumber('id', 1, Number.MAX_SAFE_INTEGER),
  role_name: role('role_name'),
});

/** The roles the caller may give: the merchant-side set to a merchant's team, the staff set to staff. */
const allUserRolesResponse = z.object({ roles: z.array(z.enum(ROLES)) });

/** Merchants for a chooser (staff inviting a merchant-side user): id and name. */
const allMerchantsResponse = z.object({ data: z.array(z.object({ id: z.number().int(), name: z.string() })) });

/**
 * Manage user (section 6): the roles a user may be moved to are the merchant-side set when the user's role is in
 * it, otherwise the staff set.
 */
export function manageableRoles(current: RoleName): readonly RoleName[] {
  return MERCHANT_SIDE_ROLES.includes(current) ? MERCHANT_SIDE_ROLES : STAFF_ASSIGNABLE_ROLES;
}

/** What the Users screen says. */
export const USERS_MSG = {
  invited: 'User invited successfully. An invitation mail has been sent.',
  invitedMailFailed: 'User invited, but the invitation mail could not be sent: use Resend mail.',
  userUpdated: 'User updated successfully',
  statusUpdated: 'Status Updated.',
  userDeleted: 'User Deleted successfully.',
  invitationResent: 'Invitation mail sent again.',
  deactivateWarning: 'User will no longer perform any action!',
  emailTaken: 'This e-mail already belongs to a user',
  notSelf: 'You cannot change your own account here',
  onlyAdminTouchesAdmin: 'Only an Admin can change an Admin',
  notVerified: 'User is not verified yet',
  alreadyVerified: 'User is already verified',
  roleNotAllowed: 'You may not give this role',
  parentRequired: 'Choose the merchant the user belongs to',
  parentNotMerchant: 'parent_id must be a merchant',
  parentNotAllowed: 'parent_id is only for merchant-side roles',
  userNotFound: 'User not found',
  roleNotChangeable: 'The role of this user cannot be changed here',
  hasUsers: 'Delete the users and brands of this merchant first',
} as const;

/** A user as the users screens show it. */
const userRow = z.object({
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
const usersListResponse = z.object({
  users: pageOf(userRow),
  count: z.number().int(),
  active: z.number().int(),
  inactive: z.number().int(),
});
export type UsersListResponse = z.output<typeof usersListResponse>;

const userDetailResponse = z.object({ user: userRow });

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
  inviteUser: operation({
    id: 'inviteUser',
    method: 'POST',
    path: '/api/invite-user',
    tag: TAG,
    summary: 'Invites a user: creates the account and mails a set-password link (valid 72 hours)',
    access: 'User can update user details',
    audit: 'users.invite',
    input: inviteUserRequest,
    output: inviteUserResponse,
    status: 201,
  }),
  changeUserStatus: operation({
    id: 'changeUserStatus',
    method: 'POST',
    path: '/api/change-user-status',
    tag: TAG,
    summary: "Activates or deactivates a user; deactivating ends the user's sessions at once",
    access: 'User can activate or deacativate a user',
    audit: 'users.change-status',
    input: changeUserStatusRequest,
    output: messageAnswer,
    // the spec's client counts a user or merchant update as done only on 201
    status: 201,
  }),
  updateRole: operation({
    id: 'updateRole',
    method: 'POST',
    path: '/api/update-role',
    tag: TAG,
    summary: "Changes a user's role within its set (merchant-side or staff)",
    access: 'User can update user details',
    audit: 'users.update-role',
    input: updateRoleRequest,
    output: messageAnswer,
    // the spec's client counts a user or merchant update as done only on 201
    status: 201,
  }),
  allUserRoles: operation({
    id: 'allUserRoles',
    method: 'GET',
    path: '/api/all-user-roles',
    tag: TAG,
    summary: 'The roles the caller may give (merchant-side for a merchant, staff and merchant-side for staff)',
    access: 'User can update user details',
    output: allUserRolesResponse,
  }),
  resendInvitation: operation({
    id: 'resendInvitation',
    method: 'POST',
    path: '/api/resend-invitation',
    tag: TAG,
    summary: 'Mails a new set-password link to a user not yet verified; the old link stops working',
    access: 'User can update user details',
    audit: 'users.resend-invitation',
    input: userDetailRequest,
    output: messageAnswer,
  }),
  deleteUser: operation({
    id: 'deleteUser',
    method: 'POST',
    path: '/api/delete-user',
    tag: TAG,
    summary: 'Deletes a user (kept for the records, hidden everywhere, sessions ended, e-mail free again)',
    access: 'User can update user details',
    audit: 'users.delete',
    input: userDetailRequest,
    output: messageAnswer,
  }),
  allMerchants: operation({
    id: 'allMerchants',
    method: 'GET',
    path: '/api/all-merchants',
    tag: 'Merchants',
    summary: 'The merchants the caller may see, for choosers: id and name',
    access: ['User can update user details', 'User can view merchants'],
    output: allMerchantsResponse,
  }),
} as const;
