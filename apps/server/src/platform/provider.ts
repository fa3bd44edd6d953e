import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  companyAccountsAnswer,
  PAYIN_STATUSES,
  PROVIDER_BATCH_MAX,
  PROVIDER_LOOKUP_MAX,
  providerItem,
  ProviderRejected,
  ProviderUnavailable,
  type CompanyAccount,
  type CompanyBeneficiary,
  type ProviderBatchResult,
  type ProviderItem,
  type ProviderPayin,
  type ProviderPayoutRequest,
  type ProviderTransferRequest,
  type StatementItem,
  type WalletInfo,
} from './provider-answers.ts';

export * from './provider-answers.ts';

/** What the provider is sent for a transfer to an IBAN, from a row with a bank account and an amount (columns.ts). */
export const transferRequest = (
  row: { idempotencyKey: string; iban: string; bic: string; amount: number; beneficiaryName: string },
  reference: string,
): ProviderTransferRequest => ({
  idempotency_key: row.idempotencyKey,
  iban: row.iban,
  bic: row.bic,
  amount: row.amount,
  beneficiary_name: row.beneficiaryName,
  reference,
});

/** The one way Obol talks to the payment provider: timeouts, retries that reuse the idempotency key. */
export interface ProviderClient {
  lookupWallet(obolId: string): Promise<WalletInfo | null>;
  createPayout(body: ProviderPayoutRequest): Promise<{ id: string; status: string }>;
  /**
   * Many payouts in one call (`POST /payouts/batch`, chunks of {@link PROVIDER_BATCH_MAX}), each under its own
   * idempotency key and answered on its own, in the order sent: accepted (or replayed: the provider had it) with
   * its id, or rejected with the provider's messages (as {@link createPayout} would throw ProviderRejected).
   * Unavailable (ProviderUnavailable) as a whole: a retry sends the same keys, so nothing is paid twice.
   */
  createPayouts(bodies: ProviderPayoutRequest[]): Promise<ProviderBatchResult[]>;
  statement(range?: { from?: string; to?: string }): Promise<StatementItem[]>;
  createTransfer(body: ProviderTransferRequest): Promise<{ id: string; status: string }>;
  createPayinLink(body: {
    idempotency_key: string;
    amount: number;
    reference: string;
    description?: string;
    expires_in_seconds?: number;
    return_url?: string;
  }): Promise<{ id: string; url: string; status: string; expires_at: string }>;
  refund(body: { idempotency_key: string; payin_id: string; amount: number }): Promise<{ id: string; status: string }>;
  /** The payout created with this idempotency key, as the provider has it now; null when it has none. */
  payoutByKey(idempotencyKey: string): Promise<ProviderItem | null>;
  /** The transfer created with this idempotency key, as the provider has it now; null when it has none. */
  transferByKey(idempotencyKey: string): Promise<ProviderItem | null>;
  /** The refund created with this idempotency key, as the provider has it now; null when it has none. */
  refundByKey(idempotencyKey: string): Promise<ProviderItem | null>;
  /** A pay-in link as the provider has it now (Initiated, Completed, Declined or Expired); null when it has none. */
  payinLink(id: string): Promise<ProviderPayin | null>;
  /**
   * The payouts created with these idempotency keys, each once (those the provider does not have are left
   * out); asked in chunks of {@link PROVIDER_LOOKUP_MAX} keys.
   */
  lookupPayouts(idempotencyKeys: string[]): Promise<ProviderItem[]>;
  /**
   * A company's bank accounts and saved beneficiaries at the provider, by its company API key
   * (`GET /companies/accounts`, header `X-Company-Key`). An unknown key is a {@link ProviderRejected} 422
   * 'Invalid company API key'.
   */
  companyAccounts(companyKey: string): Promise<{ accounts: CompanyAccount[]; beneficiaries: CompanyBeneficiary[] }>;
}

export interface ProviderClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs?: number;
  retries?: number;
  log?: FastifyBaseLogger;
}

export function createProviderClient(opts: ProviderClientOptions): ProviderClient {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const retries = opts.retries ?? 3;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    allow404 = false,
    headers: Record<string, string> = {},
  ): Promise<T | null> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
      try {
        const res = await fetch(`${opts.baseUrl}${path}`, {
          method,
          headers: {
            ...headers,
            authorization: `Bearer ${opts.apiKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        const json = text ? (JSON.parse(text) as unknown) : null;
        if (res.status === 404 && allow404) return null;
        if (res.status >= 500 || res.status === 429) {
          lastError = new ProviderUnavailable(`provider answered ${res.status} on ${path}`);
          continue;
        }
        if (res.status >= 400) {
          const errors = (json as { error?: string[] } | null)?.error;
          throw new ProviderRejected(res.status, Array.isArray(errors) ? errors : [`provider answered ${res.status}`]);
        }
        return json as T;
      } catch (err) {
        if (err instanceof ProviderRejected) throw err;
        lastError = err;
        opts.log?.warn({ path, attempt, err: String((err as Error).message ?? err) }, 'provider call failed; retrying');
      }
    }
    throw lastError instanceof ProviderUnavailable
      ? lastError
      : new ProviderUnavailable(
          `provider unreachable on ${path}: ${String((lastError as Error)?.message ?? lastError)}`,
        );
  }

  /** One payout or transfer by its idempotency key, checked to be the one asked for. */
  async function itemByKey(kind: 'payouts' | 'transfers' | 'refunds', key: string): Promise<ProviderItem | null> {
    const path = `/${kind}?idempotency_key=${encodeURIComponent(key)}`;
    const found = await call<unknown>('GET', path, undefined, true);
    if (found === null) return null;
    const item = providerItem(found, path);
    if (item.idempotency_key !== key) throw new ProviderUnavailable(`provider answered another item on ${path}`);
    return item;
  }

  return {
    lookupWallet: (obolId) => call<WalletInfo>('GET', `/wallets/${encodeURIComponent(obolId)}`, undefined, true),
    createPayout: async (body) => (await call<{ id: string; status: string }>('POST', '/payouts', body))!,
    createPayouts: async (bodies) => {
      const out: ProviderBatchResult[] = [];
      for (let i = 0; i < bodies.length; i += PROVIDER_BATCH_MAX) {
        const chunk = bodies.slice(i, i + PROVIDER_BATCH_MAX);
        const r = await call<{ results?: unknown }>('POST', '/payouts/batch', { items: chunk });
        const results = r?.results;
        if (!Array.isArray(results) || results.length !== chunk.length)
          throw new ProviderUnavailable('provider answered a malformed batch on /payouts/batch');
        results.forEach((v: unknown, n) => {
          const x = (v ?? {}) as Record<string, unknown>;
          const key = chunk[n].idempotency_key;
          const payout = (x.payout ?? {}) as Record<string, unknown>;
          // each answer must be the one asked for, in its place
          if (x.idempotency_key !== key)
            throw new ProviderUnavailable(`provider answered another payout in place of ${key} on /payouts/batch`);
          if ((x.outcome === 'accepted' || x.outcome === 'replayed') && typeof payout.id === 'string')
            out.push({ idempotency_key: key, outcome: 'accepted', id: payout.id });
          else if (x.outcome === 'rejected')
            out.push({
              idempotency_key: key,
              outcome: 'rejected',
              status: Number(x.status) || 400,
              messages: Array.isArray(x.error) && x.error.length ? x.error.map(String) : ['Rejected by the provider'],
            });
          else throw new ProviderUnavailable(`provider answered a malformed result for ${key} on /payouts/batch`);
        });
      }
      return out;
    },
    statement: async (range) => {
      const q = new URLSearchParams();
      if (range?.from) q.set('from', range.from);
      if (range?.to) q.set('to', range.to);
      const r = await call<{ items: StatementItem[] }>('GET', `/statement${q.size ? `?${q}` : ''}`);
      return r?.items ?? [];
    },
    createTransfer: async (body) => (await call<{ id: string; status: string }>('POST', '/transfers', body))!,
    createPayinLink: async (body) =>
      (await call<{ id: string; url: string; status: string; expires_at: string }>('POST', '/payin-links', body))!,
    refund: async (body) => (await call<{ id: string; status: string }>('POST', '/refunds', body))!,
    payoutByKey: (key) => itemByKey('payouts', key),
    transferByKey: (key) => itemByKey('transfers', key),
    refundByKey: (key) => itemByKey('refunds', key),
    payinLink: async (id) => {
      const path = `/payin-links/${encodeURIComponent(id)}`;
      const v = await call<Partial<ProviderPayin>>('GET', path, undefined, true);
      if (v === null) return null;
      if (
        typeof v !== 'object' ||
        v.id !== id ||
        typeof v.idempotency_key !== 'string' ||
        !Number.isSafeInteger(v.amount) ||
        !PAYIN_STATUSES.has(v.status as string)
      )
        throw new ProviderUnavailable(
          `provider answered a malformed pay-in on ${path}: ${JSON.stringify(v).slice(0, 200)}`,
        );
      return v as ProviderPayin;
    },
    lookupPayouts: async (keys) => {
      const unique = [...new Set(keys)];
      const items: ProviderItem[] = [];
      for (let i = 0; i < unique.length; i += PROVIDER_LOOKUP_MAX) {
        const chunk = unique.slice(i, i + PROVIDER_LOOKUP_MAX);
        const asked = new Set(chunk);
        const r = await call<{ items?: unknown }>('POST', '/payouts/lookup', { idempotency_keys: chunk });
        if (!Array.isArray(r?.items)) throw new ProviderUnavailable('provider answered no items on /payouts/lookup');
        for (const v of r.items) {
          const item = providerItem(v, '/payouts/lookup');
          if (!asked.has(item.idempotency_key))
            throw new ProviderUnavailable(`provider answered a payout not asked for on /payouts/lookup: ${item.id}`);
          items.push(item);
        }
      }
      return items;
    },
    companyAccounts: async (companyKey) => {
      const path = '/companies/accounts';
      // a key that cannot travel in a header (control or non-ASCII characters) is no company key
      if (!/^[\x20-\x7e]*$/.test(companyKey)) throw new ProviderRejected(422, ['Invalid company API key']);
      const r = await call<unknown>('GET', path, undefined, false, { 'x-company-key': companyKey });
      return companyAccountsAnswer(r, path);
    },
  };
}

/** Checks `x-provider-signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` within a time tolerance. */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  rawBody: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  const v1 = parts.v1;
  if (!Number.isFinite(t) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  if (Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
