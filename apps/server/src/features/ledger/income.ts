import type { FeeIncomeResponse } from '@obol/contract';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { badRequest } from '../../platform/errors.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { platformAccountId } from './accounts.ts';

/** The longest range the income card sums in one answer. */
export const FEE_INCOME_MAX_DAYS = 366 * 2;

/** Entry kinds that move money the Admin sends (transfers, 2D payments): a movement of the Fee Account, not income. */
export const NOT_INCOME_KINDS = ['transfer.%', 'accounting.%'];

/**
 * The Fee Account's income (its postings from fees charged less fees returned; money moved out of it or into it by a
 * transfer or a 2D payment is left out) per UTC day or month over an inclusive range of UTC days, oldest first,
 * summed in the database from the ledger. No dates: the last 30 days.
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
  const format = q.group === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  const rows = rowsOf<{ period: string; amount: string | number }>(
    await db.execute(sql`
      SELECT to_char(date_trunc(${unit}, p.created_at AT TIME ZONE 'UTC'), ${format}) AS period,
             sum(p.amount)::bigint AS amount
      FROM postings p JOIN journal_entries e ON e.id = p.entry_id
      WHERE p.account_id = ${fee} AND p.created_at >= ${from.toISOString()}::timestamptz
        AND p.created_at < ${to.toISOString()}::timestamptz
        AND NOT e.kind LIKE ANY (${sql.param(NOT_INCOME_KINDS)}::text[])
      GROUP BY 1 ORDER BY 1`),
  );
  const data = rows.map((r) => ({ period: r.period, amount: Number(r.amount) }));
  return { start_date: a, end_date: b, data, total: data.reduce((s, r) => s + r.amount, 0) };
}
