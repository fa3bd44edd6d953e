import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bigId, bigNumber, createdAt } from '../../platform/columns.ts';

/**
 * An account of the ledger. Balances are signed cents: a customer account's positive balance is money the
 * platform holds for it; the provider account mirrors money held at the provider (negative when it holds
 * money for us). The sum of every balance is zero. An account's balance (its row's plus, with shardCredits, its credit
 * shards') always equals the sum of its postings.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    /** public account id shown to users */
    accountId: text('account_id').notNull(),
    /** the reference of its holder's account set (the spec's account_reference) */
    accountReference: text('account_reference').notNull(),
    /** payout, payin, clp, fee, payout_clearing, provider, company */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /**
     * the merchant or brand user holding it; null for platform accounts. Its foreign key to users is declared in SQL
     * only (migration 0002): the ledger is the bottom layer and imports no feature (decisions/039).
     */
    ownerId: integer('owner_id'),
    currency: text('currency').notNull().default('EUR'),
    allowOverdraft: boolean('allow_overdraft').notNull().default(false),
    /**
     * Credits go to the account's credit shards, not to this row (the platform's accounts, which every payout,
     * fee and settlement credits): see accountCreditShards. Set when the account is opened, never changed.
     */
    shardCredits: boolean('shard_credits').notNull().default(false),
    /** the row's own part of the balance: with shardCredits, the balance is this plus the shards' amounts */
    balance: bigNumber('balance')
      .notNull()
      .default(sql`0`),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_account_id_key').on(t.accountId),
    uniqueIndex('accounts_owner_kind_key').on(t.ownerId, t.kind),
    index('accounts_reference_idx').on(t.accountReference),
    // with shardCredits the row holds the debits and the shards the credits: the guarded debit (ledger_move_balances)
    // keeps their sum >= 0, and the trial balance checks it
    check('accounts_no_overdraft', sql`${t.allowOverdraft} OR ${t.shardCredits} OR ${t.balance} >= 0`),
  ],
);

/**
 * The credits of an account with shardCredits, spread over a few rows so that concurrent transactions crediting
 * the same platform account (every payout credits the clearing and fee accounts) do not queue on one row's lock
 * until each commits. A transaction credits the shard of its connection (pg_backend_pid() % 16, migration 0022).
 * Only credits come here, so a shard only grows: a guarded debit of the account, made on its own row, may count
 * the shards it sees as money there (what it sees can only be less than what is there). The account's balance
 * is its row's balance plus its shards' amounts (accountBalance).
 * What it buys (`npm run bench:budget`, sharded and not in turn, 2026-11-29, a loaded machine): postEntry crediting
 * one account on 16 PostgreSQL connections, 2.3-4x the rate (697-955 entries/s against 167-397); on PGlite (one
 * connection, no lock to wait for) nothing measurable (-10% to +20% from run to run).
 */
export const accountCreditShards = pgTable(
  'account_credit_shards',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    shard: smallint('shard').notNull(),
    amount: bigNumber('amount').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.shard] }),
    check('account_credit_shards_credit', sql`${t.amount} >= 0`),
  ],
);

/** A movement: two or more postings that sum to zero. Never updated or deleted; a reversal is a new entry. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigId(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** hash of the command's payload, to tell a replay from a different command under the same key */
    requestHash: text('request_hash').notNull(),
    kind: text('kind').notNull(),
    memo: text('memo'),
    businessType: text('business_type'),
    businessId: text('business_id'),
    reversesId: bigNumber('reverses_id'),
    createdBy: integer('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('journal_entries_idempotency_key').on(t.idempotencyKey),
    index('journal_entries_business_idx').on(t.businessType, t.businessId),
    index('journal_entries_created_idx').on(t.createdAt),
  ],
);

export const postings = pgTable(
  'postings',
  {
    id: bigId(),
    entryId: bigNumber('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    amount: bigNumber('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('postings_entry_idx').on(t.entryId),
    index('postings_account_idx').on(t.accountId, t.id),
    check('postings_nonzero', sql`${t.amount} <> 0`),
  ],
);
