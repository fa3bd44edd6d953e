import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { parse } from 'csv-parse/sync';
import { sql, type SQL } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { pgDialect } from '../../platform/db.ts';
import { centsCell, csvLineSql, intCell, textCell, xlsxRowSql, type SqlCell } from './cells.ts';
import { headerQuery } from './rows.ts';
import { csvFile, xlsxFile } from './writer.ts';
import { TRICKY, xmlRead } from '../../test/tricky.ts';

/**
 * The one cell writer (cells.ts: every export's lines made by the database) and the files around its lines
 * (writer.ts): what a spreadsheet reads back, texts that need neutralising, quoting or escaping included.
 */

/** a formula gets an apostrophe before it (OWASP "CSV injection") */
const neutralised = (t: string) => (/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(t) ? `'${t}` : t);

const pg = new PGlite();
afterAll(() => pg.close());

/** the lines the database makes of rows of cells, a row's values given as SQL */
async function lines(rows: SqlCell[][], format: 'csv' | 'xlsx'): Promise<string> {
  let out = '';
  for (const [i, cells] of rows.entries()) {
    const q: SQL = format === 'csv' ? csvLineSql(cells) : xlsxRowSql(cells, sql`${String(i + 2)}::text`);
    const { sql: text, params } = pgDialect.sqlToQuery(sql`SELECT ${q} AS line`);
    out += (await pg.query<{ line: string }>(text, params)).rows[0].line;
  }
  return out;
}

async function header(names: string[], format: 'csv' | 'xlsx') {
  const { sql: text, params } = pgDialect.sqlToQuery(headerQuery(names, format));
  return (await pg.query<{ line: string }>(text, params)).rows[0].line;
}

/** a whole file of these rows under this header */
async function file(format: 'csv' | 'xlsx', names: string[], rows: SqlCell[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const w = format === 'csv' ? await csvFile(out) : await xlsxFile(out);
  await w.raw(await header(names, format));
  await w.raw(await lines(rows, format));
  await w.end();
  out.end();
  return Buffer.concat(chunks);
}

async function sheet(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as never);
  return wb.worksheets[0];
}

const text = (t: string | null) => textCell(sql`${t}::text`);

describe('the cell writer', () => {
  it('writes RFC 4180 CSV with a byte order mark, quoting and neutralising where needed', async () => {
    const bytes = await file(
      'csv',
      ['Name', 'Amount', 'N'],
      [
        [text('Ana "A" Novak'), centsCell(sql`123456`), intCell(sql`42`)],
        [text('=cmd'), centsCell(sql`-5`), intCell(sql`NULL::int`)],
        [text(' padded'), centsCell(sql`NULL::int`), intCell(sql`-7`)],
      ],
    );
    expect(bytes.toString('utf8')).toBe(
      '\uFEFFName,Amount,N\r\n"Ana ""A"" Novak",1234.56,42\r\n"\'=cmd",-0.05,\r\n" padded",,-7\r\n',
    );
  });

  it('writes a workbook a spreadsheet reads back: text, amounts, numbers, blanks, a bold header, many columns', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Col ${i + 1}`);
    const ws = await sheet(
      await file('xlsx', names, [
        [
          text('Ana & <Bob>'),
          centsCell(sql`250075`),
          intCell(sql`42`),
          text(null),
          text('@evil'),
          text('  spaced  '),
          text('bell\u0007gone'),
        ],
        names.map((_, i) => text(`v${i + 1}`)),
      ]),
    );
    expect(ws.name).toBe('Export');
    expect(ws.getRow(1).getCell(1).value).toBe('Col 1');
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(ws.getRow(1).getCell(30).value).toBe('Col 30');
    const r2 = ws.getRow(2);
    expect(r2.getCell(1).value).toBe('Ana & <Bob>');
    expect(r2.getCell(2).value).toBe(2500.75);
    expect(r2.getCell(2).numFmt).toBe('0.00');
    expect(r2.getCell(3).value).toBe(42);
    expect(r2.getCell(4).value).toBeNull();
    expect(r2.getCell(5).value).toBe("'@evil");
    expect(r2.getCell(6).value).toBe('  spaced  ');
    expect(r2.getCell(7).value).toBe('bellgone');
    // columns past Z (AA, AB, ...) land where they belong
    expect(ws.getRow(3).getCell(27).value).toBe('v27');
    expect(ws.getRow(3).getCell(30).value).toBe('v30');
    expect(ws.rowCount).toBe(3);
  });

  it('gives back every tricky text, neutralised, in CSV and in XLSX, alone or beside others', async () => {
    const rows = TRICKY.map((t, i) => [text(t), text(TRICKY[(i * 7) % TRICKY.length]), text('plain')]);
    const expected = TRICKY.map((t, i) => [t, TRICKY[(i * 7) % TRICKY.length], 'plain'].map(neutralised));
    const csv = parse((await file('csv', ['A', 'B', 'C'], rows)).toString('utf8'), { bom: true, relax_quotes: false });
    expect(csv.slice(1)).toEqual(expected);
    const ws = await sheet(await file('xlsx', ['A', 'B', 'C'], rows));
    const got = expected.map((_, i) => [1, 2, 3].map((c) => ws.getRow(i + 2).getCell(c).value ?? ''));
    expect(got).toEqual(expected.map((r) => r.map(xmlRead)));
  });

  it('waits for a slow destination instead of piling rows up in memory', async () => {
    // a destination that takes nothing until released; rows that do not compress, so what is held is seen
    const held: (() => void)[] = [];
    let received = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        received += chunk.length;
        held.push(cb);
      },
    });
    const w = await xlsxFile(slow);
    const rows = Array.from(
      { length: 2_000 },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${randomBytes(100).toString('hex')}</v></c></row>`,
    ).join('');
    let written = 0;
    const producing = (async () => {
      for (let i = 0; i < 200; i++) {
        await w.raw(rows);
        written++;
      }
    })();
    await new Promise((r) => setTimeout(r, 1000));
    // the producer is held back: what is in flight is bounded by the streams' buffers (a few MB of XML here,
    // whatever the wait), not all 200 chunks (100 MB)
    expect(written).toBeLessThan(40);
    expect(received).toBeLessThan(8 << 20);
    // released, everything goes through
    const pump = setInterval(() => held.splice(0).forEach((cb) => cb()), 1);
    slow.on('drain', () => held.splice(0).forEach((cb) => cb()));
    await producing;
    await w.end();
    clearInterval(pump);
    expect(written).toBe(200);
  });
});
