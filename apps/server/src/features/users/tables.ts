import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { roles } from '../roles/tables.ts';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** stored lower-case */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    /** the merchant a brand or merchant-side user belongs to */
    parentId: integer('parent_id').references((): AnyPgColumn => users.id),
    isActive: boolean('is_active').notNull().default(true),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** true: one-time codes by e-mail; false: authenticator app */
    twoFaAsOtp: boolean('two_fa_as_otp').notNull().default(true),
    /** authenticator secret, encrypted with SECRETS_KEY */
    totpSecretEnc: text('totp_secret_enc'),
    /** last accepted authenticator time step, so a code is used once */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** an authenticator secret being set up (encrypted like the active one), until a code confirms it */
    totpPendingEnc: text('totp_pending_enc'),
    /** the pending secret must be confirmed before this time */
    totpPendingUntil: timestamp('totp_pending_until', { withTimezone: true }),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** merchant and brand fee in basis points (1.25 % = 125) */
    feeBps: integer('fee_bps'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** set when the user is deleted: kept for the records that name it, hidden everywhere else */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // a deleted user's e-mail may be invited again
    uniqueIndex('users_email_key')
      .on(t.email)
      .where(sql`${t.deletedAt} IS NULL`),
    index('users_parent_idx').on(t.parentId),
    index('users_role_idx').on(t.roleId),
    index('users_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('users_name_trgm_idx').using('btree', sql`lower(${t.name})`),
  ],
);

/**
 * Every change of a merchant's or brand's fee: before and after in basis points, the reason given and who changed
 * it. Written in the transaction that changes users.fee_bps, under that row's lock, so the history is the exact
 * sequence of fees; payouts keep the fee they were created with (payouts.fee_bps).
 */
export const feeChanges = pgTable(
  'fee_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    holderId: integer('holder_id')
      .notNull()
      .references(() => users.id),
    oldBps: integer('old_bps').notNull(),
    newBps: integer('new_bps').notNull(),
    reason: text('reason').notNull(),
    changedBy: integer('changed_by')
      .notNull()
      .references(() => users.id),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fee_changes_holder_idx').on(t.holderId, t.changedAt.desc(), t.id.desc())],
);

/**
 * What a merchant or brand has beyond a user: the card descriptor, the payout wallet at the provider (checked when
 * created), the MID, registration and address, and (merchants) whether it is a direct merchant. Written in the
 * transaction that creates the merchant or brand, where descriptor, wallet and MID are required; they are nullable
 * only for holders made before this table (the demo seed of an older database). The descriptor code is derived
 * from the id.
 */
export const holderDetails = pgTable('holder_details', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  descriptor: text('descriptor'),
  brandName: text('brand_name'),
  obolId: text('obol_id'),
  mid: text('mid'),
  registrationNumber: text('registration_number'),
  street: text('street'),
  city: text('city'),
  zipCode: text('zip_code'),
  directMerchant: boolean('direct_merchant').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
