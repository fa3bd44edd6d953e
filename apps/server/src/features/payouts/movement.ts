import { sql } from 'drizzle-orm';
import { movementColumns, sentTimes } from '../../platform/columns.ts';
import type { Movement } from '../engine/movement.ts';
import { payoutSettlementEntries, type BatchReturns } from './settle.ts';
import { payouts } from './tables.ts';
import type { PayoutRow } from './service.ts';

/** What the provider is sent for a payout (its own idempotency key: a retry never pays twice). */
export const providerBody = (p: PayoutRow) => ({
  idempotency_key: p.idempotencyKey,
  reference: p.reference,
  obol_id: p.obolId,
  amount: p.amount,
  currency: 'EUR' as const,
  beneficiary_name: p.beneficiaryName,
  brand: p.brand,
});

/**
 * A payout, manual or of a batch, declared to the money engine (engine/movement.ts): Processing until the provider
 * settles it Completed or Failed, its money in payouts in flight meanwhile. A batch's payouts are sent in batch
 * calls and looked up many at a time; their settlements post together (settle.ts). What a failed payout returns of
 * its batch's fee is batches' to say: the movement is made with it there (batches/payout-movement.ts).
 */
export const payoutMovementWith = (batchReturns: BatchReturns): Movement<PayoutRow> => ({
  kind: 'payout',
  table: payouts,
  columns: movementColumns(payouts),
  clearing: 'payout_clearing',
  // the catch-all of payout events: a reward's payout owns its own keys (payins/rewards.ts)
  events: ['payout.completed', 'payout.failed'],
  // PAYOUT_RECOVERY_SECONDS (30 s): the simulator settles in about 1.5 s and real providers within seconds to
  // minutes; asking sooner costs a look-up, asking later leaves money reserved for longer after a crash
  recoverAfterMs: (config) => config.payoutRecoverySeconds * 1000,
  send: async (deps, row) => (await deps.provider.createPayout(providerBody(row))).id,
  sendMany: (deps, rows) => deps.provider.createPayouts(rows.map(providerBody)),
  lookup: (provider, key) => provider.payoutByKey(key),
  lookupMany: (provider, keys) => provider.lookupPayouts(keys),
  sentColumns: sentTimes,
  settledColumns: (state, reason) => ({
    failureMessage: state === 'failed' ? reason : null,
    settledAt: sql`now()`,
    updatedAt: sql`now()`,
  }),
  defaultReason: 'Brand does not match',
  postSettled: (tx, settled) => payoutSettlementEntries(tx, settled, batchReturns),
});
