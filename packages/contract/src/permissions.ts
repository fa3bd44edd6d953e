/**
 * Every permission of the product, grouped by the screen it belongs to.
 * The first permission of each group is its view permission: unticking it clears the rest of the group.
 * Names are identifiers and stay exactly as the spec spells them (including its typos).
 */
export const PERMISSION_GROUPS = [
  {
    screen: 'Payments',
    permissions: [
      'User can view payments',
      'User can view merchant balance',
      'User can able to issue a transfer on behalf of merchant',
      'User can able to issue mass payout on behalf of merchant',
    ],
  },
  {
    screen: 'Transactions',
    permissions: ['User can view transactions', 'User can search', 'User can export transactions'],
  },
  {
    screen: 'Reports',
    permissions: [
      'User can view reports',
      'User can view fee reports',
      'User can view download reports',
      'User can pull merchant activity report',
      'User can pull batch payouts report',
      'User can pull failed transfers report',
      'User can pull fees by merchant report',
      'User can generate invoices',
    ],
  },
  {
    screen: 'Users',
    permissions: ['User can view users', 'User can update user details', 'User can activate or deacativate a user'],
  },
  { screen: 'Merchants', permissions: ['User can view merchants', 'User can add merchant'] },
  { screen: 'Roles & Permissions', permissions: ['User can view role&permissions'] },
  { screen: 'API Keys', permissions: ['User can view api&keys'] },
  { screen: 'Brands', permissions: ['User can view brands'] },
  { screen: 'Activity Logs', permissions: ['User can view activity&logs panel'] },
  { screen: 'Fee Module', permissions: ['User can view fee module'] },
  {
    screen: 'Accounts (2D)',
    permissions: [
      'User can view accounting transactions',
      'User can view companies',
      'User can register companies',
      'User can perform accounting transactions',
      'User can view accounting transactions rules',
      'User can create accounting transactions rules',
      'User can download accounting transactions',
    ],
  },
  {
    screen: 'Pay-in',
    permissions: ['User can view pay in panel', 'User can view pay in reward', 'User can view cardeye transactions'],
  },
  { screen: 'Transfers', permissions: ['User can view transfer amount screen'] },
  // not in the spec: four eyes on large payouts (issue 50)
  { screen: 'Approvals', permissions: ['User can approve payouts'] },
  { screen: 'Balance', permissions: ['User can view balance screen', 'User can view balance'] },
  { screen: 'Profile', permissions: ['User can view profile'] },
] as const;

type PermissionGroup = (typeof PERMISSION_GROUPS)[number];
type ScreenName = PermissionGroup['screen'];
export type Permission = PermissionGroup['permissions'][number];

export const ALL_PERMISSIONS: readonly Permission[] = PERMISSION_GROUPS.flatMap(
  (g) => g.permissions as readonly Permission[],
);

/**
 * What each permission lets its holder do, in plain words, for the role editor; the spec's string stays the id
 * sent to and from the server. In the editor's order, screen by screen; each label is unique.
 */
export const PERMISSION_LABELS: Readonly<Record<Permission, string>> = {
  // Payments
  'User can view payments': 'Open Payments',
  'User can view merchant balance': "See a merchant's balance while paying",
  'User can able to issue a transfer on behalf of merchant': 'Send a transfer for a merchant',
  'User can able to issue mass payout on behalf of merchant': 'Send a batch payout for a merchant',
  // Transactions
  'User can view transactions': 'View transactions',
  'User can search': 'Search and filter lists',
  'User can export transactions': 'Export transactions',
  // Reports
  'User can view reports': 'Open the Reports menu',
  'User can view fee reports': 'Generate reports',
  'User can view download reports': 'Download reports',
  'User can pull merchant activity report': 'Merchant activity report',
  'User can pull batch payouts report': 'Batch payouts report',
  'User can pull failed transfers report': 'Failed transfers report',
  'User can pull fees by merchant report': 'Fees by merchant report',
  'User can generate invoices': 'Generate invoices',
  // Users
  'User can view users': 'View users',
  'User can update user details': "Edit users' details and roles",
  'User can activate or deacativate a user': 'Activate or deactivate users',
  // Merchants
  'User can view merchants': 'View merchants',
  'User can add merchant': 'Add merchants',
  // Roles & Permissions
  'User can view role&permissions': 'View and edit roles',
  // API Keys
  'User can view api&keys': 'View API keys',
  // Brands
  'User can view brands': 'View brands',
  // Activity Logs
  'User can view activity&logs panel': 'View the activity log',
  // Fee Module
  'User can view fee module': 'View the fee module',
  // Accounts (2D)
  'User can view accounting transactions': 'View 2D transactions',
  'User can view companies': 'View companies',
  'User can register companies': 'Register companies',
  'User can perform accounting transactions': 'Make 2D payments',
  'User can view accounting transactions rules': 'View 2D rules',
  'User can create accounting transactions rules': 'Create 2D rules',
  'User can download accounting transactions': 'Download 2D transactions',
  // Pay-in
  'User can view pay in panel': 'View pay-ins',
  'User can view pay in reward': 'View pay-in rewards',
  'User can view cardeye transactions': 'View CardEye payments and refunds',
  // Transfers
  'User can view transfer amount screen': 'Transfer amounts and view transfers',
  // Approvals
  'User can approve payouts': 'Approve or reject large payouts, batches and transfers',
  // Balance
  'User can view balance screen': 'Open the Balance screen',
  'User can view balance': 'See own balances on the profile',
  // Profile
  'User can view profile': 'View own profile',
};

export const permissionLabel = (p: Permission): string => PERMISSION_LABELS[p];

/** looked up by every session check (one call per permission of the caller's role) */
const PERMISSION_SET: ReadonlySet<string> = new Set(ALL_PERMISSIONS);

export function isPermission(value: string): value is Permission {
  return PERMISSION_SET.has(value);
}

/** The group a permission belongs to and whether it is that group's view permission. */
export function permissionInfo(p: Permission): { screen: ScreenName; isView: boolean } {
  for (const g of PERMISSION_GROUPS) {
    const idx = (g.permissions as readonly string[]).indexOf(p);
    if (idx >= 0) return { screen: g.screen, isView: idx === 0 };
  }
  throw new Error(`unknown permission ${p}`);
}

export function groupPermissions(screen: ScreenName): readonly Permission[] {
  const g = PERMISSION_GROUPS.find((x) => x.screen === screen);
  if (!g) throw new Error(`unknown screen ${screen}`);
  return g.permissions;
}
