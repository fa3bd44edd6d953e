import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, check } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, money, providerMovement } from '../../platform/columns.ts';
import { accounts } from '../ledger/tables.ts';
import { users } from '../users/tables.ts';
import { statusCheck } from '../engine/status.ts';

/**
 * Whose money a payout is, and a batch of them (its payouts carry the batch's): the merchant it belongs to (the
 * tenant), the merchant or brand on whose behalf it is made, and the payout account it is paid from.
 */
export const behalfOfColumns = () => ({
  merchantId: integer('merchant_id')
    .notNull()
    .references(() => users.id),
  behalfOfId: integer('behalf_of_id')
    .notNull()
    .references(() => users.id),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id),
});

/**
 * A payout to a wallet: reserved from the payout account when created, sent to the provider by a job,
 * settled to Completed or Failed by the provider's webhook; a failed payout's money returns by a reversal.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: bigId(),
    ...behalfOfColumns(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    batchId: text('batch_id'),
    payoutType: text('payout_type').notNull().default('manual'),
    merchantTransactionId: text('merchant_transaction_id').notNull(),
    beneficiaryName: text('beneficiary_name').notNull(),
    brand: text('brand').notNull(),
    obolId: text('obol_id').notNull(),
    reference: text('reference').notNull(),
    ...money(),
    fee: bigNumber('fee').notNull(),
    feeBps: integer('fee_bps').notNull(),
    /** in_flight, pending, completed, failed, held (engine/status.ts; the screen says Processing, Pending...) */
    status: text('status').notNull().default('in_flight'),
    /**
     * A batch row whose merchant transaction id an earlier payout of the merchant already holds: recorded as a
     * Failed payout (its money returned) and left out of the uniqueness of (merchant_id, merchant_transaction_id).
     */
    duplicateMtid: boolean('duplicate_mtid').notNull().default(false),
    failureMessage: text('failure_message'),
    ...providerMovement(),
  },
  (t) => [
    uniqueIndex('payouts_idempotency_key').on(t.idempotencyKey),
    index('payouts_merchant_updated_idx').on(t.merchantId, t.updatedAt.desc(), t.id.desc()),
    index('payouts_updated_idx').on(t.updatedAt.desc(), t.id.desc()),
    index('payouts_batch_idx').on(t.batchId, t.id),
    // the transaction lists: status and date filters in either scope, brand scope, exact identifiers
    index('payouts_status_updated_idx').on(t.status, t.updatedAt.desc(), t.id.desc()),
    index('payouts_merchant_status_updated_idx').on(t.merchantId, t.status, t.updatedAt.desc(), t.id.desc()),
    index('payouts_behalf_updated_idx').on(t.behalfOfId, t.updatedAt.desc(), t.id.desc()),
    index('payouts_mtid_idx').on(t.merchantTransactionId),
    index('payouts_obol_idx').on(t.obolId),
    index('payouts_reference_idx').on(t.reference),
    index('payouts_brand_updated_idx').on(t.brand, t.updatedAt.desc(), t.id.desc()),
    // 'beneficiary name contains' (pg_trgm), and the fee totals of the few payouts that carry their own fee
    index('payouts_beneficiary_trgm_idx').using('gin', t.beneficiaryName.op('gin_trgm_ops')),
    index('payouts_own_fee_idx')
      .on(t.merchantId, t.status, t.updatedAt)
      .where(sql`${t.fee} > 0`),
    index('payouts_provider_idx').on(t.providerId),
    // one payout per merchant transaction id, in the database itself (a SELECT first would be a race)
    uniqueIndex('payouts_merchant_mtid_key')
      .on(t.merchantId, t.merchantTransactionId)
      .where(sql`NOT ${t.duplicateMtid}`),
    // the recovery of payouts in flight: by age
    index('payouts_inflight_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'in_flight'`),
    check('payouts_amount_positive', sql`${t.amount} > 0 AND ${t.fee} >= 0`),
    check('payouts_status_known', statusCheck('payout', t.status)),
  ],
);
