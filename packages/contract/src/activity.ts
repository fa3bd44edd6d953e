import { z } from 'zod';
import { dateFilter, timeZoneFilter } from './listFilters.ts';
import { operation, timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';

/** Page size of the activity log (spec section 9). */
export const ACTIVITY_PER_PAGE = 20;

const getLogsRequest = z.object({
  per_page: perPageField(100, ACTIVITY_PER_PAGE),
  page: pageField(),
  /** one calendar day in the browser's time zone, not after today; '' means every day */
  date: dateFilter,
  tz: timeZoneFilter,
});

const ACTIVITY_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type ActivityOutcome = (typeof ACTIVITY_OUTCOMES)[number];

/** A record of the activity log as the list and its details show it. */
const activityRow = z.object({
  id: z.number().int(),
  /** its place in the hash chain */
  seq: z.number().int(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  /** a readable label of the action (activityLabel) */
  activity: z.string(),
  action: z.string(),
  outcome: z.enum(ACTIVITY_OUTCOMES),
  status_code: z.number().int(),
  target: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
  before: z.unknown(),
  after: z.unknown(),
  detail: z.string().nullable(),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
  created_at: timestamp,
  prev_hash: z.string(),
  hash: z.string(),
});
export type ActivityRow = z.output<typeof activityRow>;

/** The spec's shape: the page is data[0].data, its total data[0].total. */
const getLogsResponse = z.object({
  data: z.array(z.object({ data: z.array(activityRow), total: z.number().int() })),
});
export type GetLogsResponse = z.output<typeof getLogsResponse>;

/** Why the chain is not intact, at the first record where it breaks. */
const CHAIN_BREAKS = {
  /** the record's content no longer gives its hash, or the next record vouches for another hash */
  edited: 'a record was changed',
  /** a seq is missing between two records */
  missing: 'a record was deleted',
  /** the chain's head says there are records after the last one */
  truncated: 'records were deleted from the end',
  /** the chain's head is gone */
  'head-missing': "the chain's head is missing",
} as const;
export type ChainBreak = keyof typeof CHAIN_BREAKS;

const verifyLogsResponse = z.object({
  message: z.array(z.string()),
  intact: z.boolean(),
  /** records checked */
  checked: z.number().int(),
  /** the chain's head when the check started: keep its hash elsewhere to prove later that nothing before it changed */
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  first_break: z
    .object({ seq: z.number().int(), reason: z.enum(Object.keys(CHAIN_BREAKS) as [ChainBreak, ...ChainBreak[]]) })
    .optional(),
});
export type VerifyLogsResponse = z.output<typeof verifyLogsResponse>;

/** The message of a verification: the server answers it, the web shows it. */
export function verifyMessage(r: Pick<VerifyLogsResponse, 'intact' | 'checked' | 'first_break'>): string {
  const records = r.checked === 1 ? '1 record' : `${r.checked} records`;
  if (r.intact) return `The activity log is intact: ${records} checked`;
  const b = r.first_break!;
  return `The activity log is broken at record ${b.seq}: ${CHAIN_BREAKS[b.reason]}`;
}

/** Readable labels of the recorded actions; activityLabel falls back to one made from the action's name. */
export const ACTIVITY_LABELS: Record<string, string> = {
  'auth.login': 'Entered the password to sign in',
  'auth.verify-code': 'Signed in',
  'auth.logout': 'Signed out',
  'auth.change-password': 'Changed the password',
  'auth.forgot-password': 'Asked for a password reset link',
  'auth.set-password': 'Set a password',
  'auth.export-backup-code': 'Downloaded backup codes',
  'auth.enable-two-fa': 'Changed the 2FA for payouts',
  'auth.two-fa-setup': 'Started an authenticator setup',
  'api-key.reveal': 'Revealed the API keys',
  'api-key.rotate': 'Rotated the API keys',
  'api-key.share': 'Shared API keys by e-mail',
  'webhook.create': 'Added a webhook endpoint',
  'webhook.delete': 'Removed a webhook endpoint',
  'webhook.rotate': 'Rotated a webhook signing secret',
  'webhook.resend': 'Resent a webhook delivery',
  'approval.policy': 'Set an approval threshold',
  'approval.request-code': 'Asked for an approval code',
  'approval.approve': 'Approved a payout, batch or transfer',
  'approval.reject': 'Rejected a payout, batch or transfer',
  'users.invite': 'Invited a user',
  'fees.update': 'Changed the fee of a merchant or brand',
  'merchants.create': 'Created a merchant or brands',
  'merchants.update': 'Edited a merchant or brand',
  'merchants.direct': 'Changed whether a merchant is direct',
  'merchants.change-status': 'Changed the status of a merchant or brand',
  'users.change-status': 'Changed the status of a user',
  'users.update-role': 'Changed the role of a user',
  'users.resend-invitation': 'Resent an invitation',
  'users.delete': 'Deleted a user',
  'roles.update-permission': 'Changed the permissions of a role',
  'batch.upload': 'Uploaded a batch',
  'batch.save': 'Saved a batch',
  'batch.rename': 'Renamed a batch',
  'batch.clear': 'Cleared a batch',
  'batch.update-transaction': 'Edited a transaction of a batch',
  'batch.delete-transaction': 'Deleted a transaction of a batch',
  'batch.delete-transactions': 'Deleted transactions of a batch',
  'batch.request-execution': 'Asked to execute a batch',
  'batch.execute': 'Executed a batch',
  'payout.request-code': 'Asked for a payout code',
  'payout.create': 'Made a manual payout',
  'transactions.export': 'Exported transactions',
  'transfer.request-code': 'Asked for a transfer code',
  'transfer.create': 'Made a transfer',
  'transfer.export': 'Exported transfers',
  'payin.create-link': 'Made a pay-in link (merchant API)',
  'payin.export': 'Exported pay-ins',
  'payin.refund-code': 'Asked for a refund code',
  'payin.refund': 'Refunded a pay-in',
  'refund.export': 'Exported refunds',
  'payin.reward': "Paid a payer's reward",
  'report.activity': 'Pulled a merchant activity report',
  'report.batch_payouts': 'Pulled a batch payouts report',
  'report.failed': 'Pulled a failed transfers report',
  'report.fees': 'Pulled a fees by merchant report',
  'report.invoice': 'Issued an invoice',
  'report.schedule': 'Scheduled a monthly report',
  'report.unschedule': 'Removed a monthly report',
  'reward.export': 'Exported rewards',
  'company.register': 'Registered a company',
  'company.status': 'Changed the status of a company',
  'company.reveal-key': "Revealed a company's API key",
  'company.consent': "Approved a company's account access",
  'accounting.request-code': 'Asked for a 2D transfer code',
  'accounting.transfer': 'Made a 2D transfer',
  'accounting.export': 'Exported 2D transactions',
  'rule.create': 'Created an accounting rule',
  'rule.status': 'Changed the status of an accounting rule',
  'rule.delete': 'Deleted an accounting rule',
  'download.file': 'Downloaded a file',
  'provider.reconcile': 'Reconciled with the provider',
  'provider.webhook': 'Received a provider event',
  'passkeys.register-options': 'Started adding a passkey',
  'passkeys.register': 'Added a passkey',
  'passkeys.rename': 'Renamed a passkey',
  'passkeys.delete': 'Removed a passkey',
  'activity.verify': 'Verified the activity log',
};

/**
 * What a record did, in words: 'Invited a user', 'Signed in (failed)', 'Refused: POST /api/users'. An action
 * without a label reads as its name: 'fee.update-fee' gives 'Fee: update fee'.
 */
export function activityLabel(action: string, outcome?: ActivityOutcome | string): string {
  const denied = /^denied (.+)$/.exec(action);
  if (denied) return `Refused: ${denied[1]}`;
  let label = ACTIVITY_LABELS[action];
  if (!label) {
    const dot = action.indexOf('.');
    const area = dot > 0 ? action.slice(0, dot) : '';
    const verb = (dot > 0 ? action.slice(dot + 1) : action).replace(/[-_.]+/g, ' ').trim();
    label = area ? `${area[0].toUpperCase()}${area.slice(1)}: ${verb}` : verb || action;
  }
  if (outcome === 'failure') return `${label} (failed)`;
  if (outcome === 'denied') return `${label} (refused)`;
  return label;
}

// ---- the calls ----

const TAG = 'Activity logs';
export const activityOps = {
  getLogs: operation({
    id: 'getLogs',
    method: 'POST',
    path: '/api/get-logs',
    tag: TAG,
    summary:
      "A page of the activity log, newest first, of one day or all: staff see every record, a merchant its own users'",
    access: 'User can view activity&logs panel',
    input: getLogsRequest,
    output: getLogsResponse,
  }),
  verifyLogs: operation({
    id: 'verifyLogs',
    method: 'POST',
    path: '/api/verify-logs',
    tag: TAG,
    summary: "Walks the activity log's hash chain and says whether it is intact, or where it first breaks (staff only)",
    access: 'User can view activity&logs panel',
    audit: 'activity.verify',
    output: verifyLogsResponse,
  }),
} as const;
