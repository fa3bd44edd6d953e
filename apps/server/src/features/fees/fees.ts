import { FEE_MSG, type FeeChangeRow, type FeeListResponse, type FeeRow } from '@obol/contract';
import { and, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { escapeLike, type Executor, type Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import { rolesNamed, roleName } from '../roles/repo.ts';
import { usersPage } from '../users/repo.ts';
import { feeChanges, users } from '../users/tables.ts';

const parent = alias(users, 'parent');
const changer = alias(users, 'changer');
const HOLDERS = ['Merchant', 'Brand'] as const;
const holders = () => and(isNull(users.deletedAt), inArray(users.roleId, rolesNamed(HOLDERS)))!;
const percent = (bps: number | null) => (bps ?? 0) / 100;

/** Every merchant and brand (the Fee Module is staff's: no tenant filter beyond the permission), newest first. */
export async function listFees(
  db: Executor,
  q: { page: number; perPage: number; search: string },
): Promise<FeeListResponse> {
  const filters: SQL[] = [holders()];
  if (q.search) {
    const p = `%${escapeLike(q.search)}%`;
    filters.push(or(ilike(users.name, p), ilike(users.email, p))!);
  }
  const where = and(...filters);
  const lastChange = sql<Date | null>`(SELECT max(${feeChanges.changedAt}) FROM ${feeChanges}
    WHERE ${feeChanges.holderId} = ${users.id})`;
  const select = db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: roleName(users.roleId),
      parentId: parent.id,
      parentName: parent.name,
      feeBps: users.feeBps,
      changedAt: lastChange.mapWith((v: string | Date | null) => (v ? new Date(v) : null)),
    })
    .from(users)
    .leftJoin(parent, eq(parent.id, users.parentId));
  const { rows, total } = await usersPage(db, select.$dynamic(), where, q);
  const data: FeeRow[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role as FeeRow['role'],
    parent: r.parentId !== null && r.parentName !== null ? { id: r.parentId, name: r.parentName } : null,
    fee: percent(r.feeBps),
    changed_at: r.changedAt ? r.changedAt.toISOString() : null,
  }));
  return { data, total };
}

export interface FeeChange {
  before: { id: number; name: string; fee: number };
  after: { id: number; name: string; fee: number; reason: string };
}

/**
 * Changes a merchant's or brand's fee: the holder's row is locked, checked and updated, and the change recorded
 * in fee_changes, all in the caller's transaction (one that also writes the activity record). Payouts keep the
 * fee they were created with (payouts.fee_bps), so only payouts created after the commit use the new one; a
 * batch takes its holder's fee when it is executed. Refused: an unknown or deleted holder (404), the same fee
 * again (422). Racing changes of one holder queue on the row lock, so each history row's old fee is the fee
 * the previous change left.
 */
export async function changeFee(
  tx: Tx,
  actorId: number,
  holderId: number,
  newBps: number,
  reason: string,
): Promise<FeeChange> {
  const [holder] = await tx
    .select({ id: users.id, name: users.name, feeBps: users.feeBps })
    .from(users)
    .where(and(eq(users.id, holderId), holders()))
    .for('update');
  if (!holder) throw notFound(FEE_MSG.notFound);
  const oldBps = holder.feeBps ?? 0;
  if (oldBps === newBps) throw unprocessable(FEE_MSG.unchanged, 'fee');
  await tx.update(users).set({ feeBps: newBps, updatedAt: new Date() }).where(eq(users.id, holderId));
  await tx
    .insert(feeChanges)
    .values({ holderId, oldBps, newBps, reason, changedBy: actorId, changedAt: sql`clock_timestamp()` });
  return {
    before: { id: holder.id, name: holder.name, fee: percent(oldBps) },
    after: { id: holder.id, name: holder.name, fee: percent(newBps), reason },
  };
}

/** A holder's fee changes, newest first; 404 for an id that is no merchant or brand. */
export async function feeHistory(db: Executor, holderId: number): Promise<FeeChangeRow[]> {
  const [holder] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, holderId), holders()));
  if (!holder) throw notFound(FEE_MSG.notFound);
  const rows = await db
    .select({
      id: feeChanges.id,
      oldBps: feeChanges.oldBps,
      newBps: feeChanges.newBps,
      reason: feeChanges.reason,
      by: changer.name,
      at: feeChanges.changedAt,
    })
    .from(feeChanges)
    .innerJoin(changer, eq(changer.id, feeChanges.changedBy))
    .where(eq(feeChanges.holderId, holderId))
    // in the order the changes took the holder's lock: ids are drawn under it, while now() is each
    // transaction's start and may be earlier for a change that waited
    .orderBy(desc(feeChanges.id));
  return rows.map((r) => ({
    id: r.id,
    old_fee: percent(r.oldBps),
    new_fee: percent(r.newBps),
    reason: r.reason,
    changed_by: r.by,
    changed_at: r.at.toISOString(),
  }));
}
