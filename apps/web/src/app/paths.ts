import { NAVIGATION, ROUTE_PERMISSIONS, visibleNavigation, type GuardedPath, type Menu } from '@obol/contract';
import { matchPath } from 'react-router';

/** Titles of the guarded screens. */
export const TITLES: Record<GuardedPath, string> = {
  '/companies': 'Companies',
  '/accounting-payment': '2D Payments',
  '/accounting-rules': 'Rules',
  '/accounting-transactions': '2D Transactions',
  '/download-accounting-transactions': 'Downloads',
  '/amount-transfer': 'Amount Transfer',
  '/merchants-payout': 'Merchants Payout',
  '/transfer-transactions': 'Transfer Transactions',
  '/payments': 'Payments',
  '/payments/transactions': 'Uploaded Transactions',
  '/payout-transactions': 'Payout Transactions',
  '/batch-transactions': 'Batch Transactions',
  '/recent-batches': 'Recent Batches',
  '/download-transactions': 'Download Transactions',
  '/transactions-history': 'Transaction History',
  '/generate-reports': 'Generate Reports',
  '/download-reports': 'Download Reports',
  '/users': 'Users',
  '/merchants': 'Merchants',
  '/roles-permissions': 'Roles & Permissions',
  '/roles-permissions/:role': 'Users by Role',
  '/api-keys': 'API Keys',
  '/brands': 'Brands',
  '/user-profile': 'User Profile',
  '/activity-logs': 'Activity Logs',
  '/payin': 'Payin Transactions',
  '/cardeye': 'CardEye Transactions',
  '/refund': 'Refund Transactions',
  '/payin-rewards': 'Payin Rewards',
  '/fee-module': 'Fee Module',
  '/view-balance': 'View Balance',
  '/approvals': 'Approvals',
  '/accounting-approvals': '2D Approvals',
};

/** The screens built so far (screens.tsx holds their components); every other guarded path is "Page not found". */
export const BUILT_PATHS = [
  '/users',
  '/user-profile',
  '/payments',
  '/payments/transactions',
  '/recent-batches',
  '/payout-transactions',
  '/batch-transactions',
  '/transactions-history',
  '/download-transactions',
  '/generate-reports',
  '/download-reports',
  '/download-accounting-transactions',
  '/activity-logs',
  '/roles-permissions',
  '/roles-permissions/:role',
  '/view-balance',
  '/merchants',
  '/api-keys',
  '/brands',
  '/fee-module',
  '/amount-transfer',
  '/merchants-payout',
  '/transfer-transactions',
  '/payin',
  '/cardeye',
  '/refund',
  '/payin-rewards',
  '/companies',
  '/accounting-payment',
  '/accounting-rules',
  '/accounting-transactions',
  '/approvals',
  '/accounting-approvals',
] as const satisfies readonly GuardedPath[];
export type BuiltPath = (typeof BUILT_PATHS)[number];

export const isBuilt = (path: string): path is BuiltPath => (BUILT_PATHS as readonly string[]).includes(path);

/** The menus a holder of these permissions sees, with only the screens that are built. */
export function builtNavigation(perms: readonly string[]): Menu[] {
  return visibleNavigation(perms).flatMap((m) => {
    if (!m.items) return m.path && isBuilt(m.path) ? [m] : [];
    const items = m.items.filter((i) => isBuilt(i.path));
    return items.length ? [{ ...m, items }] : [];
  });
}

/** Pages reached from another page rather than from the menus: their parent in the breadcrumbs. */
const PARENTS: Partial<Record<GuardedPath, GuardedPath>> = {
  '/payments/transactions': '/payments',
  '/transactions-history': '/batch-transactions',
  '/roles-permissions/:role': '/roles-permissions',
};

export interface Crumb {
  label: string;
  /** a page the user may go back to; the menu group and the current page have none */
  to?: string;
}

/** The guarded path whose pattern matches a location, if any. */
export function guardedPathOf(pathname: string): GuardedPath | undefined {
  return (Object.keys(ROUTE_PERMISSIONS) as GuardedPath[]).find((p) => matchPath(p, pathname));
}

/** The menu path a location belongs to: the page itself, or the page it was reached from. */
export function navPathOf(pathname: string): GuardedPath | undefined {
  let path = guardedPathOf(pathname);
  while (path && PARENTS[path]) path = PARENTS[path];
  return path;
}

/** Breadcrumbs of a location: menu group > parent page > page. */
export function breadcrumbs(pathname: string): Crumb[] {
  const path = guardedPathOf(pathname);
  if (!path) return [];
  if (!isBuilt(path)) return [{ label: 'Page not found' }];
  const chain: GuardedPath[] = [path];
  for (let p = PARENTS[path]; p; p = PARENTS[p]) chain.unshift(p);
  const group = NAVIGATION.find((m) => m.items?.some((i) => i.path === chain[0]));
  return [
    ...(group ? [{ label: group.label }] : []),
    ...chain.map((p, n) => (n === chain.length - 1 ? { label: TITLES[p] } : { label: TITLES[p], to: p })),
  ];
}

/** Where a user lands: Payments if allowed, else the first built screen of the menus they may open. */
export function firstPermittedPath(perms: readonly string[]): string {
  if (perms.includes(ROUTE_PERMISSIONS['/payments'])) return '/payments';
  for (const m of NAVIGATION) {
    if (m.path && m.permission && isBuilt(m.path) && perms.includes(m.permission)) return m.path;
    for (const i of m.items ?? [])
      if (isBuilt(i.path) && perms.includes(ROUTE_PERMISSIONS[i.path as GuardedPath] ?? i.permission)) return i.path;
  }
  return '/user-profile';
}
