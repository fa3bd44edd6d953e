import { REWARD_MSG, type RewardRow } from '@obol/contract';
import { eq, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { movementColumns } from '../../platform/columns.ts';
import { escapeLike, rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { createdPageSql, listPage, type CreatedList, type ListDir } from '../../platform/lists.ts';
import type { Deps } from '../../platform/deps.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import type { Movement } from '../engine/movement.ts';
import { InsufficientFunds, postEntry } from '../ledger/service.ts';
import { payinRewards, payins } from './tables.ts';
import { wordOf } from '../engine/status.ts';

/** The provider keys of reward payments start so (the webhook and the reconciliation tell them from payouts). */
export const REWARD_KEY_PREFIX = 'reward:';

/**
 * The refund statuses (section 4) of a pay-in whose reward may be paid: 3 Not Refunded, or 0 Refund Declined (the
 * money came back). 1 Refund Completed and 2 Pending refuse it: the payer has, or is getting, the money back.
 */
const NOT_REFUNDED = sql.raw('0, 3');

const rewardScope = (scope: Scope): SQL => tenantFilter(scope, sql`r.merchant_id`, sql`r.holder_id`);

/**
 * Pays a reward ("update reward"): in one transaction the reward's pay-in row is locked, then the reward moves from
 * NotRewarded to Rewarded (a conditional UPDATE that also requires its pay-in Completed and never refunded nor being
 * refunded, and the reward in the caller's scope: a double click, a retry or a second user finds nothing to move),
 * the amount leaves the holder's pay-in account for rewards in flight (a guarded debit: 422 when the account no
 * longer holds it), and the `reward.submit` job is queued. A refund takes the same pay-in row lock first
 * (createRefund), so a reward and a refund of one pay-in at the same moment run one after the other and the second
 * sees the first: exactly one of them goes through. The payment's key is new for each attempt, so a reward paid
 * again after the provider refused a wallet is a new payment, and a late answer about the old one changes nothing.
 */
export async function payReward(
  deps: Deps,
  auth: AuthContext,
  id: number,
  record?: (tx: Tx, reward: { id: number; amount: number }) => Promise<void>,
): Promise<void> {
  const key = `${REWARD_KEY_PREFIX}${id}:${randomUUID()}`;
  try {
    await deps.db.transaction(async (tx) => {
      // the pay-in row, locked: a refund of it waits for this transaction, or this one for the refund's
      const [payin] = rowsOf<{ id: number | string }>(
        await tx.execute(sql`
          SELECT p.id FROM payins p JOIN payin_rewards r ON r.payin_id = p.id
          WHERE r.id = ${id} AND ${rewardScope(auth.scope)}
          FOR UPDATE OF p`),
      );
      if (!payin) throw notFound('Reward not found');
      // statements after the lock read what a refund that held it committed
      const moved = rowsOf<{ id: number | string; amount: number | string; account_id: number; reference: string }>(
        await tx.execute(sql`
          UPDATE payin_rewards r SET status = 'Rewarded', payout_status = 'in_flight', reason = NULL,
            idempotency_key = ${key}, provider_id = NULL, rewarded_by = ${auth.user.id}, rewarded_at = now(),
            updated_at = now()
          FROM payins p
          WHERE r.id = ${id} AND r.status = 'NotRewarded' AND p.id = r.payin_id AND p.status = 'completed'
            AND p.refund_status IN (${NOT_REFUNDED})
            AND ${rewardScope(auth.scope)}
          RETURNING r.id, r.amount, r.account_id, p.reference`),
      );
      const r = moved[0];
      if (!r) {
        // why nothing moved: one already paid, a pay-in refunded or being refunded, or a pay-in not completed
        const [seen] = rowsOf<{ status: string; payin_status: string; refund_status: number | null }>(
          await tx.execute(sql`
            SELECT r.status, p.status AS payin_status, p.refund_status
            FROM payin_rewards r JOIN payins p ON p.id = r.payin_id WHERE r.id = ${id}`),
        );
        if (seen.status === 'Rewarded') throw conflict(REWARD_MSG.alreadyRewarded);
        if (seen.payin_status === 'completed') throw unprocessable(REWARD_MSG.refunded, 'id');
        throw unprocessable(REWARD_MSG.notCompleted, 'id');
      }
      const amount = Number(r.amount);
      await postEntry(tx, {
        idempotencyKey: `${key}:reserve`,
        kind: 'reward.reserve',
        businessType: 'reward',
        businessId: Number(r.id),
        createdBy: auth.user.id,
        memo: r.reference,
        postings: [
          { accountId: r.account_id, amount: -amount },
          { accountId: await platformAccountId(tx, 'reward_clearing'), amount },
        ],
      });
      await deps.jobs.send('reward.submit', { rewardId: Number(r.id) }, { tx });
      await record?.(tx, { id: Number(r.id), amount });
    });
  } catch (err) {
    if (err instanceof InsufficientFunds) throw unprocessable(REWARD_MSG.insufficient, 'id');
    throw err;
  }
}

/**
 * A reward's payment as the money engine moves it (engine/movement.ts): the reward is Rewarded and its amount
 * reserved from the pay-in account under a new key each time it is paid (payReward), then paid to the payer's
 * wallet as a provider payout under that key. Completed moves the money on to the provider (the reward stays
 * Rewarded); Declined reverses the reserve and the reward is NotRewarded again with the reason (it may be paid
 * again). Its entries are keyed by the payment's key (`reward:<id>:<uuid>:reserve|complete`).
 */
export const rewardMovement: Movement<typeof payinRewards.$inferSelect> = {
  kind: 'reward',
  ledger: { key: (r, step) => `${r.idempotencyKey}:${step}` },
  table: payinRewards,
  columns: movementColumns(payinRewards, { status: payinRewards.payoutStatus, since: payinRewards.rewardedAt }),
  clearing: 'reward_clearing',
  // paid as a provider payout: a payout event under a reward's key
  events: ['payout.completed', 'payout.failed'],
  ownsKey: (key) => key.startsWith(REWARD_KEY_PREFIX),
  recoverAfterMs: 60_000,
  async send(deps, r) {
    const [p] = await deps.db.select({ reference: payins.reference }).from(payins).where(eq(payins.id, r.payinId));
    const answer = await deps.provider.createPayout({
      idempotency_key: r.idempotencyKey!,
      reference: `reward ${p.reference}`,
      obol_id: r.walletId,
      amount: r.amount,
      currency: 'EUR',
      beneficiary_name: r.beneficiaryName,
      brand: r.brand,
    });
    return answer.id;
  },
  lookup: (provider, key) => provider.payoutByKey(key),
  settledColumns: (state, reason) => ({
    status: state === 'completed' ? 'Rewarded' : 'NotRewarded',
    reason: state === 'completed' ? null : reason,
    updatedAt: sql`now()`,
  }),
  defaultReason: 'Declined by the provider',
};

// ---- the reward list (/payin-rewards) and its export ----

export interface RewardFilters {
  search: string;
  reward_status: string;
}

/**
 * WHERE terms of the reward list: the caller's scope, the reward status, and the search: the pay-in reference, the
 * payer's wallet or the merchant's or brand's name, in part and case-insensitively.
 */
export function rewardWhere(scope: Scope, f: RewardFilters): SQL {
  const terms: SQL[] = [rewardScope(scope)];
  if (f.reward_status) terms.push(sql`r.status = ${f.reward_status}`);
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    terms.push(
      sql`(p.reference ILIKE ${like} OR r.wallet_id ILIKE ${like} OR p.merchant_name ILIKE ${like} OR p.brand_name ILIKE ${like})`,
    );
  }
  return sql.join(terms, sql` AND `);
}

/** The rewards list: each reward with its pay-in. */
const rewardList: CreatedList = {
  alias: 'r',
  from: sql`payin_rewards r JOIN payins p ON p.id = r.payin_id`,
  columns: sql`r.id, p.reference, r.wallet_id, p.merchant_name, p.brand_name, r.amount, p.currency,
      p.status AS transaction_status, p.refund_status, r.status AS reward_status, r.payout_status, r.reason,
      r.created_at, r.rewarded_at`,
};

/** One page (or export chunk) of the list, newest or oldest first. */
export const rewardListSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL): SQL =>
  createdPageSql(rewardList, where, dir, limit, offset, after);

export interface RewardDbRow {
  id: number | string;
  reference: string;
  wallet_id: string;
  merchant_name: string;
  brand_name: string | null;
  amount: number | string;
  currency: string;
  /** the pay-in's and the payment's, in the vocabulary (engine/status.ts) */
  transaction_status: string;
  refund_status: number | null;
  reward_status: RewardRow['reward_status'];
  payout_status: string | null;
  reason: string | null;
  created_at: string | Date;
  rewarded_at: string | Date | null;
  created_key: string;
}

export const toRewardRow = (r: RewardDbRow): RewardRow => ({
  id: Number(r.id),
  pay_in_reference: r.reference,
  user_obol_id: r.wallet_id,
  merchant_name: r.merchant_name,
  brand_name: r.brand_name,
  amount: Number(r.amount),
  currency: r.currency,
  transaction_status: wordOf('payin', r.transaction_status) as RewardRow['transaction_status'],
  refund_status: r.refund_status,
  reward_status: r.reward_status,
  payout_status: wordOf('reward', r.payout_status) as RewardRow['payout_status'],
  reason: r.reason,
  created_at: new Date(r.created_at).toISOString(),
  rewarded_at: r.rewarded_at === null ? null : new Date(r.rewarded_at).toISOString(),
});

export function listRewards(
  db: Executor,
  scope: Scope,
  q: RewardFilters & { sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  return listPage(db, rewardList, rewardWhere(scope, q), q, toRewardRow);
}
