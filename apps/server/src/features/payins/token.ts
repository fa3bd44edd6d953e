import { MERCHANT_TOKEN_SECONDS, PAYIN_MSG } from '@obol/contract';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { unauthorized } from '../../platform/errors.ts';
import { throttle } from '../../platform/limits.ts';
import { findActiveApiKey, findApiKeyById } from '../api-keys/service.ts';
import { findHolderInScope, type Holder } from '../merchants/holders.ts';

/** Who calls the merchant API: the merchant or brand whose API key it is, and that key. */
export interface MerchantCaller {
  holder: Holder;
  keyId: number;
  /** when the token ends */
  expiresAt: Date;
}

const PREFIX = 'mt_';
const ALL = { kind: 'all' } as const;

const mac = (secretsKey: Buffer, body: string) =>
  createHmac('sha256', secretsKey).update(`merchant-api-token:${body}`).digest();

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The holder of an API key when it may use the API: an active merchant or brand, and a brand's merchant active. */
async function activeHolder(deps: Deps, userId: number): Promise<Holder | undefined> {
  const holder = await findHolderInScope(deps.db, ALL, userId);
  if (!holder?.isActive) return undefined;
  if (holder.role === 'Brand') {
    const merchant = await findHolderInScope(deps.db, ALL, holder.merchantId);
    if (!merchant?.isActive) return undefined;
  }
  return holder;
}

/**
 * `POST /api/token`: the API key from `X-API-Key: <public key>:<private key>` (counted per public key against the
 * merchantApi window), checked against the current key or one within its rotation's grace period, answers a
 * token of MERCHANT_TOKEN_SECONDS. The token is signed with the secrets key and names the key: every call checks
 * again that the key and its holder are still active, so revoking a key or deactivating a merchant ends its
 * tokens at once.
 */
export async function issueMerchantToken(deps: Deps, header: string | string[] | undefined) {
  const value = Array.isArray(header) ? header[0] : header;
  const at = value?.indexOf(':') ?? -1;
  if (!value || at < 1) throw unauthorized(PAYIN_MSG.apiKeyMissing);
  const publicKey = value.slice(0, at).trim();
  const privateKey = value.slice(at + 1).trim();
  await throttle(deps, 'merchantApi', `token:${publicKey.slice(0, 100)}`);
  const key = await findActiveApiKey(deps.db, publicKey);
  // the private key is compared even when the public one is unknown, so both take the same time
  const expected = key ? decryptSecret(deps.config.secretsKey, key.privateKeyEnc) : `sk_${'x'.repeat(43)}`;
  if (!same(expected, privateKey) || !key) throw unauthorized(PAYIN_MSG.apiKeyInvalid);
  if (!(await activeHolder(deps, key.userId))) throw unauthorized(PAYIN_MSG.apiKeyInvalid);
  const expires = Math.floor(Date.now() / 1000) + MERCHANT_TOKEN_SECONDS;
  const body = Buffer.from(JSON.stringify({ k: key.id, u: key.userId, e: expires })).toString('base64url');
  const token = `${PREFIX}${body}.${mac(deps.config.secretsKey, body).toString('base64url')}`;
  return { access_token: token, token_type: 'Bearer' as const, expires_in: MERCHANT_TOKEN_SECONDS };
}

/**
 * The caller of a merchant API call, from `Authorization: Bearer <token>`: the signature, the expiry, the key
 * (not revoked, not past its grace period) and its holder (active). Anything else is 401. Each call is counted
 * per key against the merchantApi window.
 */
export async function merchantCaller(deps: Deps, req: FastifyRequest): Promise<MerchantCaller> {
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
  const dot = token.lastIndexOf('.');
  if (!token.startsWith(PREFIX) || dot < 0 || token.length > 500) throw unauthorized(PAYIN_MSG.tokenInvalid);
  const body = token.slice(PREFIX.length, dot);
  const sig = Buffer.from(token.slice(dot + 1), 'base64url');
  const good = mac(deps.config.secretsKey, body);
  if (sig.length !== good.length || !timingSafeEqual(sig, good)) throw unauthorized(PAYIN_MSG.tokenInvalid);
  let claims: { k?: unknown; u?: unknown; e?: unknown };
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    throw unauthorized(PAYIN_MSG.tokenInvalid);
  }
  const { k, u, e } = claims;
  if (typeof k !== 'number' || typeof u !== 'number' || typeof e !== 'number' || e * 1000 <= Date.now())
    throw unauthorized(PAYIN_MSG.tokenInvalid);
  await throttle(deps, 'merchantApi', `call:${k}`);
  const key = await findApiKeyById(deps.db, k);
  if (!key || key.userId !== u) throw unauthorized(PAYIN_MSG.tokenInvalid);
  const holder = await activeHolder(deps, u);
  if (!holder) throw unauthorized(PAYIN_MSG.tokenInvalid);
  return { holder, keyId: k, expiresAt: new Date(e * 1000) };
}
