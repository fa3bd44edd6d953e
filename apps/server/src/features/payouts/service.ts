import { feeCents, MAX_AMOUNT_CENTS } from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db.ts';
import { unprocessable } from '../../platform/errors.ts';
import type { Jobs } from '../../platform/jobs.ts';
import type { AccountRow } from '../ledger/accounts.ts';
import type { Movement } from '../engine/movement.ts';
import { postReserve } from '../engine/reserve.ts';
import { settleMovements } from '../engine/settle.ts';
import { payouts } from './tables.ts';

export type PayoutRow = typeof payouts.$inferSelect;

export interface NewPayout {
  merchantId: number;
  behalfOfId: number;
  account: Pick<AccountRow, 'id' | 'kind'>;
  createdBy: number;
  feeBps: number;
  batchId?: string;
  payoutType?: 'manual' | 'batch';
  merchantTransactionId: string;
  beneficiaryName: string;
  brand: string;
  obolId: string;
  reference: string;
  amount: number;
  /** one per payout; the provider sees it too, so a retry never pays twice */
  idempotencyKey: string;
  /** at or above its merchant's approval threshold: reserved, 'Pending approval', nothing sent until approved */
  held?: boolean;
}

/**
 * Creates a payout in flight and reserves amount + fee from the payout account in one ledger entry, in
 * the caller's transaction, and enqueues its submission to the provider in the same transaction. A held one is
 * reserved the same way and waits, 'Pending approval', for releaseHeldPayout or rejectHeldPayout.
 */
export async function createPayout(tx: Tx, jobs: Pick<Jobs, 'send'>, p: NewPayout): Promise<PayoutRow> {
  if (!Number.isSafeInteger(p.amount) || p.amount <= 0 || p.amount > MAX_AMOUNT_CENTS) {
    throw unprocessable('Amount must be a whole number of cents above 0', 'amount');
  }
  if (p.account.kind !== 'payout' && p.account.kind !== 'fee')
    throw unprocessable('Payouts are made from a payout account', 'account_reference');
  const fee = feeCents(p.amount, p.feeBps);
  const [row] = await tx
    .insert(payouts)
    .values({
      merchantId: p.merchantId,
      behalfOfId: p.behalfOfId,
      accountId: p.account.id,
      createdBy: p.createdBy,
      batchId: p.batchId,
      payoutType: p.payoutType ?? 'manual',
      merchantTransactionId: p.merchantTransactionId,
      beneficiaryName: p.beneficiaryName,
      brand: p.brand,
      obolId: p.obolId,
      reference: p.reference,
      amount: p.amount,
      fee,
      feeBps: p.feeBps,
      status: p.held ? 'held' : 'in_flight',
      idempotencyKey: p.idempotencyKey,
    })
    .returning();
  await reservePayout(tx, row);
  if (!p.held) await jobs.send('payout.submit', { payoutId: row.id }, { tx });
  return row;
}

/** An approved payout goes on to the provider (held -> in_flight once, with its submission job). */
export async function releaseHeldPayout(tx: Tx, jobs: Pick<Jobs, 'send'>, id: number): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'in_flight', updatedAt: new Date() })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'held')))
    .returning();
  if (row) await jobs.send('payout.submit', { payoutId: row.id }, { tx });
  return row;
}

/**
 * A rejected payout fails as a declined one does, through the engine's one settle path (its reserve returned, its
 * event written; the movement is batches' payoutMovement): moved in flight and settled failed in the same
 * transaction, so nobody sees it in flight.
 */
export async function rejectHeldPayout(
  tx: Tx,
  payoutMovement: Movement<PayoutRow>,
  id: number,
  reason: string,
): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .update(payouts)
    .set({ status: 'in_flight', updatedAt: new Date() })
    .where(and(eq(payouts.id, id), eq(payouts.status, 'held')))
    .returning();
  if (row) await settleMovements(tx, payoutMovement, [{ key: row.idempotencyKey, status: 'Failed', message: reason }]);
  return row;
}

/** The reserve entry: payout account -(amount+fee), payouts in flight +amount, Fee Account +fee. */
export async function reservePayout(tx: Tx, row: PayoutRow) {
  const { id, accountId: source, amount, fee, createdBy } = row;
  return postReserve(tx, { kind: 'payout', id, clearing: 'payout_clearing', source, amount, fee, createdBy });
}
