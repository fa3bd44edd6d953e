import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, money, bankAccount, providerMovement } from '../../platform/columns.ts';
import { accounts } from '../ledger/tables.ts';
import { users } from '../users/tables.ts';
import { statusCheck } from '../engine/status.ts';

/**
 * A transfer to an IBAN from a merchant's or brand's payout, pay-in or CLP account (or the Fee Account): the
 * amount is reserved from the account when it is created (Pending), a job sends it to the provider, and the
 * provider's settlement makes it Completed, or Declined with the money returned.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: bigId(),
    /** the tenant: the merchant of the account's holder; null for the platform's Fee Account */
    merchantId: integer('merchant_id').references(() => users.id),
    /** the merchant or brand whose account pays; null for the Fee Account */
    holderId: integer('holder_id').references(() => users.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    /** payout, payin, clp or fee: the account's kind when the transfer was made */
    accountKind: text('account_kind').notNull(),
    /** the account's public id (the ledger's account_id) */
    accountCode: text('account_code').notNull(),
    /** the merchant's or brand's name (or 'Fee Account'), as it was when the transfer was made */
    holderName: text('holder_name').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** who made it, by name as it was then (the list and its export show it) */
    createdByName: text('created_by_name').notNull(),
    ...bankAccount(),
    ...money(),
    /** the purpose of payment */
    message: text('message').notNull().default(''),
    /** held, in_flight, completed, failed (engine/status.ts: the screen's Pending approval, Pending...) */
    status: text('status').notNull().default('in_flight'),
    /** why it was declined */
    detail: text('detail'),
    /** one key per transfer */
    ...providerMovement(),
  },
  (t) => [
    uniqueIndex('transfers_idempotency_key').on(t.idempotencyKey),
    index('transfers_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('transfers_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id.desc()),
    index('transfers_holder_created_idx').on(t.holderId, t.createdAt.desc(), t.id.desc()),
    index('transfers_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    // the recovery of transfers whose webhook was lost: those in flight by age
    index('transfers_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'in_flight'`),
    check('transfers_amount_positive', sql`${t.amount} > 0`),
    check('transfers_status_known', statusCheck('transfer', t.status)),
  ],
);
