import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser } from 'csv-parse';
import { BATCH_COLUMNS, checkHeader, type BatchColumn, type RawRow, type Row } from './columns.ts';
import { badCharacter, FileRefused, num, type FileLimits, type ReadClock } from './file-limits.ts';

// The CSV reader of payout files (parse.ts readRows): its bytes checked before the CSV parser sees them, every
// record checked as it comes.

const tooLongCell = (where: string, limits: FileLimits) =>
  new FileRefused(`${where} has a cell longer than ${num(limits.fieldChars)} characters`);

function checkCells(cells: string[], where: string, limits: FileLimits) {
  // the usual case at once: every cell short enough and no character refused
  // (a comma joins them: it pairs no surrogate)
  let long = false;
  for (const c of cells) if (c.length > limits.fieldChars) long = true;
  if (!long && !badCharacter(cells.join(','))) return;
  // otherwise cell by cell, so the first cell at fault is the one named
  for (const c of cells) {
    if (c.length > limits.fieldChars) throw tooLongCell(where, limits);
    const bad = badCharacter(c);
    if (bad) throw new FileRefused(`${where} has a control character (${bad}) in a cell`);
  }
}

/**
 * The CSV parser, each record tagged with the line it ends on (as its `info` option would, without building an
 * object of every detail).
 */
class LineParser extends Parser {
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    return super.push(chunk === null ? null : { record: chunk as string[], line: this.info.lines }, encoding);
  }
}

/** The data rows of a CSV file, in arrays of up to `batch` rows (fewer at the end). */
export async function* csvRows(
  filePath: string,
  limits: FileLimits,
  clock: ReadClock,
  batch = 1,
): AsyncGenerator<Row[]> {
  // empty lines are counted by csvChunks (the parser skips them), other blank ones (",,,,,") below
  const blanks = { count: 0 };
  const parser = new LineParser({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: false,
    // bytes of one record while it is read: six cells of the longest UTF-8 characters, and some room
    max_record_size: limits.fieldChars * 4 * BATCH_COLUMNS.length + 64,
  });
  const done = pipeline(Readable.from(csvChunks(filePath, limits, clock, blanks)), parser);
  done.catch(() => undefined); // its failure reaches us through the parser
  let columns: BatchColumn[] | null = null;
  let rows: Row[] = [];
  try {
    for await (const rec of parser as AsyncIterable<{ record: string[]; line: number }>) {
      const where = `Line ${rec.line} of the file`;
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
      for (let i = 0; i < columns.length; i++) values[columns[i]] = rec.record[i].trim();
      rows.push({ row: rec.line, values });
      if (rows.length >= batch) {
        const full = rows;
        rows = [];
        yield full;
      }
      if (clock.due()) await clock.tick();
    }
    if (rows.length) yield rows;
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
