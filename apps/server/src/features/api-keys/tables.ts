import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, moment, createdAt } from '../../platform/columns.ts';
import { users } from '../users/tables.ts';

/**
 * API key pairs of merchants and brands. The public key is an identifier (stored plain, unique); the private key
 * is a secret, encrypted at rest with SECRETS_KEY (AES-256-GCM) and returned in plain text only by a call that
 * re-checks the password.
 *
 * A holder has at most one current key (`rotated_at` and `revoked_at` both null: a partial unique index). Built for
 * rotation with a grace period: rotating sets `rotated_at` on the current key and `expires_at` to the end of the
 * grace period, then inserts the new key; a key authenticates while `revoked_at` is null and `expires_at` is null
 * or later than now. Revoking ends a key at once.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: bigId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    publicKey: text('public_key').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    createdAt: createdAt(),
    /** replaced by a newer key (it keeps working until expires_at) */
    rotatedAt: moment('rotated_at'),
    /** end of the key's validity (the end of a rotation's grace period); null: no end */
    expiresAt: moment('expires_at'),
    /** ended at once, whatever expires_at says */
    revokedAt: moment('revoked_at'),
  },
  (t) => [
    uniqueIndex('api_keys_public_key_key').on(t.publicKey),
    uniqueIndex('api_keys_current_key')
      .on(t.userId)
      .where(sql`${t.rotatedAt} IS NULL AND ${t.revokedAt} IS NULL`),
    index('api_keys_user_idx').on(t.userId, t.createdAt),
  ],
);
