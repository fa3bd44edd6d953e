import { sql, type SQL } from 'drizzle-orm';
import type { Writable } from 'node:stream';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import type { SqlCell } from './cells.ts';
import type { Cell } from './writer.ts';

/**
 * The rows of an export as SQL, for the database to write (rows.ts): the file is
 * `SELECT <cells> FROM from joins WHERE where ORDER BY orderBy`, each cell formatted in the query (cells.ts) exactly
 * as `cells` would be written. On PGlite the keys (`key`, a whole number unique to a row) are taken first, then
 * the rows are read by key: `where` and `orderBy` must only name `from`, and `joins` only add a row's cells.
 */
export interface ExportRows {
  /** the table the rows are, with its alias: payouts p */
  from: SQL;
  /** what the cells need besides it, joined to one row (LEFT JOIN ... or JOIN on a key that always exists) */
  joins?: SQL;
  where: SQL;
  orderBy: SQL;
  key: SQL;
  cells: SqlCell[];
}

/**
 * What one kind of export writes, declared by the feature that owns the list (transactions for its lists):
 * its file name, its columns, how it reads the next chunk after a cursor, and a row's cells. The downloads
 * feature knows nothing else of it: it keeps the file, runs the job and serves the result.
 */
export interface ExportSpec {
  /** the name kept with each file, which the job looks the spec up by */
  kind: string;
  /** the start of the file's name (a timestamp and the format's extension follow) */
  fileName: string;
  /** a report: listed in the report downloads, not the transaction downloads */
  isReport?: boolean;
  /** a 2D transactions file: listed in the accounting downloads */
  accounting?: boolean;
  header: string[];
  /** the next chunk after `cursor` (null: the first), in the scope of the caller who asked for the export */
  chunk(scope: Scope, params: Record<string, unknown>, cursor: unknown, limit: number): SQL;
  cells(row: Record<string, unknown>, params: Record<string, unknown>): Cell[];
  /**
   * The same rows and cells as SQL (a list's export declares it): the database formats the file, COPY streams it
   * on PostgreSQL, and PGlite reads it in short chunks. `chunk` and `cells` stay the reference it is tested against.
   */
  rows?(scope: Scope, params: Record<string, unknown>): ExportRows;
  /** the cursor after a row: the chunk that follows starts past it */
  cursorOf(row: Record<string, unknown>): unknown;
  /**
   * A document rather than rows (an invoice's PDF): writes the whole file to `out` inside the job's read-only
   * snapshot, and answers how many lines it holds. When present, header, chunk and cells are not used.
   */
  write?(tx: Executor, params: Record<string, unknown>, out: Writable): Promise<number>;
}

const SPECS = new Map<string, ExportSpec>();

/**
 * Declares a kind of export, once per process (at the import of the module that declares it), so that the
 * export job finds it by the kind kept with the file. Returns the spec to start exports with.
 */
export function defineExport(spec: ExportSpec): ExportSpec {
  if (SPECS.has(spec.kind)) throw new Error(`export kind ${spec.kind} is declared twice`);
  SPECS.set(spec.kind, spec);
  return spec;
}

/** The spec of a kind, or undefined for a kind nobody declared. */
export const exportSpec = (kind: string): ExportSpec | undefined => SPECS.get(kind);

/** The keyset cursor of the lists that export newest or oldest first: the last row's creation time and id. */
export interface CreatedCursor {
  /** the creation time in UTC to the microsecond (the query's created_key) */
  createdAt: string;
  id: number;
}

/** The cursor after a row of such a list (its query selects `created_key` and `id`). */
export const createdCursorOf = (row: Record<string, unknown>): CreatedCursor => ({
  createdAt: String(row.created_key),
  id: Number(row.id),
});

/**
 * The rows past a cursor of such a list, in its order: `alias.created_at, alias.id` after (ASC) or before (DESC)
 * the cursor; undefined for the first chunk.
 */
export function afterCreated(alias: string, dir: 'ASC' | 'DESC', cursor: unknown): SQL | undefined {
  const c = cursor as CreatedCursor | null;
  if (!c) return undefined;
  const cols = sql.raw(`(${alias}.created_at, ${alias}.id)`);
  const at = sql`(${c.createdAt}::timestamp AT TIME ZONE 'UTC', ${c.id})`;
  return dir === 'ASC' ? sql`${cols} > ${at}` : sql`${cols} < ${at}`;
}
