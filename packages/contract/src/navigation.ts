import type { Permission } from './permissions.ts';

/** Route table of document 1, section 2: every guarded path and the permission it needs. */
export const ROUTE_PERMISSIONS = {
  '/companies': 'User can view companies',
  '/accounting-payment': 'User can perform accounting transactions',
  '/accounting-rules': 'User can view accounting transactions rules',
  '/accounting-transactions': 'User can view accounting transactions',
  '/download-accounting-transactions': 'User can view accounting transactions',
  '/amount-transfer': 'User can view transfer amount screen',
  '/merchants-payout': 'User can view transfer amount screen',
  '/transfer-transactions': 'User can view transfer amount screen',
  '/payments': 'User can view payments',
  '/payments/transactions': 'User can view payments',
  '/payout-transactions': 'User can view transactions',
  '/batch-transactions': 'User can view transactions',
  '/recent-batches': 'User can view transactions',
  '/download-transactions': 'User can view transactions',
  '/transactions-history': 'User can view transactions',
  '/generate-reports': 'User can view fee reports',
  '/download-reports': 'User can view download reports',
  '/users': 'User can view users',
  '/merchants': 'User can view merchants',
  '/roles-permissions': 'User can view role&permissions',
  '/roles-permissions/:role': 'User can view role&permissions',
  '/api-keys': 'User can view api&keys',
  '/brands': 'User can view brands',
  '/user-profile': 'User can view profile',
  '/activity-logs': 'User can view activity&logs panel',
  '/payin': 'User can view pay in panel',
  '/cardeye': 'User can view cardeye transactions',
  '/refund': 'User can view cardeye transactions',
  '/payin-rewards': 'User can view pay in reward',
  '/fee-module': 'User can view fee module',
  '/view-balance': 'User can view balance screen',
  // not in the spec: four eyes on large amounts (issue 50)
  '/approvals': 'User can approve payouts',
  '/accounting-approvals': 'User can perform accounting transactions',
} as const satisfies Record<string, Permission>;
export type GuardedPath = keyof typeof ROUTE_PERMISSIONS;

export interface MenuItem {
  label: string;
  path: string;
  permission: Permission;
}
export interface Menu {
  label: string;
  /** a top item with a path, or a menu of items */
  path?: string;
  permission?: Permission;
  items?: MenuItem[];
}

const item = (label: string, path: GuardedPath): MenuItem => ({
  label,
  path,
  permission: ROUTE_PERMISSIONS[path],
});

/** The top navigation of document 1, section 2, in order. */
export const NAVIGATION: Menu[] = [
  { label: 'Payments', path: '/payments', permission: 'User can view payments' },
  { label: 'Approvals', path: '/approvals', permission: 'User can approve payouts' },
  {
    label: 'Reports',
    permission: 'User can view reports',
    items: [item('Generate Reports', '/generate-reports'), item('Download Reports', '/download-reports')],
  },
  {
    label: 'Transactions',
    permission: 'User can view transactions',
    items: [
      item('Payout Transactions', '/payout-transactions'),
      item('Batch Transactions', '/batch-transactions'),
      item('Recent Batches', '/recent-batches'),
      item('Payin Transactions', '/payin'),
      item('Payin Rewards', '/payin-rewards'),
      item('CardEye Transactions', '/cardeye'),
      item('Refund Transactions', '/refund'),
      item('Download Transactions', '/download-transactions'),
    ],
  },
  { label: 'Users', path: '/users', permission: 'User can view users' },
  { label: 'Merchants', path: '/merchants', permission: 'User can view merchants' },
  { label: 'Roles & Permissions', path: '/roles-permissions', permission: 'User can view role&permissions' },
  { label: 'API Keys', path: '/api-keys', permission: 'User can view api&keys' },
  { label: 'Brands', path: '/brands', permission: 'User can view brands' },
  { label: 'Activity Logs', path: '/activity-logs', permission: 'User can view activity&logs panel' },
  { label: 'Fee Module', path: '/fee-module', permission: 'User can view fee module' },
  {
    label: 'Accounts',
    items: [
      item('Companies', '/companies'),
      item('2D Payments', '/accounting-payment'),
      item('Rules', '/accounting-rules'),
      item('2D Transactions', '/accounting-transactions'),
      item('2D Approvals', '/accounting-approvals'),
      {
        label: 'Downloads',
        path: '/download-accounting-transactions',
        permission: 'User can download accounting transactions',
      },
    ],
  },
  {
    label: 'More',
    items: [
      item('View Balance', '/view-balance'),
      item('Amount Transfer', '/amount-transfer'),
      item('Merchants Payout', '/merchants-payout'),
      item('Transfer Transactions', '/transfer-transactions'),
    ],
  },
];

/** The menus and items a holder of these permissions sees; menus without a visible item are dropped. */
export function visibleNavigation(perms: readonly string[]): Menu[] {
  const has = (p?: Permission) => !p || perms.includes(p);
  const out: Menu[] = [];
  for (const m of NAVIGATION) {
    if (!has(m.permission)) continue;
    if (m.items) {
      const items = m.items.filter((i) => has(i.permission));
      if (items.length) out.push({ ...m, items });
    } else out.push(m);
  }
  return out;
}

/** Initials of the avatar: first letter of each of the first two words, uppercased. */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w.charAt(0).toUpperCase())
    .join('');
}
