import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BATCH_COLUMNS, type BatchColumn, type RawRow } from '@obol/contract';
import { parse } from 'csv-parse';
import {
  badCharacter,
  FileRefused,
  limitsOf,
  num,
  ReadClock,
  type FileLimits,
  type ReadOptions,
} from './file-limits.ts';
import { readSheetRows, type SheetRow } from './xlsx.ts';

export { FILE_LIMITS, FileRefused, type FileLimits, type ReadOptions } from './file-limits.ts';

// the columns of a payout file, in the template's order, and its rows: the contract's (the review page edits them)
export { BATCH_COLUMNS, type BatchColumn, type RawRow } from '@obol/contract';

/** The most rows one file may hold. */
export const MAX_BATCH_ROWS = 100_000;

export const CSV_TEMPLATE =
  BATCH_COLUMNS.join(',') +
  '\n' +
  'Jane Doe,100000001,INV-0001,Acme Brand,Invoice 0001,1500\n' +
  'John Roe,100000002,INV-0002,Acme Brand,Invoice 0002,2599\n';

export type FileFormat = 'csv' | 'xlsx';

/** Tells the format from the name and the first bytes; refuses anything else. */
export async function detectFormat(filePath: string, fileName: string): Promise<FileFormat> {
  const fh = await open(filePath, 'r');
  const buf = Buffer.alloc(8);
  const { bytesRead } = await fh.read(buf, 0, 8, 0);
  await fh.close();
  if (bytesRead === 0) throw new FileRefused('The file is empty');
  const zip = buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.xlsx')) {
    if (!zip) throw new FileRefused('The spreadsheet cannot be read: it is not an .xlsx file');
    return 'xlsx';
  }
  if (lower.endsWith('.csv')) {
    if (zip || buf.subarray(0, bytesRead).includes(0)) throw new FileRefused('Please upload a CSV file');
    return 'csv';
  }
  throw new FileRefused('Please upload a CSV file');
}

function checkHeader(header: string[]): BatchColumn[] {
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

type Row = { row: number; values: RawRow };

/**
 * Streams the data rows of a payout file (never holding it whole), each with its 1-based line/row number.
 * Throws FileRefused for an empty file, no or wrong header, broken quoting, a spreadsheet with several
 * sheets, more than MAX_BATCH_ROWS rows, any cap of FILE_LIMITS passed, a file that took longer than its
 * deadline to read, and any other failure to read it: nothing else escapes.
 */
export async function* readRows(filePath: string, format: FileFormat, opts: ReadOptions = {}): AsyncGenerator<Row> {
  const limits = limitsOf(opts);
  const clock = new ReadClock(limits.deadlineMs);
  let count = 0;
  try {
    for await (const r of format === 'csv' ? csvRows(filePath, limits, clock) : sheetRows(filePath, limits, clock)) {
      count += 1;
      if (count > MAX_BATCH_ROWS) throw new FileRefused(`The file has more than ${num(MAX_BATCH_ROWS)} rows`);
      // the time the caller spends on a row (staging writes it) is not reading time
      clock.pause();
      try {
        yield r;
      } finally {
        clock.resume();
      }
    }
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    throw new FileRefused('The file cannot be read', { cause: err });
  }
}

// ---------- CSV ----------

const tooLongCell = (where: string, limits: FileLimits) =>
  new FileRefused(`${where} has a cell longer than ${num(limits.fieldChars)} characters`);

function checkCells(cells: Iterable<string>, where: string, limits: FileLimits) {
  for (const c of cells) {
    if (c.length > limits.fieldChars) throw tooLongCell(where, limits);
    const bad = badCharacter(c);
    if (bad) throw new FileRefused(`${where} has a control character (${bad}) in a cell`);
  }
}

async function* csvRows(filePath: string, limits: FileLimits, clock: ReadClock): AsyncGenerator<Row> {
  // empty lines are counted by csvChunks (the parser skips them), other blank ones (",,,,,") below
  const blanks = { count: 0 };
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    info: true,
    // bytes of one record while it is read: six cells of the longest UTF-8 characters, and some room
    max_record_size: limits.fieldChars * 4 * BATCH_COLUMNS.length + 64,
  });
  const done = pipeline(Readable.from(csvChunks(filePath, limits, clock, blanks)), parser);
  done.catch(() => undefined); // its failure reaches us through the parser
  let columns: BatchColumn[] | null = null;
  try {
    for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const where = `Line ${rec.info.lines} of the file`;
      checkCells(rec.record, where, limits);
      if (!columns) {
        columns = checkHeader(rec.record);
        continue;
      }
      if (rec.record.every((c) => c.trim() === '')) {
        countBlank(blanks, limits);
        continue;
      }
      const values = {} as RawRow;
      columns.forEach((c, i) => (values[c] = rec.record[i].trim()));
      yield { row: rec.info.lines, values };
      await clock.tick();
    }
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    const e = err as { code?: string; lines?: number; name?: string };
    const line = `Line ${e.lines ?? '?'} of the file`;
    if (e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' || e.code === 'CSV_RECORD_INCONSISTENT_COLUMNS')
      throw new FileRefused(`${line} has a different number of columns than the header`);
    if (e.code === 'CSV_MAX_RECORD_SIZE')
      throw new FileRefused(`${line} is too long: a cell may hold at most ${num(limits.fieldChars)} characters`);
    if (e.name === 'CsvError' || e.code?.startsWith('CSV_') || e.code?.startsWith('INVALID_'))
      throw new FileRefused(`${line} has broken quoting`);
    throw err;
  } finally {
    parser.destroy();
  }
  if (!columns) throw new FileRefused('The file is empty');
}

function countBlank(blanks: { count: number }, limits: FileLimits) {
  blanks.count += 1;
  if (blanks.count > limits.blankRows)
    throw new FileRefused(`The file has more than ${num(limits.blankRows)} blank lines`);
}

/**
 * The file's bytes, checked before the CSV parser sees them: UTF-8 throughout, empty lines counted, and no
 * physical line with more separators than a row of at most cellsPerRow cells may have (the parser would build
 * that row whole, however many fields, and an empty field does not count against its max_record_size).
 */
async function* csvChunks(
  filePath: string,
  limits: FileLimits,
  clock: ReadClock,
  blanks: { count: number },
): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const file = createReadStream(filePath, { highWaterMark: 16 * 1024 });
  // a separator inside quotes is counted too: allow for six cells full of them
  const maxSeparators = limits.cellsPerRow + limits.fieldChars * BATCH_COLUMNS.length;
  let line = 1;
  let separators = 0;
  let empty = true; // nothing but CR on this line so far
  let carry: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      const startLine = line;
      for (let i = 0; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === 0x0a) {
          if (empty) countBlank(blanks, limits);
          line += 1;
          separators = 0;
          empty = true;
        } else if (b === 0x0d) separators = 0;
        else {
          empty = false;
          if (b === 0x2c && ++separators > maxSeparators)
            throw new FileRefused(`Line ${line} of the file has too many cells`);
        }
      }
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        const bad = Math.max(0, firstInvalidUtf8(Buffer.concat([carry, chunk])) - carry.length);
        throw notUtf8(startLine + countLf(chunk.subarray(0, bad)));
      }
      carry = incompleteUtf8Tail(chunk);
      yield chunk;
      await clock.tick();
    }
    try {
      decoder.decode();
    } catch {
      throw notUtf8(line);
    }
  } finally {
    file.destroy();
  }
}

const notUtf8 = (line: number) =>
  new FileRefused(`Line ${line} of the file is not UTF-8 text: save the file as "CSV UTF-8" and upload it again`);

function countLf(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n += 1;
  return n;
}

/** The bytes at the end of a chunk that begin a character the next chunk completes. */
function incompleteUtf8Tail(buf: Buffer): Buffer {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const b = buf[buf.length - back];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? buf.subarray(buf.length - back) : Buffer.alloc(0);
  }
  return Buffer.alloc(0);
}

/** Where the first byte that is not UTF-8 is (only called once a chunk failed to decode). */
function firstInvalidUtf8(buf: Buffer): number {
  const valid = (n: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = buf.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (valid(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

// ---------- XLSX ----------

const columnName = (col: number): string => {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

/**
 * A spreadsheet's header is its first row with a value; its named cells give the columns by position, so the
 * table may start in any column. A value in a column without a name, or right of the last name, is refused.
 */
async function* sheetRows(filePath: string, limits: FileLimits, clock: ReadClock): AsyncGenerator<Row> {
  let columns: Map<number, BatchColumn> | null = null;
  let lastColumn = 0;
  let blanks = 0;
  for await (const r of readSheetRows(filePath, limits, clock)) {
    if ([...r.cells.values()].every((c) => c.trim() === '')) {
      blanks += 1;
      if (blanks > limits.blankRows)
        throw new FileRefused(`The file has more than ${num(limits.blankRows)} blank rows`);
      continue;
    }
    if (!columns) {
      columns = sheetHeader(r);
      lastColumn = Math.max(...columns.keys());
      continue;
    }
    const values = Object.fromEntries(BATCH_COLUMNS.map((c) => [c, ''])) as RawRow;
    for (const [col, text] of r.cells) {
      const name = columns.get(col);
      if (name) values[name] = text.trim();
      else if (text.trim() === '') continue;
      else if (col > lastColumn)
        throw new FileRefused(`Row ${r.row} of the spreadsheet has more cells than the header`);
      else
        throw new FileRefused(
          `Row ${r.row} of the spreadsheet has a value in column ${columnName(col)}, which has no name in the header`,
        );
    }
    yield { row: r.row, values };
    await clock.tick();
  }
  if (!columns) throw new FileRefused('The file is empty');
}

function sheetHeader(r: SheetRow): Map<number, BatchColumn> {
  const named = [...r.cells].filter(([, text]) => text.trim() !== '').sort(([a], [b]) => a - b);
  const names = checkHeader(named.map(([, text]) => text));
  return new Map(named.map(([col], i) => [col, names[i]]));
}

/** Counts the rows, checking the whole file's structure, without keeping it. */
export async function inspectFile(filePath: string, format: FileFormat, opts?: ReadOptions): Promise<number> {
  let n = 0;
  for await (const _ of readRows(filePath, format, opts)) n += 1;
  if (n === 0) throw new FileRefused('The file has no payout rows');
  return n;
}
