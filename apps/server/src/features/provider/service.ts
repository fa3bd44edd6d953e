import type { ProviderEvent, ReconcileResponse } from '@obol/contract';
import { desc, eq, sql } from 'drizzle-orm';
import { anyOf, rowsOf, type Tx } from '../../platform/db.ts';
import type { ProviderItem } from '../../platform/provider.ts';
import type { Deps } from '../../platform/deps.ts';
import { completedPayouts, payoutsByKeys } from '../payouts/find.ts';
import { payoutMovement } from '../batches/payout-movement.ts';
import {
  inFlightByKey,
  inFlightKeys,
  movementOfEvent,
  settleMovement,
  settleMovements,
  settlementOf,
  type MovementSettlement,
} from '../engine/settle.ts';
import { REWARD_KEY_PREFIX } from '../payins/rewards.ts';
import { MOVEMENTS } from './movements.ts';
import { providerEvents, reconciliationReports, type ReconciliationDifference } from './tables.ts';
import { wordOf } from '../engine/status.ts';

/**
 * Applies one webhook event exactly once. A webhook only says "look": the provider is asked (outside any
 * transaction) for the movement the event names, under the key its kind is known by (a payout's idempotency key, a
 * pay-in's link id), and the provider's answer, not the webhook's body, settles it; a forged or stale event moves
 * nothing. The event id is recorded in the
 * same transaction as the effect (and as the activity record), so a duplicate delivery changes nothing;
 * settlement itself only moves a Processing payout, so an out-of-order older event cannot undo a newer state.
 */
export async function applyProviderEvent(
  deps: Deps,
  ev: ProviderEvent,
  record?: (tx: Tx, outcome: string) => Promise<void>,
): Promise<'applied' | 'ignored' | 'duplicate'> {
  const [known] = await deps.db
    .select({ id: providerEvents.id })
    .from(providerEvents)
    .where(eq(providerEvents.eventId, ev.event_id));
  if (known) return 'duplicate';
  let verified: ProviderItem | null = null;
  // the movement the event speaks of (a payout, a transfer, a 2D transfer, a refund, a reward's payment, a pay-in),
  // known by the event's type and the key it names it by
  const found = movementOfEvent(MOVEMENTS, ev);
  // only one still in flight needs the provider's word (ProviderUnavailable: the provider retries)
  if (found && (await inFlightByKey(deps.db, found.movement, found.key)))
    verified = await found.movement.lookup(deps.provider, found.key);
  return deps.db.transaction(async (tx) => {
    const [seen] = await tx
      .insert(providerEvents)
      .values({ eventId: ev.event_id, type: ev.type, payload: ev, outcome: 'pending' })
      .onConflictDoNothing({ target: providerEvents.eventId })
      .returning({ id: providerEvents.id });
    if (!seen) return 'duplicate' as const;
    let outcome: 'applied' | 'ignored' = 'ignored';
    const settled = found && verified?.idempotency_key === found.key && settlementOf(found.movement, verified);
    if (found && settled) outcome = await settleMovement(deps, found.movement, settled, tx);
    await tx.update(providerEvents).set({ outcome }).where(eq(providerEvents.id, seen.id));
    await record?.(tx, outcome);
    return outcome;
  });
}

export type EventOutcome = 'applied' | 'ignored' | 'duplicate';

/** A payout event (not a reward's) that names its idempotency key: these are applied together in a batch. */
const isPlainPayoutEvent = (ev: ProviderEvent) =>
  (ev.type === 'payout.completed' || ev.type === 'payout.failed') &&
  !!ev.data.idempotency_key &&
  !ev.data.idempotency_key.startsWith(REWARD_KEY_PREFIX);

/**
 * Applies a batch of webhook events (as the provider delivers them under load), each exactly once, and answers
 * each one's outcome in order. The payout events are applied together: the provider is asked once for every
 * payout still in flight among them (a look-up by keys), and one transaction records every event id, settles
 * the payouts the provider's answer proves settled (settleMovements: each once, the platform accounts moved once)
 * and writes the activity record. Every other event is applied on its own, as applyProviderEvent does. The
 * guarantees are the single event's: a duplicate (here, in the same batch, or racing) changes nothing, a forged
 * or stale event moves nothing, an older state cannot undo a newer one.
 */
export async function applyProviderEvents(
  deps: Deps,
  events: ProviderEvent[],
  record?: (tx: Tx, what: { type: string; id: string; outcome: string }) => Promise<void>,
): Promise<EventOutcome[]> {
  const outcomes: EventOutcome[] = new Array(events.length);
  const group: number[] = [];
  for (const [i, ev] of events.entries()) {
    if (isPlainPayoutEvent(ev)) group.push(i);
    else
      outcomes[i] = await applyProviderEvent(deps, ev, (tx, outcome) =>
        record ? record(tx, { type: ev.type, id: ev.data.id, outcome }) : Promise.resolve(),
      );
  }
  if (!group.length) return outcomes;

  // the first of each event id in the batch; later copies are duplicates
  const first = new Map<string, number>();
  for (const i of group) {
    if (first.has(events[i].event_id)) outcomes[i] = 'duplicate';
    else first.set(events[i].event_id, i);
  }
  const known = new Set(
    (
      await deps.db
        .select({ id: providerEvents.eventId })
        .from(providerEvents)
        .where(anyOf(providerEvents.eventId, [...first.keys()], 'text'))
    ).map((r) => r.id),
  );
  const fresh = [...first.values()].filter((i) => {
    if (!known.has(events[i].event_id)) return true;
    outcomes[i] = 'duplicate';
    return false;
  });
  if (!fresh.length) return outcomes;
  // only payouts still in flight need the provider's word (ProviderUnavailable: a 503, the provider retries)
  const keys = [...new Set(fresh.map((i) => events[i].data.idempotency_key!))];
  const inFlight = await inFlightKeys(deps.db, payoutMovement, keys);
  const verified = new Map(
    (inFlight.size ? await deps.provider.lookupPayouts([...inFlight]) : []).map((v) => [v.idempotency_key, v]),
  );

  await deps.db.transaction(async (tx) => {
    const claimed = new Set(
      rowsOf<{ event_id: string }>(
        await tx.execute(sql`
          INSERT INTO provider_events (event_id, type, payload, outcome)
          SELECT u.event_id, u.type, u.payload, 'pending' FROM unnest(
            ${sql.param(fresh.map((i) => events[i].event_id))}::text[],
            ${sql.param(fresh.map((i) => events[i].type))}::text[],
            ${sql.param(fresh.map((i) => JSON.stringify(events[i])))}::jsonb[]) AS u(event_id, type, payload)
          ON CONFLICT (event_id) DO NOTHING
          RETURNING event_id`),
      ).map((r) => r.event_id),
    );
    const settlements: MovementSettlement[] = [];
    for (const i of fresh) {
      if (!claimed.has(events[i].event_id)) {
        outcomes[i] = 'duplicate'; // another delivery of it committed first
        continue;
      }
      const key = events[i].data.idempotency_key!;
      const v = verified.get(key);
      const settled = v?.idempotency_key === key && settlementOf(payoutMovement, v);
      if (settled) settlements.push(settled);
    }
    const applied = await settleMovements(tx, payoutMovement, settlements);
    // an event applies the settlement of its payout once: a second event of the same payout is ignored
    const used = new Set<string>();
    const mine = fresh.filter((i) => claimed.has(events[i].event_id));
    for (const i of mine) {
      const key = events[i].data.idempotency_key!;
      outcomes[i] = applied.has(key) && !used.has(key) ? 'applied' : 'ignored';
      if (outcomes[i] === 'applied') used.add(key);
    }
    if (mine.length)
      await tx.execute(sql`
        UPDATE provider_events e SET outcome = v.outcome
        FROM unnest(${sql.param(mine.map((i) => events[i].event_id))}::text[],
          ${sql.param(mine.map((i) => outcomes[i]))}::text[]) AS v(event_id, outcome)
        WHERE e.event_id = v.event_id`);
    const count = (o: EventOutcome) => mine.filter((i) => outcomes[i] === o).length;
    await record?.(tx, {
      type: 'payout.events',
      id: `${mine.length} events`,
      outcome: `applied ${count('applied')}, ignored ${count('ignored')}`,
    });
  });
  return outcomes;
}

/**
 * Compares the provider's statement with our payouts: a payout still in flight here that the statement shows
 * settled (same amount) is settled from it; every difference that cannot be proven is recorded.
 */
export async function reconcile(deps: Deps): Promise<ReconcileResponse> {
  const startedAt = new Date();
  const items = await deps.provider.statement();
  // rewards are provider payouts too, but settled by their own recovery: the reconciliation compares payouts
  const payoutItems = items.filter((i) => i.type === 'payout' && !i.idempotency_key.startsWith(REWARD_KEY_PREFIX));
  const keys = payoutItems.map((i) => i.idempotency_key);
  const ours = await payoutsByKeys(deps.db, keys);
  const byKey = new Map(ours.map((p) => [p.idempotencyKey, p]));
  const differences: ReconciliationDifference[] = [];
  let settled = 0;
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
    if (
      p.status === 'in_flight' &&
      p.amount === item.amount &&
      (item.status === 'Completed' || item.status === 'Failed')
    ) {
      // proven by the provider's statement: settle it now (once; a webhook racing this changes nothing)
      const done = await settleMovement(deps, payoutMovement, {
        key: p.idempotencyKey,
        providerId: item.id,
        status: item.status,
        message: item.message,
        amount: item.amount,
      });
      if (done === 'applied') settled += 1;
    } else if (p.status === 'in_flight') {
      differences.push({
        kind: 'unsettled_in_ledger',
        provider_id: item.id,
        reference: p.reference,
        ours: wordOf('payout', p.status),
        theirs: item.status,
      });
    } else if (wordOf('payout', p.status) !== item.status) {
      differences.push({
        kind: 'status_mismatch',
        provider_id: item.id,
        reference: p.reference,
        ours: wordOf('payout', p.status),
        theirs: item.status,
      });
    }
  }
  // settled on our side but unknown to the provider's statement
  const settledHere = await completedPayouts(deps.db);
  const theirKeys = new Set(keys);
  for (const p of settledHere) {
    if (!theirKeys.has(p.key)) {
      differences.push({
        kind: 'missing_at_provider',
        provider_id: p.providerId ?? undefined,
        reference: p.reference,
        ours: wordOf('payout', p.status),
      });
    }
  }
  const [row] = await deps.db
    .insert(reconciliationReports)
    .values({ startedAt, checked: payoutItems.length, differences })
    .returning({ id: reconciliationReports.id });
  if (differences.length)
    deps.log.warn({ differences: differences.length, settled, report: row.id }, 'reconciliation found differences');
  else deps.log.info({ checked: payoutItems.length, settled, report: row.id }, 'reconciliation clean');
  return { id: row.id, checked: payoutItems.length, settled, differences };
}

/** The latest reconciliation report, or undefined before the first. */
export async function latestReconciliation(deps: Deps) {
  const [latest] = await deps.db.select().from(reconciliationReports).orderBy(desc(reconciliationReports.id)).limit(1);
  return latest;
}
