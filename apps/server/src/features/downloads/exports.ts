import type { SQL } from 'drizzle-orm';
import type { Scope } from '../../platform/scope.ts';
import type { Cell } from './writer.ts';

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
  header: string[];
  /** the next chunk after `cursor` (null: the first), in the scope of the caller who asked for the export */
  chunk(scope: Scope, params: Record<string, unknown>, cursor: unknown, limit: number): SQL;
  cells(row: Record<string, unknown>, params: Record<string, unknown>): Cell[];
  /** the cursor after a row: the chunk that follows starts past it */
  cursorOf(row: Record<string, unknown>): unknown;
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
