import { MERCHANT_MSG, PAYMENT_MSG, type HolderRow, type MerchantsListResponse, type RoleName } from '@obol/contract';
import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { escapeLike, isUniqueViolation, type Executor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { ProviderUnavailable } from '../../platform/provider.ts';
import type { Scope } from '../../platform/scope.ts';
import { issueApiKey } from '../api-keys/service.ts';
import { newInvitation } from '../auth/passwords.ts';
import { endSessions } from '../auth/sessions.ts';
import { holderReference, openHolderAccounts } from '../ledger/accounts.ts';
import { rolesNamed } from '../roles/repo.ts';
import { changeFee } from './fees.ts';
import { holderDetails, users } from './tables.ts';

// The Merchants screen: merchants and their brands with their details, created with their ledger accounts, API
// keys and invitation in one transaction; edited, switched on and off, marked direct.

/** The read-only descriptor code of a merchant or brand, derived from its id. */
export const descriptorCode = (id: number) => `DC${String(id).padStart(7, '0')}`;

const isMerchant = () => inArray(users.roleId, rolesNamed(['Merchant']));
const isBrand = () => inArray(users.roleId, rolesNamed(['Brand']));

/** The merchants a scope may see: staff every merchant, a merchant's side its own merchant; never the deleted. */
function merchantScope(scope: Scope): SQL {
  const merchants = and(isNull(users.deletedAt), isMerchant())!;
  if (scope.kind === 'all') return merchants;
  if (scope.kind === 'merchant') return and(merchants, eq(users.id, scope.merchantId))!;
  return sql`false`;
}

const brandCount =
  sql<number>`(SELECT count(*) FROM users b WHERE b.parent_id = "users"."id" AND b.deleted_at IS NULL AND b.role_id IN ${rolesNamed(['Brand'])})`.mapWith(
    Number,
  );

const rowColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  parentId: users.parentId,
  feeBps: users.feeBps,
  isActive: users.isActive,
  verifiedAt: users.emailVerifiedAt,
  createdAt: users.createdAt,
  merchant: sql<boolean>`${users.roleId} IN ${rolesNamed(['Merchant'])}`,
  descriptor: holderDetails.descriptor,
  brandName: holderDetails.brandName,
  obolId: holderDetails.obolId,
  mid: holderDetails.mid,
  registrationNumber: holderDetails.registrationNumber,
  street: holderDetails.street,
  city: holderDetails.city,
  zipCode: holderDetails.zipCode,
  directMerchant: holderDetails.directMerchant,
  totalBrands: brandCount,
};
const selectRows = (db: Executor) =>
  db.select(rowColumns).from(users).leftJoin(holderDetails, eq(holderDetails.userId, users.id));
type Row = Awaited<ReturnType<typeof selectRows>>[number];

function toRow(r: Row): HolderRow {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.merchant ? 'Merchant' : 'Brand',
    parent_id: r.parentId,
    payin_name: r.descriptor,
    descriptor_name: r.descriptor,
    descriptor_code: descriptorCode(r.id),
    brand_name: r.brandName,
    obol_id: r.obolId,
    mid: r.mid,
    fee: r.feeBps === null ? null : r.feeBps / 100,
    registration_number: r.registrationNumber,
    street: r.street,
    city: r.city,
    zip_code: r.zipCode,
    account_reference: holderReference(r.id),
    total_brands: r.merchant ? r.totalBrands : 0,
    is_active: r.isActive ? '1' : '0',
    remember_token_status: r.verifiedAt ? 'Verified' : 'Not verified',
    resend_mail: r.verifiedAt ? 0 : 1,
    direct_merchant: r.directMerchant ? 1 : 0,
    created_at: r.createdAt.toISOString(),
  };
}

/** A page of merchants (newest first) whose name or e-mail contains the search (or the one `id`), with the scope's counters. */
export async function listMerchants(
  db: Executor,
  scope: Scope,
  q: { page: number; perPage: number; search: string; id?: number },
): Promise<MerchantsListResponse> {
  const inScope = merchantScope(scope);
  const p = `%${escapeLike(q.search)}%`;
  const where = and(
    inScope,
    q.search ? or(ilike(users.name, p), ilike(users.email, p)) : undefined,
    q.id === undefined ? undefined : eq(users.id, q.id),
  )!;
  const rows = await selectRows(db)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  const [counters] = await db
    .select({ all: count(), active: sql<number>`count(*) filter (where ${users.isActive})`.mapWith(Number) })
    .from(users)
    .where(inScope);
  return {
    merchants: { data: rows.map(toRow), total },
    count: counters.all,
    active: counters.active,
    inactive: counters.all - counters.active,
  };
}

/** The brands of a merchant in scope (404 otherwise), newest first, those whose name contains `name`. */
export async function merchantBrands(
  db: Executor,
  scope: Scope,
  merchantId: number,
  name: string,
): Promise<HolderRow[]> {
  const [merchant] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, merchantId), merchantScope(scope)));
  if (!merchant) throw notFound(MERCHANT_MSG.notFound);
  const rows = await selectRows(db)
    .where(
      and(
        eq(users.parentId, merchantId),
        isBrand(),
        isNull(users.deletedAt),
        name ? ilike(users.name, `%${escapeLike(name)}%`) : undefined,
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(500);
  return rows.map(toRow);
}

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
  await issueApiKey(tx, deps.config.secretsKey, user.id);
  return { id: user.id, mail: await newInvitation(tx, deps, user, inviter) };
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
export async function createMerchant(deps: Deps, auth: AuthContext, input: MerchantInput) {
  if (auth.scope.kind !== 'all') throw notFound(MERCHANT_MSG.notFound);
  await checkWallet(deps, input.obol_id, 'obol_id');
  const created = await creating(
    () =>
      deps.db.transaction((tx) =>
        insertHolder(tx, deps, auth.user.name, {
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
        }),
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
export async function createBrands(deps: Deps, auth: AuthContext, input: BrandsInput) {
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
            await insertHolder(tx, deps, auth.user.name, {
              name: b.name,
              email: b.email,
              role: 'Brand',
              parentId: merchant.id,
              feeBps: merchant.feeBps,
              details: { descriptor: merchant.descriptor, brandName: b.name, obolId: b.obol_id, mid: b.mId },
            }),
          );
        }
        return made;
      }),
    (email) => `brands.${Math.max(0, emails.indexOf(email))}.email`,
  );
  return { ids: created.map((c) => c.id), mailed: await mailAll(deps, created) };
}

/** A merchant or brand in scope (staff: any; a merchant's side: its brands), locked for the rest of the transaction. */
async function lockHolder(tx: Tx, scope: Scope, id: number) {
  const merchantId = scope.kind === 'merchant' ? scope.merchantId : null;
  const [row] = await tx
    .select({
      id: users.id,
      name: users.name,
      isActive: users.isActive,
      verifiedAt: users.emailVerifiedAt,
      feeBps: users.feeBps,
      merchant: sql<boolean>`${users.roleId} IN ${rolesNamed(['Merchant'])}`,
    })
    .from(users)
    .where(
      and(
        eq(users.id, id),
        isNull(users.deletedAt),
        or(isMerchant(), isBrand()),
        scope.kind === 'all'
          ? undefined
          : merchantId === null
            ? sql`false`
            : // a merchant's side reaches its brands, never the merchant itself (its fee, status and flags are staff's)
              eq(users.parentId, merchantId),
      ),
    )
    .for('update');
  if (!row) throw notFound(MERCHANT_MSG.notFound);
  return row;
}

async function detailsOf(db: Executor, id: number) {
  const [row] = await selectRows(db).where(eq(users.id, id));
  return toRow(row);
}

export interface DetailsInput {
  id: number;
  payin_name: string;
  fee?: number;
  brand_name: string | null;
  registrationNumber: string | null;
  street: string | null;
  city: string | null;
  zipCode: string | null;
}

/**
 * Edits a merchant or brand under its row lock; a merchant's new fee goes through the Fee Module's changeFee (with
 * its history), so it applies to payouts created after it. Answers the holder before and after.
 */
export async function updateHolderDetails(deps: Deps, auth: AuthContext, input: DetailsInput) {
  return deps.db.transaction(async (tx) => {
    const holder = await lockHolder(tx, auth.scope, input.id);
    if (!holder.merchant && input.fee !== undefined) throw unprocessable(MERCHANT_MSG.brandFee, 'fee');
    const before = await detailsOf(tx, holder.id);
    const set = {
      descriptor: input.payin_name,
      brandName: input.brand_name,
      registrationNumber: input.registrationNumber,
      street: input.street,
      city: input.city,
      zipCode: input.zipCode,
      updatedAt: new Date(),
    };
    await tx
      .insert(holderDetails)
      .values({ userId: holder.id, ...set })
      .onConflictDoUpdate({ target: holderDetails.userId, set });
    if (input.fee !== undefined && input.fee !== holder.feeBps)
      await changeFee(tx, auth.user.id, holder.id, input.fee, MERCHANT_MSG.feeReason);
    return { before, after: await detailsOf(tx, holder.id) };
  });
}

/** Marks a merchant direct or not (the route admits Admins only). */
export async function setDirectMerchant(deps: Deps, auth: AuthContext, id: number, direct: boolean) {
  return deps.db.transaction(async (tx) => {
    const holder = await lockHolder(tx, auth.scope, id);
    if (!holder.merchant) throw notFound(MERCHANT_MSG.notFound);
    const [was] = await tx
      .select({ direct: holderDetails.directMerchant })
      .from(holderDetails)
      .where(eq(holderDetails.userId, id));
    await tx
      .insert(holderDetails)
      .values({ userId: id, directMerchant: direct })
      .onConflictDoUpdate({ target: holderDetails.userId, set: { directMerchant: direct, updatedAt: new Date() } });
    return {
      before: { id, name: holder.name, direct_merchant: was?.direct ?? false },
      after: { id, name: holder.name, direct_merchant: direct },
    };
  });
}

/**
 * Activates or deactivates a verified merchant or brand (`level` must be what it is). Deactivating ends its
 * sessions, and a merchant's brands' and team's too: sign-in and sessions treat the users of an inactive merchant
 * as inactive.
 */
export async function changeHolderStatus(
  deps: Deps,
  auth: AuthContext,
  id: number,
  level: 'Merchant' | 'Brand',
  active: boolean,
) {
  return deps.db.transaction(async (tx) => {
    const holder = await lockHolder(tx, auth.scope, id);
    if (holder.merchant !== (level === 'Merchant')) throw notFound(MERCHANT_MSG.notFound);
    if (!holder.verifiedAt) throw unprocessable(MERCHANT_MSG.notVerifiedStatus, 'id');
    if (active && !holder.merchant) {
      // a brand works only under an active merchant: the merchant's row is read under a share lock, so its
      // deactivation at the same moment waits for this (or this for it)
      const [parent] = await tx
        .select({ isActive: users.isActive })
        .from(users)
        .where(eq(users.id, sql`(SELECT parent_id FROM users WHERE id = ${id})`))
        .for('share');
      if (!parent?.isActive) throw unprocessable(MERCHANT_MSG.inactiveMerchant, 'id');
    }
    await tx.update(users).set({ isActive: active, updatedAt: new Date() }).where(eq(users.id, id));
    if (!active) {
      const members = await tx
        .select({ id: users.id })
        .from(users)
        .where(or(eq(users.id, id), holder.merchant ? eq(users.parentId, id) : sql`false`));
      for (const m of members) await endSessions(tx, m.id);
    }
    return {
      before: { id, name: holder.name, level, is_active: holder.isActive },
      after: { id, name: holder.name, level, is_active: active },
    };
  });
}
