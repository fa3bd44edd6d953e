// The Merchants screen's creation: a merchant, or brands of one, with their ledger accounts, API keys and
// invitation in one transaction.
import { MERCHANT_MSG, PAYMENT_MSG, type RoleName } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import { isUniqueViolation, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { ProviderUnavailable } from '../../platform/provider.ts';
import { openHolderAccounts } from '../ledger/accounts.ts';
import { rolesNamed } from '../roles/repo.ts';
import type { SignInHooks } from '../users/admin.ts';
import { holderDetails, users } from '../users/tables.ts';
import { merchantScope } from './merchants.ts';

/** The wallet must exist at the provider: asked over HTTP before anything is written. */
async function checkWallet(deps: Deps, obolId: string, field: string) {
  let wallet;
  try {
    wallet = await deps.provider.lookupWallet(obolId);
  } catch (err) {
    if (err instanceof ProviderUnavailable)
      throw new ApiError(503, ['The payment provider is not reachable; try again shortly']);
    throw err;
  }
  if (!wallet) throw new ApiError(404, [PAYMENT_MSG.invalidObolId], { [field]: [PAYMENT_MSG.invalidObolId] });
}

/**
 * What a new holder gets from the features above merchants (auth's invitation link, api-keys' key pair), handed in
 * by app.ts.
 */
export interface NewHolderHooks extends Pick<SignInHooks, 'newInvitation'> {
  /** the holder's first key pair, in the caller's transaction */
  issueApiKey: (tx: Tx, secretsKey: Buffer, userId: number) => Promise<unknown>;
}

interface NewHolder {
  name: string;
  email: string;
  role: Extract<RoleName, 'Merchant' | 'Brand'>;
  parentId: number | null;
  feeBps: number | null;
  details: Omit<typeof holderDetails.$inferInsert, 'userId' | 'updatedAt'>;
}

/** One merchant or brand with its details, ledger accounts, API key and invitation, in the caller's transaction. */
async function insertHolder(
  tx: Tx,
  deps: Deps,
  inviter: string,
  h: NewHolder,
  hooks: NewHolderHooks,
): Promise<{ id: number; mail: MailMessage }> {
  const [user] = await tx
    .insert(users)
    .values({
      name: h.name,
      email: h.email,
      roleId: sql`${rolesNamed([h.role])}`,
      parentId: h.parentId,
      feeBps: h.feeBps,
    })
    .returning({ id: users.id, name: users.name, email: users.email });
  await tx.insert(holderDetails).values({ userId: user.id, ...h.details });
  await openHolderAccounts(tx, { id: user.id, name: user.name });
  await hooks.issueApiKey(tx, deps.config.secretsKey, user.id);
  return { id: user.id, mail: await hooks.newInvitation(tx, deps, user, inviter) };
}

/** Runs a creation; an e-mail already in use is 409 on the field that carried it. */
async function creating<T>(run: () => Promise<T>, emailField: (email: string) => string): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_key')) {
      const detail = (err as { detail?: string }).detail ?? '';
      const email = /\(email\)=\((.*)\)/.exec(detail)?.[1] ?? '';
      const field = emailField(email);
      throw new ApiError(409, ['The e-mail has already been taken.'], {
        [field]: ['The e-mail has already been taken.'],
      });
    }
    throw err;
  }
}

/** Mails each invitation after the commit; answers whether every one went out. */
async function mailAll(deps: Deps, mails: { id: number; mail: MailMessage }[]): Promise<boolean> {
  let all = true;
  for (const m of mails) {
    try {
      await deps.mailer.send(m.mail);
    } catch (err) {
      deps.log.error({ err, userId: m.id }, 'invitation mail not sent');
      all = false;
    }
  }
  return all;
}

export interface MerchantInput {
  name: string;
  email: string;
  payin_name: string;
  brand_name: string | null;
  obol_id: string;
  mId: string;
  fee: number;
  registrationNumber: string | null;
  street: string | null;
  city: string | null;
  zipCode: string | null;
}

/** Add New Merchant (staff only): the wallet checked with the provider, then one transaction, then the mail. */
export async function createMerchant(deps: Deps, auth: AuthContext, input: MerchantInput, hooks: NewHolderHooks) {
  if (auth.scope.kind !== 'all') throw notFound(MERCHANT_MSG.notFound);
  await checkWallet(deps, input.obol_id, 'obol_id');
  const created = await creating(
    () =>
      deps.db.transaction((tx) =>
        insertHolder(
          tx,
          deps,
          auth.user.name,
          {
            name: input.name,
            email: input.email,
            role: 'Merchant',
            parentId: null,
            feeBps: input.fee,
            details: {
              descriptor: input.payin_name,
              brandName: input.brand_name,
              obolId: input.obol_id,
              mid: input.mId,
              registrationNumber: input.registrationNumber,
              street: input.street,
              city: input.city,
              zipCode: input.zipCode,
            },
          },
          hooks,
        ),
      ),
    () => 'email',
  );
  return { id: created.id, mailed: await mailAll(deps, [created]) };
}

export interface BrandsInput {
  parentId: number;
  brands: { name: string; email: string; obol_id: string; mId: string }[];
}

/**
 * Adds brands to a verified merchant in scope, all or none: each wallet checked, then one transaction that holds
 * the merchant (FOR SHARE, so it cannot be deleted or lose its verification meanwhile) and creates every brand with
 * the merchant's fee and descriptor.
 */
export async function createBrands(deps: Deps, auth: AuthContext, input: BrandsInput, hooks: NewHolderHooks) {
  const emails = input.brands.map((b) => b.email);
  const dup = emails.findIndex((e, i) => emails.indexOf(e) !== i);
  if (dup >= 0) throw unprocessable('Each brand needs its own e-mail', `brands.${dup}.email`);
  for (const [i, b] of input.brands.entries()) await checkWallet(deps, b.obol_id, `brands.${i}.obol_id`);
  const created = await creating(
    () =>
      deps.db.transaction(async (tx) => {
        const [merchant] = await tx
          .select({
            id: users.id,
            verifiedAt: users.emailVerifiedAt,
            feeBps: users.feeBps,
            descriptor: holderDetails.descriptor,
          })
          .from(users)
          .leftJoin(holderDetails, eq(holderDetails.userId, users.id))
          .where(and(eq(users.id, input.parentId), merchantScope(auth.scope)))
          .for('share', { of: users });
        if (!merchant) throw notFound(MERCHANT_MSG.notFound);
        if (!merchant.verifiedAt) throw unprocessable(MERCHANT_MSG.notVerified, 'parent_id');
        const made = [];
        for (const b of input.brands) {
          made.push(
            await insertHolder(
              tx,
              deps,
              auth.user.name,
              {
                name: b.name,
                email: b.email,
                role: 'Brand',
                parentId: merchant.id,
                feeBps: merchant.feeBps,
                details: { descriptor: merchant.descriptor, brandName: b.name, obolId: b.obol_id, mid: b.mId },
              },
              hooks,
            ),
          );
        }
        return made;
      }),
    (email) => `brands.${Math.max(0, emails.indexOf(email))}.email`,
  );
  return { ids: created.map((c) => c.id), mailed: await mailAll(deps, created) };
}
