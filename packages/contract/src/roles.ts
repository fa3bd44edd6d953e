import { ALL_PERMISSIONS, groupPermissions, type Permission } from './permissions.ts';

export const ROLES = [
  'Admin',
  'Manager',
  'Supervisor A',
  'Supervisor B',
  'Accountant',
  '2D Admin',
  'Risk Ops',
  'Payment Ops',
  'Finance',
  'Reviewer',
  'Merchant',
  'Brand',
] as const;
export type RoleName = (typeof ROLES)[number];

/** Staff roles see every merchant. */
export const STAFF_ROLES: readonly RoleName[] = [
  'Admin',
  'Manager',
  'Supervisor A',
  'Supervisor B',
  'Accountant',
  '2D Admin',
];
/** Roles that belong to a merchant (its team). */
export const MERCHANT_SIDE_ROLES: readonly RoleName[] = ['Risk Ops', 'Payment Ops', 'Finance', 'Reviewer'];
/** Roles a staff user may be given in Manage user. */
export const STAFF_ASSIGNABLE_ROLES: readonly RoleName[] = [
  'Manager',
  'Supervisor A',
  'Supervisor B',
  'Accountant',
  '2D Admin',
];

export function isRole(value: string): value is RoleName {
  return (ROLES as readonly string[]).includes(value);
}

/** The e-mail slug of a role's demo user: `<slug>@obol.example`. */
export function roleSlug(role: RoleName): string {
  return role.toLowerCase().replace(/\s+/g, '-');
}

const g = groupPermissions;
const pick = (...perms: Permission[]) => perms;

/** The seeded default permission matrix (DECISIONS.md, "Default permissions of each role"). */
export const DEFAULT_ROLE_PERMISSIONS: Record<RoleName, readonly Permission[]> = {
  Admin: ALL_PERMISSIONS,
  Manager: ALL_PERMISSIONS.filter((p) => !g('Accounts (2D)').includes(p)),
  'Supervisor A': [
    ...g('Payments'),
    ...g('Transactions'),
    ...g('Reports'),
    'User can view merchants',
    ...g('Brands'),
    ...g('Pay-in'),
    ...g('Balance'),
    ...g('Approvals'),
    ...g('Profile'),
  ],
  'Supervisor B': [
    ...g('Transactions'),
    ...g('Reports').filter((p) => p !== 'User can generate invoices'),
    pick('User can view pay in panel', 'User can view cardeye transactions'),
    ...g('Profile'),
  ].flat(),
  Accountant: [
    ...g('Transactions'),
    ...g('Reports'),
    ...g('Fee Module'),
    ...g('Transfers'),
    ...g('Balance'),
    ...g('Pay-in'),
    ...g('Profile'),
  ],
  '2D Admin': [...g('Accounts (2D)'), ...g('Profile')],
  Merchant: [
    ...g('Payments'),
    ...g('Transactions'),
    ...g('Reports'),
    ...g('Users'),
    ...g('API Keys'),
    ...g('Brands'),
    ...g('Pay-in'),
    ...g('Balance'),
    ...g('Profile'),
  ],
  Brand: [
    ...g('Payments'),
    ...g('Transactions'),
    'User can view reports',
    'User can view fee reports',
    'User can view download reports',
    'User can pull merchant activity report',
    'User can pull batch payouts report',
    'User can pull failed transfers report',
    'User can view pay in panel',
    ...g('Balance'),
    ...g('Profile'),
  ],
  'Risk Ops': [...g('Transactions'), ...g('Pay-in'), ...g('Profile')],
  'Payment Ops': [...g('Payments'), ...g('Transactions'), ...g('Profile')],
  Finance: [...g('Transactions'), ...g('Reports'), ...g('Balance'), ...g('Profile')],
  Reviewer: ['User can view transactions', 'User can search', 'User can view pay in panel', ...g('Profile')],
};
