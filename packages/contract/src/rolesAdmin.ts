import { z } from 'zod';
import { messages, operation } from './operation.ts';
import { pageField, perPageField } from './params.ts';
import { ALL_PERMISSIONS, isPermission, PERMISSION_GROUPS, permissionInfo, type Permission } from './permissions.ts';
import { ROLES, type RoleName } from './roles.ts';

/** The permission that opens Roles & Permissions and lets its holder edit roles. */
export const ROLE_EDITOR_PERMISSION: Permission = 'User can view role&permissions';

/**
 * Permissions a Brand never holds (DECISIONS.md: "A Brand never gets Users, Merchants, Roles, API Keys,
 * Companies or Activity Logs"): the editor disables them for the Brand role and the server refuses them.
 */
export const BRAND_NEVER: readonly Permission[] = [
  ...PERMISSION_GROUPS.filter((g) =>
    ['Users', 'Merchants', 'Roles & Permissions', 'API Keys', 'Activity Logs'].includes(g.screen),
  ).flatMap((g) => g.permissions as readonly Permission[]),
  'User can view companies',
  'User can register companies',
];

/** Whether a role may hold a permission at all (a Brand never holds the BRAND_NEVER ones). */
export const roleMayHold = (role: RoleName, p: Permission) => role !== 'Brand' || !BRAND_NEVER.includes(p);

/** The view permission of the group a permission belongs to. */
function viewPermissionOf(p: Permission): Permission {
  const { screen } = permissionInfo(p);
  return PERMISSION_GROUPS.find((g) => g.screen === screen)!.permissions[0];
}

/**
 * The rule of the role editor, applied by the web editor and the server alike: a screen's other permissions
 * need its view permission. The messages of a set that breaks it (one per permission held without its view).
 */
export function permissionSetIssues(perms: readonly Permission[]): string[] {
  return perms
    .filter((p) => !permissionInfo(p).isView && !perms.includes(viewPermissionOf(p)))
    .map((p) => `'${p}' needs '${viewPermissionOf(p)}'`);
}

/**
 * The editor's toggle of one permission: ticking adds it; unticking a view permission clears its whole screen
 * (the others are disabled while view is off). Returns the new set in the order of the groups.
 */
export function togglePermission(perms: readonly Permission[], p: Permission, on: boolean): Permission[] {
  const { screen, isView } = permissionInfo(p);
  const group = PERMISSION_GROUPS.find((g) => g.screen === screen)!.permissions as readonly Permission[];
  const next = new Set(perms);
  if (on) next.add(p);
  else if (isView) for (const q of group) next.delete(q);
  else next.delete(p);
  return ALL_PERMISSIONS.filter((q) => next.has(q));
}

export const ROLE_MESSAGES = {
  unknownRole: 'Unknown role',
  adminKeepsEditor: `The Admin role must keep '${ROLE_EDITOR_PERMISSION}'`,
  brandNever: (p: string) => `A Brand cannot be given '${p}'`,
  staffOnly: 'Only staff may change roles',
} as const;

const role = z.enum(ROLES, { error: ROLE_MESSAGES.unknownRole });

// ---- the requests and answers ----

/** A role's card: its name and how many users hold it (in the caller's scope). */
const roleCard = z.object({ name: z.enum(ROLES), count: z.number().int() });
const userWithCountResponse = z.object({ data: z.array(roleCard) });

const roleRequest = z.object({ role });

/** One permission of a screen in the editor: held (status) or not, and whether it is the screen's view. */
const rolePermission = z.object({
  permission_name: z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]),
  status: z.boolean(),
  is_view: z.boolean(),
});
const roleScreen = z.object({ screen_name: z.string(), permissions: z.array(rolePermission) });
type RoleScreen = z.output<typeof roleScreen>;
const roleAgainstUsersResponse = z.object({ name: z.enum(ROLES), data: z.array(roleScreen) });

/** The screens of a role as the editor shows them, from the permissions it holds. */
export function roleScreens(held: readonly Permission[]): RoleScreen[] {
  return PERMISSION_GROUPS.map((g) => ({
    screen_name: g.screen,
    permissions: g.permissions.map((p, i) => ({ permission_name: p, status: held.includes(p), is_view: i === 0 })),
  }));
}

export const USERS_BY_ROLE_PER_PAGE = 10;
const userRolesRequest = z.object({
  role,
  per_page: perPageField(100, USERS_BY_ROLE_PER_PAGE),
  page: pageField(),
});
const roleUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** the merchant a merchant-side user or brand belongs to */
  merchant_name: z.string().nullable(),
});
export type RoleUser = z.output<typeof roleUser>;
const userRolesResponse = z.object({
  total: z.number().int(),
  data: z.array(z.object({ name: z.enum(ROLES), users: z.array(roleUser) })),
});

/** The full set of permissions the role should hold (duplicates are read once). */
export const updatePermissionRequest = z
  .object({
    role_name: role,
    permission_name: z
      .array(z.string({ error: 'permission_name must be a list of permission names' }), {
        error: 'permission_name must be a list of permission names',
      })
      .max(ALL_PERMISSIONS.length * 2, `permission_name must have at most ${ALL_PERMISSIONS.length * 2} entries`),
  })
  .superRefine((v, ctx) => {
    const unknown = v.permission_name.filter((p) => !isPermission(p));
    for (const p of new Set(unknown))
      ctx.addIssue({ code: 'custom', path: ['permission_name'], message: `Unknown permission '${p.slice(0, 100)}'` });
    if (unknown.length) return;
    for (const m of permissionSetIssues(v.permission_name as Permission[]))
      ctx.addIssue({ code: 'custom', path: ['permission_name'], message: m });
  })
  .transform((v) => ({
    role_name: v.role_name,
    permission_name: ALL_PERMISSIONS.filter((p) => v.permission_name.includes(p)),
  }));
const updatePermissionResponse = z.object({
  message: messages,
  name: z.enum(ROLES),
  data: z.array(roleScreen),
});

// ---- the calls ----

const TAG = 'Roles and permissions';
export const rolesOps = {
  userWithCount: operation({
    id: 'userWithCount',
    method: 'POST',
    path: '/api/user-with-count',
    tag: TAG,
    summary: 'Every role with the number of users (in the caller’s scope) holding it',
    access: ROLE_EDITOR_PERMISSION,
    output: userWithCountResponse,
  }),
  roleAgainstUsers: operation({
    id: 'roleAgainstUsers',
    method: 'POST',
    path: '/api/role-against-users',
    tag: TAG,
    summary: "A role's permissions grouped by screen: each held or not, and which is the screen's view",
    access: ROLE_EDITOR_PERMISSION,
    input: roleRequest,
    output: roleAgainstUsersResponse,
  }),
  userRoles: operation({
    id: 'userRoles',
    method: 'POST',
    path: '/api/user-roles',
    tag: TAG,
    summary: 'A page of the users (in the caller’s scope) holding a role',
    access: ROLE_EDITOR_PERMISSION,
    input: userRolesRequest,
    output: userRolesResponse,
  }),
  updatePermission: operation({
    id: 'updatePermission',
    method: 'POST',
    path: '/api/update-permission',
    tag: TAG,
    summary: 'Replaces the permissions of a role (staff only); refused when it would leave nobody able to edit roles',
    access: ROLE_EDITOR_PERMISSION,
    audit: 'roles.update-permission',
    input: updatePermissionRequest,
    output: updatePermissionResponse,
  }),
} as const;
