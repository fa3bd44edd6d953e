import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt } from '../../platform/columns.ts';
import { users } from '../users/tables.ts';

/** A user's passkeys (WebAuthn credentials), a second factor of the sign-in. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: bigId(),
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
    createdAt: createdAt(),
    lastUsedAt: moment('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/** Registration challenges: one-time, expiring, bound to the user and the session that asked. */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: bigId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * its foreign key to sessions (ON DELETE CASCADE) is declared in SQL only (migration 0011): passkeys lie below
     * auth, which signs in with them (decisions/039)
     */
    sessionId: bigNumber('session_id').notNull(),
    /** sha256 of the challenge sent to the browser */
    challengeHash: text('challenge_hash').notNull(),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('passkey_challenges_hash_key').on(t.challengeHash),
    index('passkey_challenges_session_idx').on(t.sessionId),
  ],
);
