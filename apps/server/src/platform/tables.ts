import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt } from './columns.ts';

// The platform's own tables: what route(), withIdempotency, the rate limits and the mailer write for every feature.
// Platform code reads and writes only these; a feature's tables live in its own tables.ts (docs/architecture.md).

/**
 * Written by the platform around every mutating route; never updated or deleted by the application (a trigger
 * refuses it). Every record is a link of a hash chain (docs/decisions/011-activity-log-hash-chain.md): the
 * database's insert trigger gives it the next `seq`, the `hash` of the record before it (`prev_hash`) and its own
 * `hash` over its fields and `prev_hash`, under the row lock of `activity_log_chain`. Whatever the insert sends
 * for these three columns (and `created_at`) is replaced.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigId(),
    /** position in the chain, 1, 2, 3, ... without gaps; set by the trigger */
    seq: bigNumber('seq')
      .notNull()
      .unique('activity_log_seq_key')
      .$defaultFn(() => 0),
    /** the hash of the record at seq - 1 (64 zeros before the first); set by the trigger */
    prevHash: text('prev_hash')
      .notNull()
      .$defaultFn(() => ''),
    /** sha256 (hex) of the record's canonical form; set by the trigger */
    hash: text('hash')
      .notNull()
      .$defaultFn(() => ''),
    userId: integer('user_id'),
    userName: text('user_name'),
    userEmail: text('user_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** success, failure or denied */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code').notNull(),
    detail: text('detail'),
    ip: text('ip'),
    requestId: text('request_id'),
    /** the time of the inserting transaction (now()); part of the hash */
    createdAt: createdAt(),
  },
  (t) => [
    // the list: a day's records, newest first
    index('activity_log_created_idx').on(t.createdAt.desc(), t.seq.desc()),
    index('activity_log_user_idx').on(t.userId, t.createdAt),
  ],
);

/** The head of the activity log's chain: one row, the last record's seq and hash. */
export const activityLogChain = pgTable(
  'activity_log_chain',
  {
    id: smallint('id').primaryKey().default(1),
    seq: bigNumber('seq').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [check('activity_log_chain_one_row', sql`${t.id} = 1`)],
);

/** Idempotency of API commands: a replay answers the first result; another payload under the key is a 409. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: bigId(),
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    command: text('command').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('idempotency_keys_user_key').on(t.userId, t.key)],
);

/** Fixed-window counters (per address, per user and action), incremented and checked in one statement. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: moment('window_start').notNull(),
  count: integer('count').notNull().default(0),
});

/** A record of every mail: recipient, subject and template, never the body (it may hold a code or a link). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigId(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    template: text('template').notNull().default('message'),
    status: text('status').notNull().default('pending'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: moment('sent_at'),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.createdAt)],
);
