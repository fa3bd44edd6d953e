import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sessions } from '../auth/tables.ts';
import { users } from '../users/tables.ts';

/** A user's passkeys (WebAuthn credentials), a second factor of the sign-in. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the credential id, base64url, as the browser names it; one account only */
    credentialId: text('credential_id').notNull(),
    /** the COSE public key the signatures are checked with, base64url */
    publicKey: text('public_key').notNull(),
    /** the authenticator's signature counter: each sign-in must raise it (unless the authenticator keeps none) */
    counter: integer('counter').notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/** Registration challenges: one-time, expiring, bound to the user and the session that asked. */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: bigint('session_id', { mode: 'number' })
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** sha256 of the challenge sent to the browser */
    challengeHash: text('challenge_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('passkey_challenges_hash_key').on(t.challengeHash),
    index('passkey_challenges_session_idx').on(t.sessionId),
  ],
);
