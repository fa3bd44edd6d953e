// The Merchants screen's edits: a merchant's or brand's details, direct flag and status.
import { MERCHANT_MSG } from '@obol/contract';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { rolesNamed } from '../roles/repo.ts';
import { changeFee } from '../fees/fees.ts';
import type { SignInHooks } from '../users/admin.ts';
import { holderDetails, users } from '../users/tables.ts';
import { isBrand, isMerchant, selectRows, toRow } from './merchants.ts';

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
  signIn: Pick<SignInHooks, 'endSessions'>,
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
      for (const m of members) await signIn.endSessions(tx, m.id);
    }
    return {
      before: { id, name: holder.name, level, is_active: holder.isActive },
      after: { id, name: holder.name, level, is_active: active },
    };
  });
}
