import { sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../../platform/scope.ts';
import type { SqlCell } from './cells.ts';
import { afterCreated, createdCursorOf, defineExport, type ExportSpec } from './exports.ts';

/** The order a list is read in. */
export type ListDir = 'ASC' | 'DESC';

type Params = Record<string, unknown>;

/**
 * The export of a list: its filter and its order, taken once from the export's params, give both the chunks the
 * JavaScript writer reads (`chunk`, `cells`) and the rows the database writes (`from`, `joins`, `key`, `orderBy`,
 * `sqlCells`: rows.ts), so the two always hold the same rows in the same order.
 */
export interface ListExportSpec extends Pick<
  ExportSpec,
  'kind' | 'fileName' | 'isReport' | 'accounting' | 'header' | 'cells' | 'cursorOf'
> {
  /** the list's filter, in the scope of the caller who asked for the export */
  where(scope: Scope, params: Params): SQL;
  /** the list's order as asked */
  dir(params: Params): ListDir;
  /** the list's next chunk after `cursor` (null: the first) */
  chunk(where: SQL, dir: ListDir, cursor: unknown, limit: number): SQL;
  /** the table the rows are, with its alias (ExportRows) */
  from: SQL;
  joins?: SQL;
  key: SQL;
  orderBy(dir: ListDir): SQL;
  /** the same cells as SQL, for the database to write */
  sqlCells: SqlCell[];
}

/** Declares the export of a list (defineExport), its chunks and its rows built from one filter and one order. */
export function defineListExport(list: ListExportSpec): ExportSpec {
  const { where, dir, chunk, from, joins, key, orderBy, sqlCells, ...rest } = list;
  return defineExport({
    ...rest,
    chunk: (scope, params, cursor, limit) => chunk(where(scope, params), dir(params), cursor, limit),
    rows: (scope, params) => ({
      from,
      joins,
      where: where(scope, params),
      orderBy: orderBy(dir(params)),
      key,
      cells: sqlCells,
    }),
  });
}

/** A list page query: `limit` rows matching `where` in `dir`, past `offset` rows, and after `after` when given. */
export type ListSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL) => SQL;

/**
 * What a list read newest first (oldest first when `sortby` is ASC) adds to its export: it is ordered by
 * `alias.created_at, alias.id`, keyed by `alias.id`, and read past the last row's creation time and id.
 */
export function createdList(
  alias: string,
  listSql: ListSql,
): Pick<ListExportSpec, 'dir' | 'chunk' | 'cursorOf' | 'key' | 'orderBy'> {
  return {
    dir: (params) => (params.sortby === 'ASC' ? 'ASC' : 'DESC'),
    chunk: (where, dir, cursor, limit) => listSql(where, dir, limit, 0, afterCreated(alias, dir, cursor)),
    cursorOf: createdCursorOf,
    key: sql.raw(`${alias}.id`),
    orderBy: (dir) => sql.raw(`${alias}.created_at ${dir}, ${alias}.id ${dir}`),
  };
}
