import { sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../../platform/scope.ts';
import type { SqlCell } from './cells.ts';
import { defineExport, type ExportSpec } from './exports.ts';

/** The order a list is read in. */
export type ListDir = 'ASC' | 'DESC';

type Params = Record<string, unknown>;

/**
 * The export of a list: its filter and its order, taken from the export's params, and the rows the database writes
 * (`from`, `joins`, `key`, `orderBy`, `cells`: rows.ts).
 */
export interface ListExportSpec extends Pick<ExportSpec, 'kind' | 'fileName' | 'isReport' | 'accounting' | 'header'> {
  /** the list's filter, in the scope of the caller who asked for the export */
  where(scope: Scope, params: Params): SQL;
  /** the list's order as asked */
  dir(params: Params): ListDir;
  /** the table the rows are, with its alias (ExportRows) */
  from: SQL;
  joins?: SQL;
  key: SQL;
  orderBy(dir: ListDir): SQL;
  /** the cells of a row, for the database to write (cells.ts) */
  cells: SqlCell[];
}

/** Declares the export of a list (defineExport): its rows from its filter and order. */
export function defineListExport(list: ListExportSpec): ExportSpec {
  const { where, dir, from, joins, key, orderBy, cells, ...rest } = list;
  return defineExport({
    ...rest,
    rows: (scope, params) => ({
      from,
      joins,
      where: where(scope, params),
      orderBy: orderBy(dir(params)),
      key,
      cells,
    }),
  });
}

/**
 * What a list read newest first (oldest first when `sortby` is ASC) adds to its export: it is ordered by
 * `alias.created_at, alias.id` and keyed by `alias.id`.
 */
export function createdList(alias: string): Pick<ListExportSpec, 'dir' | 'key' | 'orderBy'> {
  return {
    dir: (params) => (params.sortby === 'ASC' ? 'ASC' : 'DESC'),
    key: sql.raw(`${alias}.id`),
    orderBy: (dir) => sql.raw(`${alias}.created_at ${dir}, ${alias}.id ${dir}`),
  };
}
