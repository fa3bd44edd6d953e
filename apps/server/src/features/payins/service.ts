import {
  PAYIN_MSG,
  PAYMENT_MSG,
  payinLinkProblems,
  type ParsedInputOf,
  type PayinLinkResponse,
  type payinOps,
} from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, conflict, unprocessable } from '../../platform/errors.ts';
import { ProviderRejected, ProviderUnavailable } from '../../platform/provider.ts';
import { holderAccounts } from '../ledger/accounts.ts';
import { brandNamesOf, findHolderInScope } from '../merchants/holders.ts';
import { payinRewards, payins } from './tables.ts';
import type { MerchantCaller } from './token.ts';
import { wordOf } from '../engine/status.ts';

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
  transaction_status: wordOf('payin', p.status) as PayinLinkResponse['transaction_status'],
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
