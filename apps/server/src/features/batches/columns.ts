import {
  BATCH_COLUMNS,
  validateRow,
  type BatchColumn,
  type RawRow,
  type RowContext,
  type StagedStatus,
} from '@obol/contract/batch-rows'; // not the whole contract: staging's reader thread loads only this
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

// ---------- a chunk of rows, as staging writes it (stage.ts) ----------

/**
 * The merchant transaction ids of the file's earlier chunks, as a Bloom filter of fixed size (1 MB whatever the
 * file): an id it has never seen was not staged before, so only the ids it may have seen (every id staged
 * before, and about 1 in 20,000 others at 100,000 rows) are looked up among the batch's staged rows.
 */
export class SeenIds {
  private readonly bits = new Int32Array(1 << 18); // 2^23 bits

  private hashes(id: string): [number, number] {
    let h1 = 0x811c9dc5;
    let h2 = 0x9747b28c;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    return [h1 >>> 0, (h2 | 1) >>> 0];
  }

  add(id: string) {
    const [h1, h2] = this.hashes(id);
    for (let k = 0; k < 3; k++) {
      const bit = (h1 + k * h2) & 0x7fffff;
      this.bits[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  mayHave(id: string) {
    const [h1, h2] = this.hashes(id);
    for (let k = 0; k < 3; k++) {
      const bit = (h1 + k * h2) & 0x7fffff;
      if (!(this.bits[bit >>> 5] & (1 << (bit & 31)))) return false;
    }
    return true;
  }
}

/** A chunk's rows checked, as the columns of the statement that stages them. */
export interface Chunk {
  rowNumber: number[];
  cols: Record<BatchColumn, string[]>;
  cents: (number | null)[];
  /** each row's errors as JSON, field -> message */
  errors: string[];
  status: StagedStatus[];
  missing: number[];
  /** to look up: the first row in this chunk with an id of its own (given, no error of its own) */
  lookUp: boolean[];
  /** to look up among the batch's rows staged from earlier chunks too */
  maybeEarlier: boolean[];
}

/**
 * Each row's own fields checked by the contract's validateRow, and what the database needs to look up:
 * validateRow marks a duplicate only on an id that is given and has no error of its own. The first row with such
 * an id in the chunk is looked up (the statement marks it from the answer: stage.ts); a later one in the same
 * chunk is a duplicate in the file, which validateRow marks here.
 */
export function checkChunk(rows: Row[], brands: Set<string>, seen: SeenIds): Chunk {
  const n = rows.length;
  const c: Chunk = {
    rowNumber: new Array<number>(n),
    cols: Object.fromEntries(BATCH_COLUMNS.map((k) => [k, new Array<string>(n)])) as Record<BatchColumn, string[]>,
    cents: new Array<number | null>(n),
    errors: new Array<string>(n),
    status: new Array<StagedStatus>(n),
    missing: new Array<number>(n),
    lookUp: new Array<boolean>(n),
    maybeEarlier: new Array<boolean>(n),
  };
  // the ids checked so far in this chunk: a row with one of them is a duplicate in the file (the id's own checks
  // passed for the first, so they pass for it too)
  const inChunk = new Set<string>();
  const first: RowContext = { brands, duplicateInFile: false, duplicateOfPayout: false };
  const again: RowContext = { brands, duplicateInFile: true, duplicateOfPayout: false };
  for (let i = 0; i < n; i++) {
    const values = rows[i].values;
    const mtid = values.merchant_transaction_id;
    const repeated = inChunk.has(mtid);
    const v = validateRow(values, repeated ? again : first);
    c.rowNumber[i] = rows[i].row;
    for (const k of BATCH_COLUMNS) c.cols[k][i] = values[k];
    c.cents[i] = v.amount;
    c.errors[i] = v.status === 'Pending' ? '{}' : JSON.stringify(v.errors);
    c.status[i] = v.status;
    c.missing[i] = v.missing ? 1 : 0;
    c.lookUp[i] = !repeated && !!mtid && !v.errors.merchant_transaction_id;
    c.maybeEarlier[i] = c.lookUp[i] && seen.mayHave(mtid);
    if (c.lookUp[i]) inChunk.add(mtid);
  }
  for (const mtid of inChunk) seen.add(mtid);
  return c;
}
