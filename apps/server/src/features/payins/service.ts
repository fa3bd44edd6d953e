import {
  PAYIN_MSG,
  PAYMENT_MSG,
  payinLinkProblems,
  type ParsedInputOf,
  type PayinLinkResponse,
  type PayinRow,
  type payinOps,
} from '@obol/contract';
import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { escapeLike, rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { dayRange, today } from '../../platform/dates.ts';
import type { Scope } from '../../platform/scope.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, conflict, unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, ProviderUnavailable, type ProviderPayin } from '../../platform/provider.ts';
import { holderAccounts, platformAccountId } from '../ledger/accounts.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { brandNamesOf } from '../payments/service.ts';
import { postEntry } from '../ledger/service.ts';
import { payinRewards, payins } from './tables.ts';
import type { MerchantCaller } from './token.ts';

type PayinDb = typeof payins.$inferSelect;
type RewardDb = typeof payinRewards.$inferSelect;
type CreatePayinLink = ParsedInputOf<typeof payinOps.createPayinLink>;

const IDEMPOTENCY_FIELD = 'Idempotency-Key';
const UNIQUE_VIOLATION = '23505';

export const toPayinLink = (p: PayinDb): PayinLinkResponse => ({
  request_id: p.providerId,
  reference: p.reference,
  amount: p.amount,
  currency: p.currency,
  url: p.url,
  channel: p.channel as PayinLinkResponse['channel'],
  transaction_status: p.status as PayinLinkResponse['transaction_status'],
  link_status: p.linkStatus as PayinLinkResponse['link_status'],
  expires_at: p.expiresAt.toISOString(),
  created_at: p.createdAt.toISOString(),
});

/** Whether a stored pay-in (and its reward) was made from this very request (a retry), field by field. */
const sameRequest = ({ p, r }: { p: PayinDb; r: RewardDb | null }, input: CreatePayinLink) =>
  p.amount === input.amount &&
  p.reference === input.reference &&
  p.firstName === input.first_name &&
  p.lastName === input.last_name &&
  p.dateOfBirth === input.date_of_birth &&
  p.returnUrl === (input.return_url ?? '') &&
  p.channel === input.channel &&
  (p.requestedBy ?? '') === (input.channel === 'CardEye' ? (input.requested_by ?? '') : '') &&
  (r?.walletId ?? '') === (input.user_obol_id ?? '') &&
  (r?.amount ?? 0) === (input.reward_amount ?? 0);

async function byKey(db: Executor, holderId: number, key: string) {
  const [row] = await db
    .select({ p: payins, r: payinRewards })
    .from(payins)
    .leftJoin(payinRewards, eq(payinRewards.payinId, payins.id))
    .where(and(eq(payins.holderId, holderId), eq(payins.idempotencyKey, key)));
  return row;
}

/**
 * The reward's wallet, asked of the provider: an unknown one is refused (400 'Invalid Obol Id'), and so is one
 * registered to a brand that is not the holder's (a merchant: any of its brands). Answers the brand the provider
 * is to be told when the reward is paid.
 */
async function rewardWallet(deps: Deps, holder: MerchantCaller['holder'], obolId: string): Promise<string> {
  let wallet;
  try {
    wallet = await deps.provider.lookupWallet(obolId);
  } catch (err) {
    if (err instanceof ProviderUnavailable)
      throw new ApiError(503, ['The payment provider is not reachable. Please try again.']);
    throw err;
  }
  if (!wallet) throw badRequest(PAYMENT_MSG.invalidObolId, 'user_obol_id');
  if (wallet.brand === null) return holder.name;
  const ours = await brandNamesOf(deps.db, holder.merchantId, holder.role === 'Brand' ? holder : null);
  if (!ours.has(wallet.brand.toLowerCase())) throw unprocessable(PAYIN_MSG.walletOtherBrand, 'user_obol_id');
  return wallet.brand;
}

const isUniqueViolation = (err: unknown, constraint?: string) => {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    if (e.code === UNIQUE_VIOLATION) return !constraint || !e.constraint || e.constraint === constraint;
  return false;
};

/**
 * `POST /api/create-payin-link`: a pay-in link at the provider for the caller's pay-in account. Once per
 * (holder, Idempotency-Key): a retry answers the first link, the same key with another body answers 409. The
 * provider sees the key too (`payin:<holder>:<key>`), so a retry after a lost answer gets the provider's same link,
 * and the row is written only once the link exists. The reference is unique per merchant: the unique index refuses
 * a second one ('This reference was already used for another pay-in'); the look-up before the provider call only
 * spares the provider a link nobody would get.
 */
export async function createPayinLink(
  deps: Deps,
  caller: MerchantCaller,
  input: CreatePayinLink,
  idempotencyHeader: string | string[] | undefined,
): Promise<PayinLinkResponse> {
  const raw = Array.isArray(idempotencyHeader) ? idempotencyHeader[0] : idempotencyHeader;
  if (raw !== undefined && (raw.trim() === '' || raw.length > 100 || !/^[\x21-\x7e]+$/.test(raw)))
    throw badRequest(PAYIN_MSG.idempotencyKey, IDEMPOTENCY_FIELD);
  const key = raw ?? randomUUID();
  const problem = payinLinkProblems(input)[0];
  if (problem) throw badRequest(problem.message, problem.field);
  const { holder } = caller;
  const replay = async () => {
    const prior = await byKey(deps.db, holder.id, key);
    if (!prior) return undefined;
    if (!sameRequest(prior, input)) throw conflict('This idempotency key was used for a different request');
    return toPayinLink(prior.p);
  };
  const first = await replay();
  if (first) return first;
  const [taken] = await deps.db
    .select({ id: payins.id })
    .from(payins)
    .where(and(eq(payins.merchantId, holder.merchantId), eq(payins.reference, input.reference)));
  if (taken) {
    // taken by this very request, made at the same moment by a retry that got there first?
    const again = await replay();
    if (again) return again;
    throw unprocessable(PAYIN_MSG.referenceUsed, 'reference');
  }
  const rewardBrand = input.user_obol_id ? await rewardWallet(deps, holder, input.user_obol_id) : undefined;
  const account = (await holderAccounts(deps.db, holder.id)).payin;
  if (!account) throw unprocessable('This merchant has no pay-in account', 'reference');
  const merchantName = await merchantNameOf(deps, holder);

  let link: Awaited<ReturnType<Deps['provider']['createPayinLink']>>;
  try {
    link = await deps.provider.createPayinLink({
      idempotency_key: `payin:${holder.id}:${key}`,
      amount: input.amount,
      reference: input.reference,
      description: `${holder.name}: ${input.reference} (${input.first_name} ${input.last_name})`,
      ...(input.return_url ? { return_url: input.return_url } : {}),
    });
  } catch (err) {
    if (err instanceof ProviderRejected && err.status === 409)
      throw conflict('This idempotency key was used for a different request');
    if (err instanceof ProviderRejected) throw unprocessable(err.messages[0] ?? 'The provider refused the pay-in link');
    throw new ApiError(503, ['The payment provider is not reachable. Please try again.']);
  }
  try {
    // the pay-in and its reward, both or neither
    const row = await deps.db.transaction(async (tx) => {
      const [p] = await tx
        .insert(payins)
        .values({
          merchantId: holder.merchantId,
          holderId: holder.id,
          accountId: account.id,
          accountCode: account.accountId,
          merchantName,
          brandName: holder.role === 'Brand' ? holder.name : null,
          reference: input.reference,
          amount: input.amount,
          firstName: input.first_name,
          lastName: input.last_name,
          dateOfBirth: input.date_of_birth,
          returnUrl: input.return_url ?? '',
          idempotencyKey: key,
          providerId: link.id,
          url: link.url,
          expiresAt: new Date(link.expires_at),
          channel: input.channel,
          requestedBy: input.channel === 'CardEye' ? (input.requested_by ?? null) : null,
        })
        .onConflictDoNothing({ target: [payins.holderId, payins.idempotencyKey] })
        .returning();
      if (p && input.user_obol_id && input.reward_amount !== undefined && rewardBrand)
        await tx.insert(payinRewards).values({
          payinId: p.id,
          merchantId: p.merchantId,
          holderId: p.holderId,
          accountId: p.accountId,
          walletId: input.user_obol_id,
          brand: rewardBrand,
          beneficiaryName: `${input.first_name} ${input.last_name}`,
          amount: input.reward_amount,
        });
      return p;
    });
    if (row) return toPayinLink(row);
  } catch (err) {
    // the same request at the same moment may meet the other's row on the reference (or the provider's link id)
    // before the key: it answers that row (the violation waited for the other's commit)
    if (isUniqueViolation(err)) {
      const again = await replay();
      if (again) return again;
    }
    if (isUniqueViolation(err, 'payins_merchant_reference')) throw unprocessable(PAYIN_MSG.referenceUsed, 'reference');
    throw err;
  }
  // the same request at the same moment: the other one wrote it
  const again = await replay();
  if (again) return again;
  throw conflict('This request is still being processed');
}

/** The merchant's name of a key's holder (a brand's: its merchant's). */
const merchantNameOf = async (deps: Deps, holder: MerchantCaller['holder']) =>
  holder.role === 'Brand'
    ? ((await findHolderInScope(deps.db, { kind: 'all' }, holder.merchantId))?.name ?? holder.name)
    : holder.name;

/** `POST /api/test`: whose the token is, the pay-in account its links credit, and when it ends. */
export async function merchantTest(deps: Deps, caller: MerchantCaller) {
  const { holder } = caller;
  return {
    ok: true as const,
    merchant_name: await merchantNameOf(deps, holder),
    brand_name: holder.role === 'Brand' ? holder.name : null,
    account_id: (await holderAccounts(deps.db, holder.id)).payin?.accountId ?? null,
    token_expires_at: caller.expiresAt.toISOString(),
  };
}

/**
 * The provider's word on a pay-in, inside the webhook's transaction: a Pending pay-in becomes Completed (its amount
 * credited to the holder's pay-in account from the provider's settlement account, one entry keyed by the pay-in),
 * Declined or Expired with the reason. Anything else (already settled, unknown) changes nothing.
 */
export async function settlePayin(tx: Tx, p: ProviderPayin): Promise<'applied' | 'ignored'> {
  if (p.status === 'Initiated') return 'ignored';
  const reason =
    p.status === 'Declined'
      ? (p.message ?? 'Payment declined by the payer or the bank')
      : p.status === 'Expired'
        ? (p.message ?? 'The payment link expired before it was paid')
        : null;
  const [row] = await tx
    .update(payins)
    .set({
      status: p.status,
      reason,
      ...(p.status === 'Expired' ? { linkStatus: 'Expired' } : {}),
      // a completed pay-in may be refunded: Not Refunded
      ...(p.status === 'Completed' ? { refundStatus: 3 } : {}),
      settledAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(payins.providerId, p.id), eq(payins.status, 'Pending'), eq(payins.amount, p.amount)))
    .returning();
  if (!row) return 'ignored';
  if (p.status === 'Completed') {
    await postEntry(tx, {
      idempotencyKey: `payin:${row.id}:complete`,
      kind: 'payin.complete',
      businessType: 'payin',
      businessId: row.id,
      memo: row.reference,
      postings: [
        { accountId: await platformAccountId(tx, 'provider'), amount: -row.amount },
        { accountId: row.accountId, amount: row.amount },
      ],
    });
  }
  return 'applied';
}

/** Whether a pay-in still waits for the provider (the webhook then asks the provider for its state). */
export async function payinStatusByProviderId(db: Executor, providerId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: payins.status }).from(payins).where(eq(payins.providerId, providerId));
  return row?.status;
}

/** Pay-ins still Pending a minute after their link expired: their webhook was lost; the recovery asks. */
export async function overduePayins(db: Executor, limit = 200): Promise<{ providerId: string }[]> {
  return db
    .select({ providerId: payins.providerId })
    .from(payins)
    .where(and(eq(payins.status, 'Pending'), lt(payins.expiresAt, sql`now() - interval '1 minute'`)))
    .orderBy(payins.expiresAt, payins.id)
    .limit(limit);
}

/**
 * Pay-ins a lost webhook left Pending after their link expired: each is settled from the provider's own answer,
 * in its own transaction (a pay-in already settled by a late webhook is left alone).
 */
export async function recoverPayins(deps: Deps): Promise<number> {
  let n = 0;
  for (const { providerId } of await overduePayins(deps.db)) {
    const p = await deps.provider.payinLink(providerId);
    if (!p) continue;
    if ((await deps.db.transaction((tx) => settlePayin(tx, p))) === 'applied') n++;
  }
  return n;
}

// ---- the pay-in list (/payin) and its export ----

export interface PayinFilters {
  channel: 'Payin' | 'CardEye';
  requested_by: string;
  transaction_status: string;
  pay_in_reference: string;
  merchant_name: string;
  request_id: string;
  user_name: string;
  account_id: string;
  start_date: string;
  end_date: string;
  tz: string;
}

function payinScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`p.merchant_id = ${scope.merchantId}`;
    case 'brand':
      return sql`p.holder_id = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

/**
 * WHERE terms of the pay-in list: the caller's scope, the channel (Payin or CardEye), who requested it (CardEye, in
 * part), the status, the identifiers exactly (reference, request id,
 * account id), names in part and case-insensitively (merchant or brand, the payer's first, last or full name),
 * and the creation day range in the caller's time zone (one date is that day; a reversed range is reordered).
 */
export function payinWhere(scope: Scope, f: PayinFilters): SQL {
  const terms: SQL[] = [payinScope(scope), sql`p.channel = ${f.channel ?? 'Payin'}`];
  if (f.requested_by) terms.push(sql`p.requested_by ILIKE ${`%${escapeLike(f.requested_by)}%`}`);
  if (f.transaction_status) terms.push(sql`p.status = ${f.transaction_status}`);
  if (f.pay_in_reference) terms.push(sql`p.reference = ${f.pay_in_reference}`);
  if (f.request_id) terms.push(sql`p.provider_id = ${f.request_id}`);
  if (f.account_id) terms.push(sql`p.account_code = ${f.account_id}`);
  if (f.merchant_name) {
    const like = `%${escapeLike(f.merchant_name)}%`;
    terms.push(sql`(p.merchant_name ILIKE ${like} OR p.brand_name ILIKE ${like})`);
  }
  if (f.user_name) {
    const like = `%${escapeLike(f.user_name)}%`;
    terms.push(sql`(p.first_name || ' ' || p.last_name) ILIKE ${like}`);
  }
  terms.push(...createdBetween(sql`p.created_at`, f));
  return sql.join(terms, sql` AND `);
}

/**
 * The bounds of a creation day range in the caller's time zone: one date is that day, a reversed range is
 * reordered, a date after today is refused (400 on its field).
 */
export function createdBetween(column: SQL, f: { start_date: string; end_date: string; tz: string }): SQL[] {
  const now = today(f.tz);
  for (const field of ['start_date', 'end_date'] as const)
    if (f[field] && f[field] > now) throw badRequest('Date must not be after today', field);
  let a = f.start_date || f.end_date;
  let b = f.end_date || f.start_date;
  if (!a || !b) return [];
  if (a > b) [a, b] = [b, a];
  const { from, to } = dayRange(a, b, f.tz);
  return [sql`${column} >= ${from.toISOString()}::timestamptz`, sql`${column} < ${to.toISOString()}::timestamptz`];
}

/** One page (or export chunk) of pay-ins, newest or oldest first. */
export function payinListSql(where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number, after?: SQL): SQL {
  const order = dir === 'ASC' ? sql`p.created_at ASC, p.id ASC` : sql`p.created_at DESC, p.id DESC`;
  return sql`SELECT p.id, p.reference, p.merchant_name, p.brand_name, p.amount, p.currency, p.provider_id, p.channel,
      p.requested_by, p.status,
      p.link_status, p.reason, p.refund_status, p.first_name, p.last_name, p.date_of_birth::text AS date_of_birth, p.account_code,
      p.created_at, p.updated_at,
      to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM payins p
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

export interface PayinDbRow {
  id: number | string;
  reference: string;
  merchant_name: string;
  brand_name: string | null;
  amount: number | string;
  currency: string;
  provider_id: string;
  channel: PayinRow['channel'];
  requested_by: string | null;
  status: PayinRow['transaction_status'];
  link_status: PayinRow['link_status'];
  reason: string | null;
  refund_status: number | null;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  account_code: string;
  created_at: string | Date;
  updated_at: string | Date;
  created_key: string;
}

const iso = (v: string | Date) => new Date(v).toISOString();
export const toPayinRow = (r: PayinDbRow): PayinRow => ({
  id: Number(r.id),
  pay_in_reference: r.reference,
  merchant_name: r.merchant_name,
  brand_name: r.brand_name,
  amount: Number(r.amount),
  currency: r.currency,
  request_id: r.provider_id,
  channel: r.channel,
  requested_by: r.requested_by,
  transaction_status: r.status,
  link_status: r.link_status,
  reason: r.reason,
  first_name: r.first_name,
  last_name: r.last_name,
  date_of_birth: r.date_of_birth,
  account_id: r.account_code,
  refund_status: r.refund_status,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listPayins(
  db: Executor,
  scope: Scope,
  q: PayinFilters & { sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const where = payinWhere(scope, q);
  const [rows, counted] = await Promise.all([
    db.execute(payinListSql(where, q.sortby, q.per_page, (q.page - 1) * q.per_page)),
    db.execute(sql`SELECT count(*) AS total FROM payins p WHERE ${where}`),
  ]);
  return {
    data: rowsOf<PayinDbRow>(rows).map(toPayinRow),
    total: Number(rowsOf<{ total: number | string }>(counted)[0].total),
  };
}
