import { sql } from 'drizzle-orm';
import { movementColumns } from '../../platform/columns.ts';
import type { ProviderItem, ProviderPayin } from '../../platform/provider.ts';
import type { Movement } from '../engine/movement.ts';
import { payins } from './tables.ts';

const DECLINED = 'Payment declined by the payer or the bank';
const EXPIRED = 'The payment link expired before it was paid';

/**
 * A pay-in link as the provider shows it, in the engine's terms: keyed by the link id (the provider's word names a
 * pay-in by it; the merchant's idempotency key is unique only per holder), Initiated in flight, Declined and Expired
 * both failures (the pay-in keeps the provider's word, `payin_status`), with the reason where the provider gives none.
 */
export function payinItem(p: ProviderPayin): ProviderItem {
  return {
    ...p,
    id: p.id,
    idempotency_key: p.id,
    reference: p.reference,
    amount: p.amount,
    currency: typeof p.currency === 'string' ? p.currency : 'EUR',
    status: p.status === 'Completed' ? 'Completed' : p.status === 'Initiated' ? 'Processing' : 'Failed',
    message:
      p.status === 'Declined' ? (p.message ?? DECLINED) : p.status === 'Expired' ? (p.message ?? EXPIRED) : undefined,
    created_at: typeof p.created_at === 'string' ? p.created_at : '',
    payin_status: p.status,
  };
}

/**
 * A pay-in as the money engine moves it (engine/movement.ts): money in. Its link is made at the provider by
 * `create-payin-link` (nothing to send here), in flight until the provider's word: completed (the amount credited to
 * the holder's pay-in account from the provider's settlement account, `payin:<id>:complete`; the pay-in may now be
 * refunded, refund status 3 Not Refunded), failed or expired with the reason (nothing moves). A lost webhook is
 * recovered a minute after the link expired, by asking the provider for the link.
 */
export const payinMovement: Movement<typeof payins.$inferSelect> = {
  kind: 'payin',
  table: payins,
  columns: movementColumns(payins, { key: payins.providerId, since: payins.expiresAt }),
  inbound: { account: (p) => p.accountId, memo: (p) => p.reference },
  events: ['payin.completed', 'payin.declined', 'payin.expired'],
  eventKey: (data) => data.id,
  // `since` is the link's expiry: until then the payer may still pay and the provider's webhook is not late
  recoverAfterMs: 60_000,
  lookup: async (provider, id) => {
    const link = await provider.payinLink(id);
    return link && payinItem(link);
  },
  statusOf: (item) => (item.payin_status === 'Expired' ? 'expired' : undefined),
  settledColumns: (state, reason, finer) => ({
    reason: state === 'failed' ? reason : null,
    // a link the payer paid or was declined on takes no more payment: Used, not still Initiated (record 038)
    linkStatus: finer === 'expired' ? 'Expired' : 'Used',
    ...(state === 'completed' ? { refundStatus: 3 } : {}),
    settledAt: sql`now()`,
    updatedAt: sql`now()`,
  }),
  defaultReason: DECLINED,
};
