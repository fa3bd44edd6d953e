import {
  API_KEYS_MSG,
  maskKey,
  type ApiAndKeysResponse,
  type ApiKeyHolderRow,
  type ApiKeyResponse,
  type HolderRow,
} from '@obol/contract';
import { and, inArray, isNull } from 'drizzle-orm';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import type { Scope } from '../../platform/scope.ts';
import { listMerchants, merchantBrands } from '../merchants/merchants.ts';
import { apiKeys } from './tables.ts';

// The API Keys screen: merchants and brands with their current keys, masked; a merchant's brands' keys at a reveal.

/** The current key of each holder. */
async function currentKeysOf(db: Executor, userIds: number[]) {
  if (!userIds.length) return new Map<number, typeof apiKeys.$inferSelect>();
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(inArray(apiKeys.userId, userIds), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)));
  return new Map(rows.map((k) => [k.userId, k]));
}

async function withMaskedKeys(db: Executor, holders: HolderRow[]): Promise<ApiKeyHolderRow[]> {
  const keys = await currentKeysOf(
    db,
    holders.map((h) => h.id),
  );
  return holders.map((h) => {
    const key = keys.get(h.id);
    return {
      id: h.id,
      name: h.name,
      email: h.email,
      account_reference: h.account_reference,
      public_key_masked: key ? maskKey(key.publicKey) : null,
      key_created_at: key?.createdAt.toISOString() ?? null,
      total_brands: h.total_brands,
    };
  });
}

/** The merchants in scope (staff every one, a merchant itself) by name, with masked keys. */
export async function listApiKeyHolders(
  db: Executor,
  scope: Scope,
  q: { page: number; perPage: number; name: string },
): Promise<ApiAndKeysResponse> {
  const page = await listMerchants(db, scope, { page: q.page, perPage: q.perPage, search: q.name });
  return { data: await withMaskedKeys(db, page.merchants.data), total: page.merchants.total };
}

/** One merchant's brands with masked keys; 404 for a merchant out of scope. */
export async function brandKeys(db: Executor, scope: Scope, merchantId: number): Promise<ApiKeyHolderRow[]> {
  return withMaskedKeys(db, await merchantBrands(db, scope, merchantId, ''));
}

/** A merchant's brands' keys in plain text: only for the merchant itself, after its password (the reveal). */
export async function plainBrandKeys(deps: Deps, auth: AuthContext): Promise<NonNullable<ApiKeyResponse['brands']>> {
  if (auth.scope.kind !== 'merchant' || auth.user.role !== 'Merchant') return [];
  const brands = await merchantBrands(deps.db, auth.scope, auth.scope.merchantId, '');
  const keys = await currentKeysOf(
    deps.db,
    brands.map((b) => b.id),
  );
  return brands.flatMap((b) => {
    const key = keys.get(b.id);
    return key
      ? [
          {
            id: b.id,
            name: b.name,
            public_key: key.publicKey,
            private_key: decryptSecret(deps.config.secretsKey, key.privateKeyEnc),
          },
        ]
      : [];
  });
}

/**
 * Mails a merchant's and its brands' public keys and account references to an address (never a private key: that is
 * shown only to its holder after the password). Counted per user like a reveal. Answers what was shared, for the log.
 */
export async function emailKeys(deps: Deps, auth: AuthContext, merchantId: number, to: string) {
  await throttle(deps, 'apiKeyReveal', auth.user.id);
  const [merchant] = (await listMerchants(deps.db, auth.scope, { page: 1, perPage: 1, search: '', id: merchantId }))
    .merchants.data;
  if (!merchant) throw notFound(API_KEYS_MSG.notFound);
  const brands = await brandKeys(deps.db, auth.scope, merchantId);
  const keys = await currentKeysOf(deps.db, [merchant.id, ...brands.map((b) => b.id)]);
  const line = (h: { id: number; name: string; account_reference: string }) =>
    `${h.name}\n  Account reference: ${h.account_reference}\n  Public key: ${keys.get(h.id)?.publicKey ?? '(none issued)'}`;
  await deps.mailer.send({
    to,
    subject: `Obol API keys of ${merchant.name}`,
    template: 'api-keys',
    text: [
      `Hello,\n\n${auth.user.name} shared the Obol API keys of ${merchant.name} with you.\n`,
      line(merchant),
      ...brands.map(line),
      '\nThe private keys are not sent by e-mail: the merchant reveals them in Obol (API Keys) with its password.\n',
    ].join('\n'),
  });
  return { merchant: merchant.name, brands: brands.length };
}
