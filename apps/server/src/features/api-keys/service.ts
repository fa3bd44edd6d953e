import { API_KEY_ROLES, maskKey, type ApiKeyOverview, type ApiKeyResponse } from '@obol/contract';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { decryptSecret, encryptSecret, randomToken } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { confirmPassword } from '../auth/passwords.ts';
import { accountInfoFor } from '../ledger/info.ts';
import { userIdsWithRoles } from '../users/repo.ts';
import { apiKeys } from './tables.ts';

/** A new key pair: `pk_` + 24 random bytes (the identifier), `sk_` + 32 random bytes (the secret), base64url. */
export const newKeyPair = () => ({ publicKey: `pk_${randomToken(24)}`, privateKey: `sk_${randomToken(32)}` });

const current = (userId: number) =>
  and(eq(apiKeys.userId, userId), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt));

/**
 * Gives a merchant or brand its key pair unless it has a current one; in the caller's transaction when given one
 * (creating a merchant or brand calls this with its own). Racing calls cannot give a holder two current keys: the
 * partial unique index `api_keys_current_key` lets one insert through and the others do nothing. True when a key
 * was issued.
 */
export async function issueApiKey(db: Executor, secretsKey: Buffer, userId: number): Promise<boolean> {
  const { publicKey, privateKey } = newKeyPair();
  const inserted = await db
    .insert(apiKeys)
    .values({ userId, publicKey, privateKeyEnc: encryptSecret(secretsKey, privateKey) })
    .onConflictDoNothing()
    .returning({ id: apiKeys.id });
  return inserted.length === 1;
}

/**
 * Every merchant and brand without a current key gets one: run at every start (after the demo seed), so the demo
 * holders and the holders of a database made before keys existed have theirs. In JavaScript, not in the migration:
 * a private key must come from a cryptographic random source and be encrypted with SECRETS_KEY, which SQL has
 * neither of. Returns how many keys were issued.
 */
export async function ensureApiKeys(db: Executor, secretsKey: Buffer): Promise<number> {
  const holders = await userIdsWithRoles(db, API_KEY_ROLES);
  if (!holders.length) return 0;
  const withKey = await db
    .select({ userId: apiKeys.userId })
    .from(apiKeys)
    .where(and(inArray(apiKeys.userId, holders), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)));
  const has = new Set(withKey.map((k) => k.userId));
  let issued = 0;
  for (const id of holders) if (!has.has(id) && (await issueApiKey(db, secretsKey, id))) issued++;
  return issued;
}

async function currentKey(db: Executor, userId: number) {
  const [key] = await db.select().from(apiKeys).where(current(userId)).limit(1);
  return key;
}

/** The profile's view of the caller's own key: the account reference and the masked public key. */
export async function apiKeyOverview(deps: Deps, auth: AuthContext): Promise<ApiKeyOverview> {
  const key = await currentKey(deps.db, auth.user.id);
  const account = await accountInfoFor(deps.db, auth.scope);
  return {
    account_reference: account.account_reference,
    public_key_masked: key ? maskKey(key.publicKey) : null,
    created_at: key?.createdAt.toISOString() ?? null,
  };
}

/**
 * The caller's own keys in plain text, after the password: counted per user first (429 past the limit), then the
 * password under the account's and the address's sign-in limits (wrong: 400 'Incorrect Password.').
 */
export async function revealApiKey(
  deps: Deps,
  auth: AuthContext,
  input: { current_password: string; email: string },
  ip: string,
  audit: (keyId: number, masked: string) => void,
): Promise<ApiKeyResponse> {
  if (input.email !== auth.user.email) throw forbidden('API keys can only be revealed for your own account');
  await throttle(deps, 'apiKeyReveal', auth.user.id);
  await confirmPassword(deps, auth, input.current_password, ip, 'current_password');
  const key = await currentKey(deps.db, auth.user.id);
  if (!key) throw notFound('No API key has been issued for this account');
  audit(key.id, maskKey(key.publicKey));
  const account = await accountInfoFor(deps.db, auth.scope);
  return {
    user_verified: 1,
    public_key: key.publicKey,
    private_key: decryptSecret(deps.config.secretsKey, key.privateKeyEnc),
    account_reference: account.account_reference,
    message: ['Keys decrypted'],
  };
}
