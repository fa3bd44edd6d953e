import { BATCH_COLUMNS, type BatchColumn, type RawRow } from '@obol/contract';
import { FileRefused } from './file-limits.ts';

// the columns of a payout file, in the template's order, and its rows: the contract's (the review page edits them)
export { BATCH_COLUMNS, type BatchColumn, type RawRow };

/** One data row of a payout file: its 1-based line (CSV) or row (spreadsheet) number and its values. */
export type Row = { row: number; values: RawRow };

/** The columns a header row names, in its order; refuses a missing, unknown or repeated column. */
export function checkHeader(header: string[]): BatchColumn[] {
  const names = header.map((h) =>
    h
      .trim()
      .toLowerCase()
      .replace(/^\uFEFF/, ''),
  );
  if (names.every((n) => n === '')) throw new FileRefused('The file has no header row');
  const missing = BATCH_COLUMNS.filter((c) => !names.includes(c));
  const unknown = names.filter((n) => !(BATCH_COLUMNS as readonly string[]).includes(n));
  if (missing.length || unknown.length) {
    const parts = [];
    if (missing.length) parts.push(`missing ${missing.join(', ')}`);
    if (unknown.length) parts.push(`unknown ${unknown.filter(Boolean).join(', ') || 'empty column name'}`);
    throw new FileRefused(`The columns must be ${BATCH_COLUMNS.join(', ')} (${parts.join('; ')})`);
  }
  if (new Set(names).size !== names.length) throw new FileRefused('A column appears twice in the header');
  return names as BatchColumn[];
}
