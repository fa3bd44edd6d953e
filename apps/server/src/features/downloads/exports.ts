import type { SQL } from 'drizzle-orm';
import type { Writable } from 'node:stream';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import type { SqlCell } from './cells.ts';

/**
 * The rows of a list's export as SQL, for the database to write (rows.ts): the file is
 * `SELECT <cells> FROM from joins WHERE where ORDER BY orderBy`, each cell formatted in the query (cells.ts). On
 * PGlite the keys (`key`, a whole number unique to a row) are taken first, then the rows are read by key: `where`
 * and `orderBy` must only name `from`, and `joins` only add a row's cells.
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
 * What one kind of export writes, declared by the feature that owns the list or report: its file name, its columns,
 * and its rows, in one of three ways: a list's `rows` (one query, COPY on PostgreSQL), a report's `chunk`, `cells`
 * and `cursorOf` (keyset chunks), or a document's `write`. The downloads feature knows nothing else of it: it keeps
 * the file, runs the job and serves the result.
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
  /** a list's rows and cells as SQL: the database formats the file, COPY streams it on PostgreSQL */
  rows?(scope: Scope, params: Record<string, unknown>): ExportRows;
  /** a report's next chunk after `cursor` (null: the first), in the scope of the caller who asked for the export */
  chunk?(scope: Scope, params: Record<string, unknown>, cursor: unknown, limit: number): SQL;
  /** a report's cells, reading its chunk's columns as r.<column> */
  cells?: SqlCell[];
  /** the cursor after a report's row: the chunk that follows starts past it */
  cursorOf?(row: Record<string, unknown>): unknown;
  /**
   * A document rather than rows (an invoice's PDF): writes the whole file to `out` inside the job's read-only
   * snapshot, and answers how many lines it holds. When present, header and the rest are not used.
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
