import {
  API_KEY_GRACE_HOURS,
  API_KEY_ROLES,
  maskKey,
  type ApiKeyOverview,
  type ApiKeyResponse,
  type RotateApiKeyResponse,
} from '@obol/contract';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
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

/**
 * The key a public key names, when it authenticates now: not revoked, and current or within its rotation's grace
 * period. Undefined otherwise. For the merchant API (the caller then checks the private key and the holder).
 */
export async function findActiveApiKey(db: Executor, publicKey: string) {
  if (!publicKey || publicKey.length > 200) return undefined;
  const [key] = await db
    .select({
      id: apiKeys.id,
      userId: apiKeys.userId,
      privateKeyEnc: apiKeys.privateKeyEnc,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.publicKey, publicKey),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
      ),
    )
    .limit(1);
  return key;
}

/** A key by its id when it authenticates now (see findActiveApiKey): what a merchant API token names. */
export async function findApiKeyById(db: Executor, id: number) {
  const [key] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.id, id),
        isNull(apiKeys.revokedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)),
      ),
    )
    .limit(1);
  return key;
}

/**
 * A new key pair for the caller, after the password (counted like a reveal). In one transaction under a per-holder
 * advisory lock: the current key is marked rotated with `expires_at` = now + the grace period, then the new one is
 * inserted. Racing rotations queue on the lock (the second rotates the first's new key), and the partial unique
 * index keeps one current key whatever happens.
 */
export async function rotateApiKey(
  deps: Deps,
  auth: AuthContext,
  currentPassword: string,
  ip: string,
  audit: (detail: { previous: string | null; next: string }) => void,
): Promise<RotateApiKeyResponse> {
  await throttle(deps, 'apiKeyReveal', auth.user.id);
  await confirmPassword(deps, auth, currentPassword, ip, 'current_password');
  const { publicKey, privateKey } = newKeyPair();
  const previous = await deps.db.transaction(async (tx) => {
    // one rotation of a holder at a time: a row lock on the current key is not enough, as a second rotation
    // waiting on it would find the key already rotated and no current one to lock
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('api-key-rotation'), ${auth.user.id}::int)`);
    const [old] = await tx.select().from(apiKeys).where(current(auth.user.id));
    let until: Date | null = null;
    if (old) {
      const [rotated] = await tx
        .update(apiKeys)
        .set({
          rotatedAt: sql`now()`,
          expiresAt: sql`now() + make_interval(hours => ${API_KEY_GRACE_HOURS})`,
        })
        .where(eq(apiKeys.id, old.id))
        .returning({ expiresAt: apiKeys.expiresAt });
      until = rotated.expiresAt;
    }
    await tx
      .insert(apiKeys)
      .values({ userId: auth.user.id, publicKey, privateKeyEnc: encryptSecret(deps.config.secretsKey, privateKey) });
    return old ? { masked: maskKey(old.publicKey), until } : null;
  });
  audit({ previous: previous?.masked ?? null, next: maskKey(publicKey) });
  return {
    public_key: publicKey,
    private_key: privateKey,
    previous_public_key_masked: previous?.masked ?? null,
    previous_valid_until: previous?.until?.toISOString() ?? null,
    message: [`New keys issued. The previous key works until ${previous?.until?.toISOString() ?? 'now'}.`],
  };
}
