import { Transform, type TransformCallback } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import { pgDialect, rowsOf, type Database } from '../../platform/db.ts';
import { quoteText } from '../../platform/statements.ts';
import { cellColumns, csvLineSql, headingCells, xlsxRowSql, type SqlCell } from './cells.ts';
import type { ExportRows } from './exports.ts';
import type { FileWriter } from './writer.ts';
import { yieldToRequests } from '../../platform/turns.ts';

/**
 * Every export's rows are written by the database (cells.ts). A list's export (a spec with `rows`) is written so:
 * the query makes each row's whole CSV line or XLSX row (cells.ts), and JavaScript only moves bytes to the file,
 * waiting whenever the file (or the zip) asks.
 *
 * - PostgreSQL: one `COPY (query) TO STDOUT (FORMAT binary)` on a connection of its own. One statement is one
 *   snapshot, so the file is consistent without a transaction; nothing else waits for it.
 * - PGlite (one connection that every request shares, running on the server's event loop): first the keys of the
 *   rows, in the file's order, in one short statement (the snapshot: it decides which rows the file holds and in
 *   which order); then the rows by key, a chunk at a time, each chunk one short statement (sized by the last one's
 *   pace to take about PGLITE_CHUNK_MS), yielding to the event loop between chunks so that other requests run in
 *   between. A row changed between the snapshot and its chunk is written as it is when its chunk is read (its newer
 *   values, even if they no longer match the filters); a row deleted in between is left out. No row appears twice
 *   and none created after the snapshot appears.
 */

/** rows of the first chunk on PGlite: one chunk's statement takes a few tens of milliseconds */
export const PGLITE_CHUNK = 1_000;
/**
 * rows of the first chunk of an XLSX file on PGlite: its rows are heavier to make (every cell its XML) and to write,
 * so 1,000 of them held the event loop up to 120 ms (100,000 payouts)
 */
export const PGLITE_XLSX_CHUNK = 500;
/**
 * On PGlite, the time a chunk's statement should hold the event loop. Machines differ (a chunk of 1,000 CSV lines took
 * 40-110 ms from one to another), so each chunk after the first is sized by the pace of the one before it. One
 * statement of a steady size still takes up to 2-3 times another (100,000 payouts, traced), so the pace aims well
 * under the 100 ms a request should wait at most.
 */
export const PGLITE_CHUNK_MS = 30;

/**
 * The rows of the next chunk, from the last one's: as many as its pace fits in PGLITE_CHUNK_MS, at most twice or half
 * as many as it had (one slow statement, a collection, does not make the next one tiny), and never fewer than `floor`
 * (a statement has a cost of its own whatever its rows: an XLSX export in chunks of ~100 rows took three times as
 * long) nor more than 10,000.
 */
export function nextChunkRows(rows: number, ms: number, floor: number): number {
  const paced = Math.round((rows * PGLITE_CHUNK_MS) / Math.max(ms, 1));
  return Math.min(10_000, Math.max(floor, Math.min(rows * 2, Math.max(Math.ceil(rows / 2), paced))));
}

/** A SQL literal of a parameter's value, for COPY, which takes no parameters. */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`cannot inline ${v}`);
    return v < 0 ? `(${v})` : String(v);
  }
  if (typeof v === 'bigint') return v < 0n ? `(${v})` : String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) throw new Error('cannot inline an array parameter');
  const s = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return quoteText(s);
}

/** The text of a query with its parameters written in: $n outside quotes and literals is replaced. */
export function inlineQuery(q: SQL): string {
  const { sql: text, params } = pgDialect.sqlToQuery(q);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // a literal or a quoted name, up to its closing quote (a doubled quote stays inside)
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === c) {
          if (text[j + 1] === c) j++;
          else break;
        }
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '$' && /\d/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < text.length && /\d/.test(text[j])) j++;
      out += literal(params[Number(text.slice(i + 1, j)) - 1]);
      i = j;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * The fields of COPY's binary format, back to back: every row here has one text field (its line or XLSX row), so
 * the file is those bytes in order. Counts the rows.
 *
 * The fields come out in pieces of at least `minChunk` bytes (the last may be smaller). COPY's rows arrive in pieces
 * as small as the socket's reads, a few KiB; passed on as such, a 1M-row XLSX export (~900 MB of XML) cost every
 * stream after this one (the zip, its deflate and checksum, the file) a write per piece and the garbage collector a
 * buffer per piece: a quarter of the process's time went to collecting them (issue 21).
 */
export class CopyBinaryFields extends Transform {
  rows = 0;
  private rest: Buffer | null = null;
  private headerDone = false;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private readonly minChunk: number;

  constructor(minChunk = 256 * 1024) {
    super();
    this.minChunk = minChunk;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let pos = 0;
    if (!this.headerDone) {
      // PGCOPY\n\377\r\n\0, flags (int32), the header extension's length (int32) and the extension
      if (buf.length < 19 || buf.length < 19 + buf.readInt32BE(15)) {
        this.rest = buf;
        return cb();
      }
      pos = 19 + buf.readInt32BE(15);
      this.headerDone = true;
    }
    while (buf.length - pos >= 2) {
      const fields = buf.readInt16BE(pos);
      if (fields === -1) {
        pos = buf.length;
        break;
      }
      let p = pos + 2;
      let whole = true;
      const got: Buffer[] = [];
      for (let f = 0; f < fields; f++) {
        if (buf.length - p < 4) {
          whole = false;
          break;
        }
        const len = buf.readInt32BE(p);
        p += 4;
        if (len < 0) continue;
        if (buf.length - p < len) {
          whole = false;
          break;
        }
        got.push(buf.subarray(p, p + len));
        p += len;
      }
      if (!whole) break;
      for (const part of got) {
        this.held.push(part);
        this.heldBytes += part.length;
      }
      pos = p;
      this.rows++;
    }
    this.rest = pos < buf.length ? buf.subarray(pos) : null;
    if (this.heldBytes >= this.minChunk) this.release();
    cb();
  }

  /** passes on what is held, as one buffer */
  private release() {
    if (!this.held.length) return;
    this.push(Buffer.concat(this.held, this.heldBytes));
    this.held = [];
    this.heldBytes = 0;
  }

  override _flush(cb: TransformCallback) {
    if (this.rest?.length) return cb(new Error('COPY ended inside a row'));
    this.release();
    cb();
  }
}

/**
 * The whole export as one query, in the file's order. An XLSX row reads each cell's value more than once (cells.ts):
 * the values are computed once, in a subquery that numbers the rows too; its order is kept.
 */
export function exportQuery(rows: ExportRows, format: 'csv' | 'xlsx'): SQL {
  const source = sql`FROM ${rows.from} ${rows.joins ?? sql``} WHERE ${rows.where} ORDER BY ${rows.orderBy}`;
  if (format === 'csv') return sql`SELECT ${csvLineSql(rows.cells)} AS line ${source}`;
  const { columns, cells } = cellColumns(rows.cells, 's');
  return sql`SELECT ${xlsxRowSql(cells, sql`s._n`)} AS line
    FROM (SELECT ${columns}, (row_number() OVER (ORDER BY ${rows.orderBy}) + 1)::text AS _n ${source}) s`;
}

/** The header row: the file's first line (CSV) or row 1 (XLSX). */
export function headerQuery(header: string[], format: 'csv' | 'xlsx'): SQL {
  const cells = headingCells(header);
  return sql`SELECT ${format === 'csv' ? csvLineSql(cells) : xlsxRowSql(cells, sql`'1'`)} AS line`;
}

/**
 * A report's chunk (its own keyset query) with each row's line, `_line`, beside its columns (for the cursor):
 * `cells` read the chunk's columns as r.<name>; an XLSX row is numbered after the `before` rows written already.
 */
export function linedChunkQuery(chunk: SQL, cells: SqlCell[], format: 'csv' | 'xlsx', before: number): SQL {
  const line = format === 'csv' ? csvLineSql(cells) : xlsxRowSql(cells, sql`(r._rn + ${before + 1})::text`);
  return sql`SELECT ${line} AS _line, r.*
    FROM (SELECT c.*, row_number() OVER () AS _rn FROM (${chunk}) c) r ORDER BY r._rn`;
}

/** The keys of the rows in the file's order, as one text: '12,7,3'. */
export const snapshotQuery = (rows: ExportRows): SQL =>
  sql`SELECT coalesce(string_agg((${rows.key})::text, ',' ORDER BY ${rows.orderBy}), '') AS keys
    FROM ${rows.from} WHERE ${rows.where}`;

/** The lines of the rows of some keys ('12,7,3'), in the order of the keys, `before` rows written before them. */
export function chunkQuery(rows: ExportRows, format: 'csv' | 'xlsx', keys: string, before: number): SQL {
  const ids = sql`unnest(string_to_array(${keys}, ',')::int8[]) WITH ORDINALITY AS ids(k, n)`;
  const source = sql`FROM ${rows.from} ${rows.joins ?? sql``} WHERE ${rows.key} = ids.k`;
  if (format === 'csv')
    return sql`SELECT x.line FROM ${ids} CROSS JOIN LATERAL (SELECT ${csvLineSql(rows.cells)} AS line ${source}) x
      ORDER BY ids.n`;
  // OFFSET 0: the subquery stays one (its values computed once), rather than merged into the outer query
  const { columns, cells } = cellColumns(rows.cells, 'x');
  return sql`SELECT ${xlsxRowSql(cells, sql`x._n`)} AS line FROM ${ids}
    CROSS JOIN LATERAL (SELECT ${columns}, (ids.n + ${before + 1})::text AS _n ${source} OFFSET 0) x
    ORDER BY ids.n`;
}

/**
 * Writes the rows through the writer (whose header is written), answering how many there were. On PGlite in chunks
 * sized by their pace (nextChunkRows), or of `chunk` rows each when given.
 */
export async function writeSqlRows(
  database: Database,
  rows: ExportRows,
  format: 'csv' | 'xlsx',
  writer: FileWriter,
  chunk?: number,
): Promise<number> {
  if (database.kind === 'postgres') {
    const client = await database.pool!.connect();
    let broken: unknown = undefined;
    try {
      const text = inlineQuery(exportQuery(rows, format));
      // no JIT: the statement is one large expression per row, which PostgreSQL's JIT took 0.4-1.7 s to compile
      // (EXPLAIN ANALYZE, 1M payouts) for a run it made no faster; reset before the connection goes back
      await client.query('SET jit = off');
      const copy = client.query(copyTo(`COPY (${text}) TO STDOUT (FORMAT binary)`));
      const fields = new CopyBinaryFields();
      copy.on('error', (err) => fields.destroy(err));
      copy.pipe(fields);
      for await (const bytes of fields) await writer.raw(bytes as Buffer);
      await client.query('RESET jit');
      return fields.rows;
    } catch (err) {
      broken = err;
      throw err;
    } finally {
      // a COPY left half read leaves its connection unusable: it is closed rather than given back
      client.release(broken ? (broken as Error) : undefined);
    }
  }
  const db = database.db;
  const [{ keys }] = rowsOf<{ keys: string }>(await db.execute(snapshotQuery(rows)));
  // the requests that queued behind the snapshot run before the first chunk
  await yieldToRequests();
  let count = 0;
  const first = format === 'xlsx' ? PGLITE_XLSX_CHUNK : PGLITE_CHUNK;
  let size = chunk ?? first;
  for (let start = 0; start < keys.length;) {
    // the next `size` keys: up to the comma after them
    let end = start;
    for (let i = 0; i < size && end !== -1; i++) {
      end = keys.indexOf(',', end + 1);
    }
    const part = end === -1 ? keys.slice(start) : keys.slice(start, end);
    start = end === -1 ? keys.length : end + 1;
    const began = performance.now();
    const lines = rowsOf<{ line: string }>(await db.execute(chunkQuery(rows, format, part, count)));
    if (chunk === undefined) size = nextChunkRows(size, performance.now() - began, first / 2);
    // the requests that queued behind the statement run before its rows are written, and again after
    await yieldToRequests();
    if (lines.length) await writer.raw(lines.map((l) => l.line).join(''));
    count += lines.length;
    // let the requests that queued behind this chunk run before the next one
    await yieldToRequests();
  }
  return count;
}
