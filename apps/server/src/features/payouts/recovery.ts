import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { ProviderItem } from '../../platform/provider.ts';
import { submitPayouts } from './service.ts';
import { settlePayouts, type PayoutSettlement } from './settle.ts';
import { payouts } from './tables.ts';

/** How often each process looks for payouts in flight too long (and once at start). */
export const RECOVER_EVERY_MS = 15_000;

export interface RecoveryResult {
  /** payouts in flight longer than the threshold, asked of the provider */
  asked: number;
  /** settled from the provider's answer (Completed or Failed there) */
  settled: number;
  /** never received by the provider: sent again with the same idempotency key */
  resent: number;
  /** accepted by the provider whose id we had not recorded yet */
  accepted: number;
  /** known to us as sent, unknown to the provider: left for reconciliation to report */
  unknown: number;
}

/**
 * Recovers every payout a dead process, a lost answer or a lost webhook left in flight: each Processing
 * payout older than `olderThanMs` is looked up at the provider by its idempotency key (in batches) and
 * settled from the provider's answer, exactly once (settlement only moves a Processing payout); one the
 * provider never received is sent again under the same key, so it is still paid at most once.
 */
export async function recoverInFlight(
  deps: Deps,
  opts: { olderThanMs?: number; limit?: number } = {},
): Promise<RecoveryResult> {
  // PAYOUT_RECOVERY_SECONDS (30 s): the simulator settles in about 1.5 s and real providers within seconds to
  // minutes; asking sooner costs a look-up, asking later leaves money reserved for longer after a crash
  const olderThanMs = opts.olderThanMs ?? deps.config.payoutRecoverySeconds * 1000;
  const limit = opts.limit ?? 20_000;
  const r: RecoveryResult = { asked: 0, settled: 0, resent: 0, accepted: 0, unknown: 0 };
  let afterId = 0;
  while (r.asked < limit) {
    const stale = await deps.db
      .select({ id: payouts.id, key: payouts.idempotencyKey, providerId: payouts.providerId })
      .from(payouts)
      .where(
        and(
          eq(payouts.status, 'Processing'),
          gt(payouts.id, afterId),
          sql`${payouts.createdAt} < now() - make_interval(secs => ${olderThanMs / 1000})`,
        ),
      )
      .orderBy(asc(payouts.id))
      .limit(1000);
    if (!stale.length) break;
    afterId = stale[stale.length - 1].id;
    r.asked += stale.length;
    const found = new Map<string, ProviderItem>(
      (await deps.provider.lookupPayouts(stale.map((p) => p.key))).map((i) => [i.idempotency_key, i]),
    );
    const settle: PayoutSettlement[] = [];
    const resend: number[] = [];
    const accepted: { key: string; providerId: string }[] = [];
    for (const p of stale) {
      const item = found.get(p.key);
      if (!item) {
        if (p.providerId) r.unknown += 1;
        else resend.push(p.id);
      } else if (item.status === 'Completed' || item.status === 'Failed') {
        settle.push({ idempotencyKey: p.key, providerId: item.id, status: item.status, message: item.message });
      } else if (!p.providerId) accepted.push({ key: p.key, providerId: item.id });
    }
    // the settled ones in one transaction (each once: a webhook racing this changes nothing), the ones the
    // provider never received sent again in batch calls under their own keys
    if (settle.length) r.settled += (await deps.db.transaction((tx) => settlePayouts(tx, settle))).size;
    if (resend.length) {
      await submitPayouts(deps, resend);
      r.resent += resend.length;
    }
    for (const a of accepted) {
      await deps.db
        .update(payouts)
        .set({ providerId: a.providerId, submittedAt: new Date() })
        .where(and(eq(payouts.idempotencyKey, a.key), isNull(payouts.providerId)));
      r.accepted += 1;
    }
  }
  if (r.settled || r.resent || r.unknown)
    deps.log[r.unknown ? 'warn' : 'info']({ ...r }, 'recovered payouts in flight');
  return r;
}
