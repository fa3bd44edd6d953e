import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from './db.ts';

// The lists read by creation time, newest first (oldest first when asked): pay-ins, refunds, rewards, transfers,
// 2D transactions. Each says what it selects and from where; its page, order, cursor key and total are read here.

/** A list read by creation time: what a row selects, from where, and the alias of the table it lists. */
export interface CreatedList {
  /** the select list (`created_key` is added) */
  columns: SQL;
  /** the FROM clause: the listed table under `alias`, and what it joins */
  from: SQL;
  alias: string;
}

export type ListDir = 'ASC' | 'DESC';

/**
 * One page (or an export's chunk) of the list: `limit` rows matching `where` past `offset` rows, and after `after`
 * when given, ordered by the alias' created_at and id; each with `created_key`, its creation time in UTC to the
 * microsecond (an export's cursor).
 */
export function createdPageSql(
  list: CreatedList,
  where: SQL,
  dir: ListDir,
  limit: number,
  offset: number,
  after?: SQL,
): SQL {
  const a = list.alias;
  const order = dir === 'ASC' ? 'ASC' : 'DESC';
  return sql`SELECT ${list.columns},
      to_char(${sql.raw(a)}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM ${list.from}
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${sql.raw(`${a}.created_at ${order}, ${a}.id ${order}`)}
    LIMIT ${limit} OFFSET ${offset}`;
}

/** A page of the list as the API answers it: its rows shaped by `toRow`, and how many match in all. */
export async function listPage<R, T>(
  db: Executor,
  list: CreatedList,
  where: SQL,
  q: { sortby: ListDir; page: number; per_page: number },
  toRow: (row: R) => T,
): Promise<{ data: T[]; total: number }> {
  const [rows, counted] = await Promise.all([
    db.execute(createdPageSql(list, where, q.sortby, q.per_page, (q.page - 1) * q.per_page)),
    db.execute(sql`SELECT count(*) AS total FROM ${list.from} WHERE ${where}`),
  ]);
  return {
    data: rowsOf<R>(rows).map(toRow),
    total: Number(rowsOf<{ total: number | string }>(counted)[0].total),
  };
}
