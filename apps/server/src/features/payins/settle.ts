import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { ProviderPayin } from '../../platform/provider.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { payins } from './tables.ts';

// ---- the provider's word on a pay-in, and the recovery of lost webhooks ----

/**
 * The provider's word on a pay-in, inside the webhook's transaction: a Pending pay-in becomes Completed (its amount
 * credited to the holder's pay-in account from the provider's settlement account, one entry keyed by the pay-in),
 * Declined or Expired with the reason. Anything else (already settled, unknown) changes nothing.
 */
export async function settlePayin(tx: Tx, p: ProviderPayin): Promise<'applied' | 'ignored'> {
  if (p.status === 'Initiated') return 'ignored';
  const reason =
    p.status === 'Declined'
      ? (p.message ?? 'Payment declined by the payer or the bank')
      : p.status === 'Expired'
        ? (p.message ?? 'The payment link expired before it was paid')
        : null;
  const [row] = await tx
    .update(payins)
    .set({
      status: p.status,
      reason,
      ...(p.status === 'Expired' ? { linkStatus: 'Expired' } : {}),
      // a completed pay-in may be refunded: Not Refunded
      ...(p.status === 'Completed' ? { refundStatus: 3 } : {}),
      settledAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payins.providerId, p.id), eq(payins.status, 'Pending'), eq(payins.amount, p.amount)))
    .returning();
  if (!row) return 'ignored';
  if (p.status === 'Completed') {
    await postEntry(tx, {
      idempotencyKey: `payin:${row.id}:complete`,
      kind: 'payin.complete',
      businessType: 'payin',
      businessId: row.id,
      memo: row.reference,
      postings: [
        { accountId: await platformAccountId(tx, 'provider'), amount: -row.amount },
        { accountId: row.accountId, amount: row.amount },
      ],
    });
  }
  return 'applied';
}

/** Whether a pay-in still waits for the provider (the webhook then asks the provider for its state). */
export async function payinStatusByProviderId(db: Executor, providerId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: payins.status }).from(payins).where(eq(payins.providerId, providerId));
  return row?.status;
}

/** Pay-ins still Pending a minute after their link expired: their webhook was lost; the recovery asks. */
export async function overduePayins(db: Executor, limit = 200): Promise<{ providerId: string }[]> {
  return db
    .select({ providerId: payins.providerId })
    .from(payins)
    .where(and(eq(payins.status, 'Pending'), lt(payins.expiresAt, sql`now() - interval '1 minute'`)))
    .orderBy(payins.expiresAt, payins.id)
    .limit(limit);
}

/**
 * Pay-ins a lost webhook left Pending after their link expired: each is settled from the provider's own answer,
 * in its own transaction (a pay-in already settled by a late webhook is left alone).
 */
export async function recoverPayins(deps: Deps): Promise<number> {
  let n = 0;
  for (const { providerId } of await overduePayins(deps.db)) {
    const p = await deps.provider.payinLink(providerId);
    if (!p) continue;
    if ((await deps.db.transaction((tx) => settlePayin(tx, p))) === 'applied') n++;
  }
  return n;
}
