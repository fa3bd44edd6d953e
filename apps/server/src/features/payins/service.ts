import { PAYIN_MSG, type ParsedInputOf, type PayinLinkResponse, type payinOps } from '@obol/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, conflict, unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, type ProviderPayin } from '../../platform/provider.ts';
import { holderAccounts, platformAccountId } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { payins } from './tables.ts';
import type { MerchantCaller } from './token.ts';

type PayinDb = typeof payins.$inferSelect;
type CreatePayinLink = ParsedInputOf<typeof payinOps.createPayinLink>;

const IDEMPOTENCY_FIELD = 'Idempotency-Key';
const UNIQUE_VIOLATION = '23505';

export const toPayinLink = (p: PayinDb): PayinLinkResponse => ({
  request_id: p.providerId,
  reference: p.reference,
  amount: p.amount,
  currency: p.currency,
  url: p.url,
  transaction_status: p.status as PayinLinkResponse['transaction_status'],
  link_status: p.linkStatus as PayinLinkResponse['link_status'],
  expires_at: p.expiresAt.toISOString(),
  created_at: p.createdAt.toISOString(),
});

/** Whether a stored pay-in was made from this very request (a retry), field by field. */
const sameRequest = (p: PayinDb, input: CreatePayinLink) =>
  p.amount === input.amount &&
  p.reference === input.reference &&
  p.firstName === input.first_name &&
  p.lastName === input.last_name &&
  p.dateOfBirth === input.date_of_birth &&
  p.returnUrl === (input.return_url ?? '');

async function byKey(db: Executor, holderId: number, key: string) {
  const [p] = await db
    .select()
    .from(payins)
    .where(and(eq(payins.holderId, holderId), eq(payins.idempotencyKey, key)));
  return p;
}

const isUniqueViolation = (err: unknown, constraint: string) => {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never)
    if (e.code === UNIQUE_VIOLATION) return !e.constraint || e.constraint === constraint;
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
  const { holder } = caller;
  const replay = async () => {
    const prior = await byKey(deps.db, holder.id, key);
    if (!prior) return undefined;
    if (!sameRequest(prior, input)) throw conflict('This idempotency key was used for a different request');
    return toPayinLink(prior);
  };
  const first = await replay();
  if (first) return first;
  const [taken] = await deps.db
    .select({ id: payins.id })
    .from(payins)
    .where(and(eq(payins.merchantId, holder.merchantId), eq(payins.reference, input.reference)));
  if (taken) throw unprocessable(PAYIN_MSG.referenceUsed, 'reference');
  const account = (await holderAccounts(deps.db, holder.id)).payin;
  if (!account) throw unprocessable('This merchant has no pay-in account', 'reference');

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
    const [row] = await deps.db
      .insert(payins)
      .values({
        merchantId: holder.merchantId,
        holderId: holder.id,
        accountId: account.id,
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
      })
      .onConflictDoNothing({ target: [payins.holderId, payins.idempotencyKey] })
      .returning();
    if (row) return toPayinLink(row);
  } catch (err) {
    if (isUniqueViolation(err, 'payins_merchant_reference')) throw unprocessable(PAYIN_MSG.referenceUsed, 'reference');
    throw err;
  }
  // the same request at the same moment: the other one wrote it
  const again = await replay();
  if (again) return again;
  throw conflict('This request is still being processed');
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
