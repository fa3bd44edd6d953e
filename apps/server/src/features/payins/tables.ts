import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt, updatedAt, money } from '../../platform/columns.ts';
import { accounts } from '../ledger/tables.ts';
import { users } from '../users/tables.ts';
import { statusCheck } from '../engine/status.ts';

/**
 * Whose money a pay-in is, and a refund or reward of it: the tenant (`merchant_id`), the merchant or brand whose API
 * key made the pay-in (`holder_id`), and that holder's pay-in account, which the pay-in credits and a refund or a
 * reward is paid from.
 */
const holderColumns = () => ({
  merchantId: integer('merchant_id')
    .notNull()
    .references(() => users.id),
  holderId: integer('holder_id')
    .notNull()
    .references(() => users.id),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id),
});

/**
 * A pay-in: a link at the provider that a payer pays on its hosted page, made by a merchant's (or brand's) own
 * system through the merchant API. Pending until the provider reports it: Completed (the amount is credited to
 * the holder's pay-in account in the same transaction), Declined or Expired with the reason.
 */
export const payins = pgTable(
  'payins',
  {
    id: bigId(),
    ...holderColumns(),
    /** the pay-in account's public id (the ledger's account_id) */
    accountCode: text('account_code').notNull(),
    /** the merchant's name, and the brand's when a brand's key made it, as they were then (the list shows them) */
    merchantName: text('merchant_name').notNull(),
    brandName: text('brand_name'),
    /**
     * Payin (a link the merchant's shop sends its payer) or CardEye (a card payment the merchant's staff take by
     * phone or at the counter, through the same API, with who requested it)
     */
    channel: text('channel').notNull().default('Payin'),
    /** CardEye: the merchant's operator or terminal that requested the card payment */
    requestedBy: text('requested_by'),
    /** the merchant's own reference: unique per merchant */
    reference: text('reference').notNull(),
    ...money(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dateOfBirth: date('date_of_birth').notNull(),
    returnUrl: text('return_url').notNull().default(''),
    /** the key the merchant's retry sends (Idempotency-Key), and the one the provider sees */
    idempotencyKey: text('idempotency_key').notNull(),
    /** the provider's link id: the spec's request_id */
    providerId: text('provider_id').notNull(),
    url: text('url').notNull(),
    expiresAt: moment('expires_at').notNull(),
    /** in_flight (its link open), completed, failed, expired (engine/status.ts: the screen's Pending, Completed...) */
    status: text('status').notNull().default('in_flight'),
    /** Initiated (open), Used (its pay-in Completed or Declined: it takes no more payment), Expired (record 038) */
    linkStatus: text('link_status').notNull().default('Initiated'),
    /** why it was declined or expired */
    reason: text('reason'),
    /**
     * section 4: 0 Refund Declined, 1 Refund Completed, 2 Pending, 3 Not Refunded, null Not Allowed (not
     * Completed). A Completed pay-in gets 3; a refund may start at 0 or 3.
     */
    refundStatus: integer('refund_status'),
    settledAt: moment('settled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payins_merchant_reference').on(t.merchantId, t.reference),
    uniqueIndex('payins_holder_idempotency_key').on(t.holderId, t.idempotencyKey),
    uniqueIndex('payins_provider_id').on(t.providerId),
    index('payins_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('payins_holder_created_idx').on(t.holderId, t.createdAt.desc(), t.id.desc()),
    index('payins_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('payins_channel_merchant_created_idx').on(t.channel, t.merchantId, t.createdAt.desc(), t.id.desc()),
    // the recovery of pay-ins whose webhook was lost
    index('payins_pending_idx')
      .on(t.expiresAt, t.id)
      .where(sql`${t.status} = 'in_flight'`),
    check('payins_amount_positive', sql`${t.amount} > 0`),
    check('payins_status_known', statusCheck('payin', t.status)),
    check('payins_channel_known', sql`${t.channel} IN ('Payin', 'CardEye')`),
    check('payins_link_status_known', sql`${t.linkStatus} IN ('Initiated', 'Used', 'Expired')`),
    check('payins_refund_status_known', sql`${t.refundStatus} IS NULL OR ${t.refundStatus} BETWEEN 0 AND 3`),
  ],
);

/**
 * A refund of a Completed pay-in, the whole amount: reserved from the holder's pay-in account when it is made
 * (Pending), sent to the provider by a job, and Completed, or Declined with the money returned to the account.
 * At most one refund of a pay-in is Pending or Completed (a partial unique index): a double click, a retry or a
 * second user at the same moment cannot refund twice.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigId(),
    payinId: bigNumber('payin_id')
      .notNull()
      .references(() => payins.id),
    ...holderColumns(),
    amount: bigNumber('amount').notNull(),
    /** in_flight, completed, failed (engine/status.ts: the screen's Pending, Completed, Declined) */
    status: text('status').notNull().default('in_flight'),
    reason: text('reason'),
    /** one per refund; the provider sees it too */
    idempotencyKey: text('idempotency_key').notNull(),
    providerId: text('provider_id'),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    settledAt: moment('settled_at'),
  },
  (t) => [
    uniqueIndex('refunds_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('refunds_one_open_per_payin')
      .on(t.payinId)
      .where(sql`${t.status} IN ('in_flight', 'completed')`),
    index('refunds_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('refunds_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'in_flight'`),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
    check('refunds_status_known', statusCheck('refund', t.status)),
  ],
);

/**
 * A reward the merchant promised the payer of a pay-in (cashback to the payer's Obol wallet), written with the
 * pay-in. NotRewarded until a back-office user updates it once the pay-in is Completed: then, in one transaction,
 * it becomes Rewarded (a conditional UPDATE: a second click finds nothing to move), the amount leaves the holder's
 * pay-in account (a guarded debit) for rewards in flight, and the `reward.submit` job pays the wallet at the
 * provider under the reward's own key. The provider's Completed moves the money on; a refusal reverses it and the
 * reward is NotRewarded again, with the reason.
 */
export const payinRewards = pgTable(
  'payin_rewards',
  {
    id: bigId(),
    payinId: bigNumber('payin_id')
      .notNull()
      .references(() => payins.id),
    ...holderColumns(),
    /** the payer's Obol wallet: the spec's user_{product}_id */
    walletId: text('wallet_id').notNull(),
    /** the brand the provider is told (the wallet's, checked against the merchant's brands when it was written) */
    brand: text('brand').notNull(),
    beneficiaryName: text('beneficiary_name').notNull(),
    amount: bigNumber('amount').notNull(),
    /** NotRewarded, Rewarded */
    status: text('status').notNull().default('NotRewarded'),
    /** the payment to the wallet: null before any, then in_flight, completed or failed (engine/status.ts) */
    payoutStatus: text('payout_status'),
    reason: text('reason'),
    /** the current payment's key (a new one after a refusal); the provider sees it */
    idempotencyKey: text('idempotency_key'),
    providerId: text('provider_id'),
    rewardedBy: integer('rewarded_by').references(() => users.id),
    rewardedAt: moment('rewarded_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payin_rewards_payin').on(t.payinId),
    uniqueIndex('payin_rewards_idempotency_key').on(t.idempotencyKey),
    index('payin_rewards_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('payin_rewards_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('payin_rewards_pending_idx')
      .on(t.rewardedAt, t.id)
      .where(sql`${t.payoutStatus} = 'in_flight'`),
    check('payin_rewards_amount_positive', sql`${t.amount} > 0`),
    check('payin_rewards_status_known', sql`${t.status} IN ('NotRewarded', 'Rewarded')`),
    check(
      'payin_rewards_payout_status_known',
      sql`${t.payoutStatus} IS NULL OR ${statusCheck('reward', t.payoutStatus)}`,
    ),
    // money is out exactly while the reward is Rewarded
    check(
      'payin_rewards_rewarded_has_payout',
      sql`(${t.status} = 'Rewarded') = (${t.payoutStatus} IS NOT NULL AND ${t.payoutStatus} <> 'failed')`,
    ),
  ],
);
