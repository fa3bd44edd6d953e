import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

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
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** position in the chain, 1, 2, 3, ... without gaps; set by the trigger */
    seq: bigint('seq', { mode: 'number' })
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
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
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [check('activity_log_chain_one_row', sql`${t.id} = 1`)],
);
