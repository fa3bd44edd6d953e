import { z } from 'zod';
import { accountingOps } from './accounting.ts';
import { activityOps } from './activity.ts';
import { apiKeyOps } from './apiKeys.ts';
import { authOps } from './auth.ts';
import { batchOps } from './batches.ts';
import { brandOps } from './brands.ts';
import { downloadOps } from './downloads.ts';
import { feeOps } from './fees.ts';
import { ledgerOps } from './ledger.ts';
import { merchantOps } from './merchants.ts';
import { operation, type Operation } from './operation.ts';
import { passkeyOps } from './passkeys.ts';
import { payinOps } from './payins.ts';
import { paymentsOps } from './payments.ts';
import { profileOps } from './profile.ts';
import { reportOps } from './reports.ts';
import { providerOps } from './provider.ts';
import { rolesOps } from './rolesAdmin.ts';
import { transactionOps } from './transactions.ts';
import { transferOps } from './transfers.ts';
import { usersOps } from './users.ts';
import { demoShopOps, webhookOps } from './webhooks.ts';
import { approvalOps } from './approvals.ts';
import { liveOps } from './live.ts';

/** The platform's own calls. */
export const systemOps = {
  health: operation({
    id: 'health',
    method: 'GET',
    path: '/api/health',
    tag: 'System',
    summary: 'Whether the server and its database answer (503 when the database does not)',
    access: 'public',
    output: z.object({
      status: z.enum(['ok', 'unavailable']),
      database: z.object({ kind: z.enum(['pglite', 'postgres']), reachable: z.boolean() }),
    }),
  }),
  ready: operation({
    id: 'ready',
    method: 'GET',
    path: '/api/ready',
    tag: 'System',
    summary: 'Whether this process can take traffic: its migrations ran and the database answers (503 until then)',
    access: 'public',
    output: z.object({
      status: z.enum(['ready', 'unavailable']),
      migrations: z.boolean(),
      database: z.boolean(),
    }),
  }),
  metrics: operation({
    id: 'metrics',
    method: 'GET',
    path: '/api/metrics',
    tag: 'System',
    summary:
      'Prometheus metrics, for the holder of METRICS_TOKEN (Authorization: Bearer); 404 when METRICS_TOKEN is unset',
    access: 'public',
    output: { file: ['text/plain; version=0.0.4'] },
  }),
} as const;

/** Every operation of the API, by feature: the server declares a route for each, and nothing else. */
const OPERATION_GROUPS = {
  system: systemOps,
  auth: authOps,
  passkeys: passkeyOps,
  users: usersOps,
  merchants: merchantOps,
  brands: brandOps,
  fees: feeOps,
  profile: profileOps,
  apiKeys: apiKeyOps,
  webhooks: webhookOps,
  demoShop: demoShopOps,
  approvals: approvalOps,
  live: liveOps,
  roles: rolesOps,
  ledger: ledgerOps,
  provider: providerOps,
  payments: paymentsOps,
  batches: batchOps,
  transactions: transactionOps,
  transfers: transferOps,
  payins: payinOps,
  reports: reportOps,
  downloads: downloadOps,
  activity: activityOps,
  accounting: accountingOps,
} as const;

export const OPERATIONS: readonly Operation[] = Object.values(OPERATION_GROUPS).flatMap(
  (group) => Object.values(group) as Operation[],
);
