import { z } from 'zod';
import { MSG } from './messages.ts';
import { messageAnswer, operation, timestamp } from './operation.ts';

/** A webhook event of the payment provider: it only says "look"; the provider's own answer settles a payout. */
const providerEvent = z.object({
  event_id: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  created_at: z.string().optional(),
  data: z
    .object({
      id: z.string().min(1),
      reference: z.string().optional(),
      idempotency_key: z.string().optional(),
      status: z.string().optional(),
      message: z.string().optional(),
      amount: z.number().optional(),
    })
    .loose(),
});
export type ProviderEvent = z.output<typeof providerEvent>;

/** Most events one batched webhook carries. */
const PROVIDER_EVENTS_MAX = 1000;

/**
 * What the webhook takes: one event, or a batch of them in the order they happened (`{"events": [...]}`, as
 * the provider delivers under load), the batch signed whole and applied event by event, each once.
 */
const providerWebhookBody = z.union([
  providerEvent,
  z.object({ events: z.array(providerEvent).min(1).max(PROVIDER_EVENTS_MAX) }),
]);

const walletCheckerRequest = z.object({
  obol_id: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(50, 'Invalid Obol Id'),
});

const walletCheckerResponse = z.object({
  user_info: z.object({
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string(),
    /** the spec's field name, kept for clients that read it */
    date_of_bith: z.string(),
    obol_id: z.string(),
  }),
});
type WalletCheckerResponse = z.output<typeof walletCheckerResponse>;
export type WalletHolder = WalletCheckerResponse['user_info'];

const RECONCILIATION_DIFFERENCES = [
  'missing_in_ledger',
  'missing_at_provider',
  'status_mismatch',
  'amount_mismatch',
  'unsettled_in_ledger',
] as const;

/** One difference between the provider's statement and our books. */
const reconciliationDifference = z.object({
  kind: z.enum(RECONCILIATION_DIFFERENCES),
  provider_id: z.string().optional(),
  reference: z.string().optional(),
  /** our side: a status or an amount */
  ours: z.unknown().optional(),
  /** the provider's side: a status, an amount, or its whole statement item */
  theirs: z.unknown().optional(),
});
export type ReconciliationDifference = z.output<typeof reconciliationDifference>;

const reconcileResponse = z.object({
  /** the report's id */
  id: z.number().int(),
  checked: z.number().int(),
  settled: z.number().int(),
  differences: z.array(reconciliationDifference),
});
export type ReconcileResponse = z.output<typeof reconcileResponse>;

const reconciliationReportResponse = z.object({
  report: z.object({
    id: z.number().int(),
    startedAt: timestamp,
    finishedAt: timestamp,
    checked: z.number().int(),
    differences: z.array(reconciliationDifference),
  }),
});

// ---- the calls ----

const TAG = 'Payment provider';
export const providerOps = {
  providerWebhook: operation({
    id: 'providerWebhook',
    method: 'POST',
    path: '/api/provider/webhook',
    tag: TAG,
    summary:
      "The provider's events, one or a batch (`events`), signed (X-Provider-Signature over the raw body); each applied once; answers applied, ignored or duplicate for each, in order",
    access: 'public',
    audit: 'provider.webhook',
    input: providerWebhookBody,
    output: messageAnswer,
  }),
  walletChecker: operation({
    id: 'walletChecker',
    method: 'POST',
    path: '/api/wallet-checker',
    tag: TAG,
    summary: 'Who holds a wallet (the Obol Checker)',
    access: ['User can view payments', 'User can view profile'],
    input: walletCheckerRequest,
    output: walletCheckerResponse,
  }),
  reconcile: operation({
    id: 'reconcile',
    method: 'POST',
    path: '/api/reconcile',
    tag: TAG,
    summary: "Compares the provider's statement with the books: settles what it proves, reports every difference",
    access: { roles: ['Admin', 'Accountant'] },
    audit: 'provider.reconcile',
    output: reconcileResponse,
  }),
  reconciliationReport: operation({
    id: 'reconciliationReport',
    method: 'POST',
    path: '/api/reconciliation-report',
    tag: TAG,
    summary: 'The latest reconciliation report',
    access: { roles: ['Admin', 'Accountant'] },
    output: reconciliationReportResponse,
  }),
} as const;
