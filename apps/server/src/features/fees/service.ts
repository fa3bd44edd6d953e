import { FEE_MSG, type FeeChangeRow, type FeeIncomeResponse, type FeeListResponse, type FeeRow } from '@obol/contract';
import { and, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { escapeLike, rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { badRequest, notFound, unprocessable } from '../../platform/errors.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { rolesNamed, roleName } from '../roles/repo.ts';
import { users } from '../users/tables.ts';
import { feeChanges } from './tables.ts';

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
  const lastChange = sql<Date | null>`(SELECT max(${feeChanges.changedAt}) FROM ${feeChanges} WHERE ${feeChanges.holderId} = ${users.id})`;
  const rows = await db
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
    .leftJoin(parent, eq(parent.id, users.parentId))
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
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
  await tx.insert(feeChanges).values({ holderId, oldBps, newBps, reason, changedBy: actorId });
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
    .orderBy(desc(feeChanges.changedAt), desc(feeChanges.id));
  return rows.map((r) => ({
    id: r.id,
    old_fee: percent(r.oldBps),
    new_fee: percent(r.newBps),
    reason: r.reason,
    changed_by: r.by,
    changed_at: r.at.toISOString(),
  }));
}

/** The longest range the income card sums in one answer. */
export const FEE_INCOME_MAX_DAYS = 366 * 2;

/**
 * The Fee Account's net income (its postings: fees charged less fees returned) per UTC day or month over an
 * inclusive range of UTC days, oldest first, summed in the database from the ledger. No dates: the last 30 days.
 */
export async function feeIncome(
  db: Executor,
  q: { group: 'day' | 'month'; start: string; end: string },
): Promise<FeeIncomeResponse> {
  const end = q.end || today('UTC');
  const start = q.start || new Date(Date.parse(`${end}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const [a, b] = start <= end ? [start, end] : [end, start];
  const { from, to } = dayRange(a, b, 'UTC');
  if ((to.getTime() - from.getTime()) / 86_400_000 > FEE_INCOME_MAX_DAYS)
    throw badRequest(`Choose at most ${FEE_INCOME_MAX_DAYS} days`, 'start_date');
  const fee = await platformAccountId(db, 'fee');
  const unit = q.group === 'month' ? sql.raw(`'month'`) : sql.raw(`'day'`);
  const rows = rowsOf<{ period: string; amount: string | number }>(
    await db.execute(sql`
      SELECT to_char(date_trunc(${unit}, created_at AT TIME ZONE 'UTC'), ${q.group === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD'}) AS period,
             sum(amount)::bigint AS amount
      FROM postings
      WHERE account_id = ${fee} AND created_at >= ${from.toISOString()}::timestamptz AND created_at < ${to.toISOString()}::timestamptz
      GROUP BY 1 ORDER BY 1`),
  );
  const data = rows.map((r) => ({ period: r.period, amount: Number(r.amount) }));
  return { start_date: a, end_date: b, data, total: data.reduce((s, r) => s + r.amount, 0) };
}
