import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, moment, createdAt, updatedAt } from '../../platform/columns.ts';
import { users } from '../users/tables.ts';

export const sessions = pgTable(
  'sessions',
  {
    id: bigId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastSeenAt: moment('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: moment('idle_expires_at').notNull(),
    expiresAt: moment('expires_at').notNull(),
    revokedAt: moment('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * One-time codes and single-use links: sign-in challenges, password links, and (later) codes that
 * approve one money movement. `binding` records what the code approves; it approves nothing else.
 */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: bigId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose').notNull(),
    /** how the code is checked: email (hash below), authenticator, backup, link */
    method: text('method').notNull(),
    /** hash of the challenge token that identifies this row to the client, if any */
    challengeHash: text('challenge_hash'),
    /** keyed hash of the code or link token */
    codeHash: text('code_hash'),
    binding: jsonb('binding').$type<Record<string, unknown>>(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('one_time_codes_challenge_key').on(t.challengeHash),
    index('one_time_codes_user_idx').on(t.userId, t.purpose),
  ],
);

export const backupCodes = pgTable(
  'backup_codes',
  {
    id: bigId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: moment('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('backup_codes_hash_key').on(t.userId, t.codeHash)],
);

/**
 * Failed sign-in attempts as rows, as counted before login_throttle and rate_limits (a SELECT before, an INSERT
 * after: parallel guesses got past it). No longer written or read; left for a later migration to drop.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: bigId(),
    email: text('email'),
    ip: text('ip'),
    at: moment('at').notNull().defaultNow(),
  },
  (t) => [index('auth_failures_email_idx').on(t.email, t.at), index('auth_failures_ip_idx').on(t.ip, t.at)],
);

/**
 * Sign-in attempts per account, counted in one statement before the password is checked, so parallel
 * guesses cannot exceed the limit: past the free attempts each next one waits longer (progressive delay).
 */
export const loginThrottle = pgTable('login_throttle', {
  email: text('email').primaryKey(),
  /** attempts since the last successful sign-in */
  attempts: integer('attempts').notNull().default(0),
  /** no attempt is checked before this time */
  nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
  updatedAt: updatedAt(),
});
