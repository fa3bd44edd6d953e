import { NAVIGATION, ROUTE_PERMISSIONS, type GuardedPath } from '@obol/contract';

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
};

/** Where a user lands: Payments if allowed, else the first screen of the menus they may open. */
export function firstPermittedPath(perms: readonly string[]): string {
  if (perms.includes(ROUTE_PERMISSIONS['/payments'])) return '/payments';
  for (const m of NAVIGATION) {
    if (m.path && m.permission && perms.includes(m.permission)) return m.path;
    for (const i of m.items ?? [])
      if (perms.includes(ROUTE_PERMISSIONS[i.path as GuardedPath] ?? i.permission)) return i.path;
  }
  return '/user-profile';
}
