import { REFUND_MSG } from '@obol/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { movementColumns } from '../../platform/columns.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { InsufficientFunds } from '../ledger/service.ts';
import type { Movement } from '../engine/movement.ts';
import { postReserve } from '../engine/reserve.ts';
import { payinRewards, payins, refunds } from './tables.ts';

/** A refund's code is valid for 24 hours (section 4). */
export const REFUND_CODE_TTL_MS = 24 * 3_600_000;
const REFUNDABLE = [0, 3];

/** The pay-in a refund names (by its request id), in the caller's scope; another tenant's answers 404. */
async function payinInScope(db: Executor, scope: Scope, requestId: string) {
  const inScope =
    scope.kind === 'all'
      ? sql`true`
      : scope.kind === 'merchant'
        ? eq(payins.merchantId, scope.merchantId)
        : scope.kind === 'brand'
          ? eq(payins.holderId, scope.brandId)
          : sql`false`;
  const [p] = await db
    .select()
    .from(payins)
    .where(and(eq(payins.providerId, requestId), inScope));
  if (!p) throw notFound('Pay-in not found');
  return p;
}

const refundBinding = (p: { id: number; amount: number }) => ({ op: 'payin_refund', payin: p.id, amount: p.amount });

/** `/api/generate-refund-code`: only for a Completed pay-in not refunded (refund status 0 or 3). */
export async function requestRefundCode(deps: Deps, auth: AuthContext, reference: string) {
  const p = await payinInScope(deps.db, auth.scope, reference);
  if (p.status !== 'completed' || !REFUNDABLE.includes(p.refundStatus ?? -1))
    throw unprocessable(REFUND_MSG.notRefundable, 'reference');
  // a clear answer before a code is sent; createRefund checks it again where it counts
  const [reward] = await deps.db
    .select({ payoutStatus: payinRewards.payoutStatus })
    .from(payinRewards)
    .where(eq(payinRewards.payinId, p.id));
  if (reward?.payoutStatus === 'in_flight') throw unprocessable(REFUND_MSG.rewardInFlight, 'reference');
  return issueApprovalCode(
    deps,
    auth.user,
    'payin_refund',
    refundBinding(p),
    `a refund of ${(p.amount / 100).toFixed(2)} EUR for the pay-in ${p.reference} (${p.providerId})`,
    REFUND_CODE_TTL_MS,
  );
}

/**
 * `/api/payin-refund`: the code (bound to this pay-in and amount) is used up, then in one transaction: the pay-in
 * moves from refund status 0 or 3 to 2 (a conditional UPDATE, which also locks the pay-in row: a second refund finds
 * nothing to move), its reward is checked (a payment of it in flight refuses the refund: payReward takes the same
 * row lock, so of a reward and a refund at the same moment exactly one goes through), the refund row (Pending; the
 * partial unique index allows one open refund per pay-in), the reserve entry (pay-in account -amount, refunds in
 * flight +amount; the guarded debit refuses what the account no longer holds) and the `refund.submit` job. The whole
 * amount goes back to the payer; a reward already paid to the payer's wallet stays paid, and the answer says so.
 */
export async function createRefund(
  deps: Deps,
  auth: AuthContext,
  input: { reference: string; code: string },
  record?: (tx: Tx, refundId: number) => Promise<void>,
) {
  const p = await payinInScope(deps.db, auth.scope, input.reference);
  if (p.status !== 'completed' || !REFUNDABLE.includes(p.refundStatus ?? -1))
    throw unprocessable(REFUND_MSG.notRefundable, 'reference');
  await consumeApprovalCode(deps, auth.user, 'payin_refund', refundBinding(p), input.code);
  return refundPayin(deps, auth.user.id, p, record);
}

/**
 * The refund itself, once its code is used up (createRefund; the demo seed, which has no mailbox to read a code
 * from, starts here as it starts a demo transfer at recordTransfer).
 */
export async function refundPayin(
  deps: Deps,
  userId: number,
  p: typeof payins.$inferSelect,
  record?: (tx: Tx, refundId: number) => Promise<void>,
) {
  try {
    return await deps.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(payins)
        .set({ refundStatus: 2, updatedAt: sql`now()` })
        .where(and(eq(payins.id, p.id), eq(payins.status, 'completed'), inArray(payins.refundStatus, REFUNDABLE)))
        .returning({ id: payins.id });
      if (!moved) throw unprocessable(REFUND_MSG.notRefundable, 'reference');
      // read after the lock: a reward paid by a transaction that held it first is seen here
      const [reward] = await tx
        .select({ amount: payinRewards.amount, payoutStatus: payinRewards.payoutStatus })
        .from(payinRewards)
        .where(eq(payinRewards.payinId, p.id));
      if (reward?.payoutStatus === 'in_flight') throw unprocessable(REFUND_MSG.rewardInFlight, 'reference');
      const rewardKept = reward?.payoutStatus === 'completed' ? reward.amount : 0;
      const [refund] = await tx
        .insert(refunds)
        .values({
          payinId: p.id,
          merchantId: p.merchantId,
          holderId: p.holderId,
          accountId: p.accountId,
          amount: p.amount,
          idempotencyKey: `refund:${p.id}:${randomUUID()}`,
          createdBy: userId,
        })
        .returning();
      await postReserve(tx, {
        kind: 'refund',
        id: refund.id,
        clearing: 'refund_clearing',
        source: p.accountId,
        amount: p.amount,
        createdBy: userId,
        memo: p.reference,
      });
      await deps.jobs.send('refund.submit', { refundId: refund.id }, { tx });
      await record?.(tx, refund.id);
      return {
        message: rewardKept ? [REFUND_MSG.refunded, REFUND_MSG.rewardKept(rewardKept)] : [REFUND_MSG.refunded],
        refund_status: 2,
        reward_kept: rewardKept,
      };
    });
  } catch (err) {
    if (err instanceof InsufficientFunds) throw unprocessable(REFUND_MSG.insufficient, 'reference');
    throw err;
  }
}

/**
 * A refund as the money engine moves it (engine/movement.ts): reserved from the pay-in account when made
 * (Pending, the pay-in's refund status 2), sent to the provider against the pay-in under its own key, then
 * Completed (refunds in flight -> provider; refund status 1) or Declined with the reason (the reserve reversed,
 * the money back in the pay-in account; refund status 0, a new refund may start).
 */
export const refundMovement: Movement<typeof refunds.$inferSelect> = {
  kind: 'refund',
  table: refunds,
  columns: movementColumns(refunds),
  clearing: 'refund_clearing',
  events: ['refund.completed', 'refund.failed'],
  // a minute: a refund's job runs within seconds of its commit
  recoverAfterMs: 60_000,
  async send(deps, r) {
    const [p] = await deps.db.select({ providerId: payins.providerId }).from(payins).where(eq(payins.id, r.payinId));
    const answer = await deps.provider.refund({
      idempotency_key: r.idempotencyKey,
      payin_id: p.providerId,
      amount: r.amount,
    });
    return answer.id;
  },
  lookup: (provider, key) => provider.refundByKey(key),
  settledColumns: (state, reason) => ({ reason: state === 'failed' ? reason : null, settledAt: sql`now()` }),
  defaultReason: 'Declined by the provider',
  async alsoOnSettle(tx, r, state) {
    await tx
      .update(payins)
      .set({ refundStatus: state === 'completed' ? 1 : 0, updatedAt: sql`now()` })
      .where(eq(payins.id, r.payinId));
  },
};
