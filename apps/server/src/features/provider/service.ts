import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { settlePayout } from '../payouts/service.ts';
import { payouts } from '../payouts/tables.ts';
import { providerEvents, reconciliationReports, type ReconciliationDifference } from './tables.ts';

export interface ProviderEvent {
  event_id: string;
  type: string;
  created_at?: string;
  data: {
    id: string;
    reference?: string;
    idempotency_key?: string;
    status?: string;
    message?: string;
    amount?: number;
  };
}

/**
 * Applies one webhook event exactly once: the event id is recorded in the same transaction as its effect,
 * so a duplicate delivery changes nothing; settlement itself only moves a Processing payout, so an
 * out-of-order older event cannot undo a newer state.
 */
export async function applyProviderEvent(deps: Deps, ev: ProviderEvent): Promise<'applied' | 'ignored' | 'duplicate'> {
  return deps.db.transaction(async (tx) => {
    const [seen] = await tx
      .insert(providerEvents)
      .values({ eventId: ev.event_id, type: ev.type, payload: ev, outcome: 'pending' })
      .onConflictDoNothing({ target: providerEvents.eventId })
      .returning({ id: providerEvents.id });
    if (!seen) return 'duplicate' as const;
    let outcome: 'applied' | 'ignored' = 'ignored';
    if (ev.type === 'payout.completed' || ev.type === 'payout.failed') {
      outcome = await settlePayout(
        deps,
        {
          idempotencyKey: ev.data.idempotency_key,
          providerId: ev.data.idempotency_key ? undefined : ev.data.id,
          status: ev.type === 'payout.completed' ? 'Completed' : 'Failed',
          message: ev.data.message,
        },
        tx,
      );
      if (outcome === 'applied' && ev.data.idempotency_key) {
        await tx
          .update(payouts)
          .set({ providerId: ev.data.id })
          .where(and(eq(payouts.idempotencyKey, ev.data.idempotency_key)));
      }
    }
    await tx.update(providerEvents).set({ outcome }).where(eq(providerEvents.id, seen.id));
    return outcome;
  });
}

/** Compares the provider's statement with our payouts and records every difference. */
export async function reconcile(
  deps: Deps,
): Promise<{ id: number; checked: number; differences: ReconciliationDifference[] }> {
  const startedAt = new Date();
  const items = await deps.provider.statement();
  const payoutItems = items.filter((i) => i.type === 'payout');
  const keys = payoutItems.map((i) => i.idempotency_key);
  const ours = keys.length ? await deps.db.select().from(payouts).where(inArray(payouts.idempotencyKey, keys)) : [];
  const byKey = new Map(ours.map((p) => [p.idempotencyKey, p]));
  const differences: ReconciliationDifference[] = [];
  for (const item of payoutItems) {
    const p = byKey.get(item.idempotency_key);
    if (!p) {
      differences.push({ kind: 'missing_in_ledger', provider_id: item.id, reference: item.reference, theirs: item });
      continue;
    }
    if (p.amount !== item.amount) {
      differences.push({
        kind: 'amount_mismatch',
        provider_id: item.id,
        reference: p.reference,
        ours: p.amount,
        theirs: item.amount,
      });
    }
    if (p.status === 'Processing') {
      differences.push({
        kind: 'unsettled_in_ledger',
        provider_id: item.id,
        reference: p.reference,
        ours: p.status,
        theirs: item.status,
      });
    } else if (p.status !== item.status) {
      differences.push({
        kind: 'status_mismatch',
        provider_id: item.id,
        reference: p.reference,
        ours: p.status,
        theirs: item.status,
      });
    }
  }
  // settled on our side but unknown to the provider's statement
  const settledHere = await deps.db
    .select({
      key: payouts.idempotencyKey,
      providerId: payouts.providerId,
      status: payouts.status,
      reference: payouts.reference,
    })
    .from(payouts)
    .where(and(inArray(payouts.status, ['Completed']), isNotNull(payouts.settledAt)));
  const theirKeys = new Set(keys);
  for (const p of settledHere) {
    if (!theirKeys.has(p.key)) {
      differences.push({
        kind: 'missing_at_provider',
        provider_id: p.providerId ?? undefined,
        reference: p.reference,
        ours: p.status,
      });
    }
  }
  const [row] = await deps.db
    .insert(reconciliationReports)
    .values({ startedAt, checked: payoutItems.length, differences })
    .returning({ id: reconciliationReports.id });
  if (differences.length)
    deps.log.warn({ differences: differences.length, report: row.id }, 'reconciliation found differences');
  else deps.log.info({ checked: payoutItems.length, report: row.id }, 'reconciliation clean');
  return { id: row.id, checked: payoutItems.length, differences };
}
