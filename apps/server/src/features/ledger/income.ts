import type { FeeIncomeResponse } from '@obol/contract';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { badRequest } from '../../platform/errors.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { platformAccountId } from './accounts.ts';

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
