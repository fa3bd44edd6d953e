import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  blankLinesCsv,
  CSV_HEADER,
  emptyRowsXlsx,
  HEADER,
  hugeCellCsv,
  lieAboutSizes,
  rowsXml,
  sharedStringBomb,
  sharedStringsXml,
  worksheetXml,
  xlsxOf,
  xlsxParts,
  zipOf,
} from '../../test/spreadsheets.ts';
import { FileRefused, inspectFile, MAX_BATCH_ROWS, readRows, type FileFormat, type ReadOptions } from './parse.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'obol-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Buffer, ext: FileFormat) => {
  const p = path.join(dir, `f${(n += 1)}.${ext}`);
  writeFileSync(p, content);
  return p;
};

async function readAll(p: string, format: FileFormat, opts?: ReadOptions) {
  const rows = [];
  for await (const r of readRows(p, format, opts)) rows.push(r);
  return rows;
}

/** Runs fn, watching the process's resident memory and how late the event loop answers a 5 ms timer. */
async function watched<T>(fn: () => Promise<T>) {
  const base = process.memoryUsage().rss;
  let peak = base;
  let last = performance.now();
  let lag = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = performance.now();
  try {
    const result = await fn();
    return { result, ms: performance.now() - start, growthMb: (peak - base) / 1024 / 1024, lagMs: lag };
  } finally {
    clearInterval(timer);
  }
}

/** The message of the FileRefused that reading the whole file ends with (anything else fails the test). */
async function refusal(p: string, format: FileFormat, opts?: ReadOptions): Promise<string> {
  try {
    await readAll(p, format, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(FileRefused);
    return (err as Error).message;
  }
  throw new Error('the file was read');
}

/** The reader this one replaces (ExcelJS's WorkbookReader, as parse.ts used it), to compare with. */
async function readWithExcelJs(p: string) {
  const text = (v: ExcelJS.CellValue): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (v instanceof Date) return v.toISOString().slice(0, 10);
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return text(v.result as ExcelJS.CellValue);
    if ('formula' in v) return `=${String(v.formula)}`;
    return String(v);
  };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(p, {
    sharedStrings: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const rows = [];
  let columns: string[] | null = null;
  for await (const sheet of reader)
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      const raw = (row.values as ExcelJS.CellValue[]).slice(1).map(text);
      if (raw.every((c) => c.trim() === '')) continue;
      if (!columns) {
        columns = raw.map((h) => h.trim().toLowerCase());
        continue;
      }
      const values: Record<string, string> = {};
      columns.forEach((c, i) => (values[c] = (raw[i] ?? '').trim()));
      rows.push({ row: row.number, values });
    }
  return rows;
}

describe('spreadsheets read as before', () => {
  it('an ExcelJS workbook: numbers, shared strings, rich text, a formula, a boolean, a missing cell', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('payouts');
    ws.addRow(HEADER);
    ws.addRow(['Ana Novak', 100000001, 'X-1', 'Acme Brand', 'Invoice 1', 700]);
    ws.addRow(['Ben Berg', '100000002', 'X-2', 'Acme Brand', '  padded  ', 1.25]);
    ws.getCell('A4').value = { richText: [{ text: 'Chloe ' }, { font: { bold: true }, text: 'Costa' }] };
    ws.getCell('B4').value = 100000003;
    ws.getCell('C4').value = 'X-3';
    ws.getCell('D4').value = 'Acme Brand';
    // E4 (reference) left out: the amount must still land in its own column
    ws.getCell('F4').value = { formula: 'F2+1', result: 701 };
    ws.addRow([]);
    ws.addRow(['Dan', 100000004, 'X-4', true, 'R & D <x>', 1e21]);
    const p = file(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx');
    const rows = await readAll(p, 'xlsx');
    expect(rows).toEqual(await readWithExcelJs(p));
    expect(rows).toEqual([
      {
        row: 2,
        values: {
          beneficiary_name: 'Ana Novak',
          obol_id: '100000001',
          merchant_transaction_id: 'X-1',
          brand: 'Acme Brand',
          reference: 'Invoice 1',
          amount: '700',
        },
      },
      {
        row: 3,
        values: {
          beneficiary_name: 'Ben Berg',
          obol_id: '100000002',
          merchant_transaction_id: 'X-2',
          brand: 'Acme Brand',
          reference: 'padded',
          amount: '1.25',
        },
      },
      {
        row: 4,
        values: {
          beneficiary_name: 'Chloe Costa',
          obol_id: '100000003',
          merchant_transaction_id: 'X-3',
          brand: 'Acme Brand',
          reference: '',
          amount: '701',
        },
      },
      {
        row: 6,
        values: {
          beneficiary_name: 'Dan',
          obol_id: '100000004',
          merchant_transaction_id: 'X-4',
          brand: 'true',
          reference: 'R & D <x>',
          amount: '1e+21',
        },
      },
    ]);
  });

  it('inline strings, a table that starts in column B, rows and cells without references', async () => {
    const sheet = worksheetXml([
      ...rowsXml([[null, ...HEADER]]),
      ...rowsXml(
        [
          [
            null,
            'Ana',
            100000001,
            'I-1',
            'Acme Brand',
            { xml: '<c r="F2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c>' },
            5,
          ],
        ],
        2,
      ),
      // no r on the row nor on its cells: row 3, columns A, B, ...
      '<row><c/><c t="inlineStr"><is><r><t>Rich </t></r><r><t xml:space="preserve">Text</t></r><rPh><t>ignored</t></rPh></is></c>' +
        '<c><v>100000002</v></c><c t="inlineStr"><is><t>I-2</t></is></c><c t="inlineStr"><is><t>Acme Brand</t></is></c>' +
        '<c t="b"><v>0</v></c><c><v>6</v></c></row>',
    ]);
    const p = file(await zipOf(xlsxParts(sheet)), 'xlsx');
    const rows = await readAll(p, 'xlsx');
    expect(rows).toEqual([
      {
        row: 2,
        values: {
          beneficiary_name: 'Ana',
          obol_id: '100000001',
          merchant_transaction_id: 'I-1',
          brand: 'Acme Brand',
          reference: 'ab',
          amount: '5',
        },
      },
      {
        row: 3,
        values: {
          beneficiary_name: 'Rich Text',
          obol_id: '100000002',
          merchant_transaction_id: 'I-2',
          brand: 'Acme Brand',
          reference: 'false',
          amount: '6',
        },
      },
    ]);
  });

  it('shared strings with rich runs, and elements with a namespace prefix', async () => {
    const strings = sharedStringsXml([...HEADER, 'Ana']).replace(
      '</sst>',
      '<si><r><t>Acme </t></r><r><rPr><b/></rPr><t>Brand</t></r><rPh sb="0" eb="1"><t>x</t></rPh></si></sst>',
    );
    const cells = HEADER.map((_, i) => `<x:c r="${'ABCDEF'[i]}1" t="s"><x:v>${i}</x:v></x:c>`).join('');
    const sheet =
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      `<x:row r="1">${cells}</x:row>` +
      '<x:row r="2"><x:c r="A2" t="s"><x:v>6</x:v></x:c><x:c r="B2"><x:v>100000001</x:v></x:c>' +
      '<x:c r="C2" t="inlineStr"><x:is><x:t>S-1</x:t></x:is></x:c><x:c r="D2" t="s"><x:v>7</x:v></x:c>' +
      '<x:c r="F2"><x:v>9</x:v></x:c></x:row></x:sheetData></x:worksheet>';
    const p = file(await zipOf(xlsxParts(sheet, { strings })), 'xlsx');
    expect(await readAll(p, 'xlsx')).toEqual([
      {
        row: 2,
        values: {
          beneficiary_name: 'Ana',
          obol_id: '100000001',
          merchant_transaction_id: 'S-1',
          brand: 'Acme Brand',
          reference: '',
          amount: '9',
        },
      },
    ]);
  });

  it('refuses a value under a column without a name, or right of the header', async () => {
    const gap = file(
      await xlsxOf([
        [...HEADER.slice(0, 3), null, ...HEADER.slice(3)],
        ['A', 1, 'M', 'oops'],
      ]),
      'xlsx',
    );
    expect(await refusal(gap, 'xlsx')).toBe(
      'Row 2 of the spreadsheet has a value in column D, which has no name in the header',
    );
    const wide = file(await xlsxOf([HEADER, ['A', 1, 'M', 'B', 'r', 1, 'extra']]), 'xlsx');
    expect(await refusal(wide, 'xlsx')).toBe('Row 2 of the spreadsheet has more cells than the header');
    const missing = file(await xlsxOf([HEADER.slice(1), ['x']]), 'xlsx');
    expect(await refusal(missing, 'xlsx')).toContain('missing beneficiary_name');
  });
});

describe('CSV reads as before', () => {
  it('a BOM, CRLF, quoted line breaks and blank lines', async () => {
    const p = file(
      `\uFEFF${CSV_HEADER}\r\n\r\nAna,100000001,C-1,"Acme\nBrand",r,5\r\n,,,,,\r\nBen,100000002,C-2,Acme Brand,r,6`,
      'csv',
    );
    expect(await readAll(p, 'csv')).toEqual([
      {
        row: 4,
        values: {
          beneficiary_name: 'Ana',
          obol_id: '100000001',
          merchant_transaction_id: 'C-1',
          brand: 'Acme\nBrand',
          reference: 'r',
          amount: '5',
        },
      },
      {
        row: 6,
        values: {
          beneficiary_name: 'Ben',
          obol_id: '100000002',
          merchant_transaction_id: 'C-2',
          brand: 'Acme Brand',
          reference: 'r',
          amount: '6',
        },
      },
    ]);
  });

  it('keeps its refusals', async () => {
    expect(await refusal(file(`${CSV_HEADER}\nA,1,2\n`, 'csv'), 'csv')).toBe(
      'Line 2 of the file has a different number of columns than the header',
    );
    expect(await refusal(file(`${CSV_HEADER}\n"A,1,2,3,4,5\n`, 'csv'), 'csv')).toBe(
      'Line 2 of the file has broken quoting',
    );
    expect(await refusal(file(',,,,,\nA,1,2,3,4,5\n', 'csv'), 'csv')).toBe('The file has no header row');
    expect(await refusal(file(`${CSV_HEADER}\n  \nA,1,2,3,4,5\n`, 'csv'), 'csv')).toBe(
      'Line 2 of the file has a different number of columns than the header',
    );
    expect(await refusal(file('\n\n', 'csv'), 'csv')).toBe('The file is empty');
    await expect(inspectFile(file(`${CSV_HEADER}\n`, 'csv'), 'csv')).rejects.toThrow('The file has no payout rows');
  });
});

describe('hostile files are refused while they are read', () => {
  it('an .xlsx whose one shared string inflates to 400 MB', async () => {
    const bomb = await sharedStringBomb(400);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    // its central directory tells the truth: refused on the size it declares
    const honest = await watched(() => refusal(file(bomb, 'xlsx'), 'xlsx'));
    expect(honest.result).toBe('The spreadsheet is too large once unpacked (more than 100 MB)');
    // it lies: the inflated bytes are counted, and the string refused long before its end
    const liar = await watched(() => refusal(file(lieAboutSizes(bomb), 'xlsx'), 'xlsx'));
    expect(liar.result).toBe('The spreadsheet has a cell longer than 1,000 characters');
    for (const w of [honest, liar]) {
      expect(w.ms).toBeLessThan(5_000);
      expect(w.growthMb).toBeLessThan(200);
    }
  }, 60_000);

  it('a part that inflates past its cap whatever it declares', async () => {
    // 40 MB of harmless XML that a declared size of 1,000 bytes does not let through
    function* body() {
      yield* rowsXml([HEADER]);
      const chunk = `<pageMargins left="0.7"/>`.repeat(1000);
      for (let i = 0; i < 1600; i++) yield chunk;
    }
    const zip = lieAboutSizes(await zipOf(xlsxParts(worksheetXml(body())), 9));
    const limits = { partBytes: 10 * 1024 * 1024 };
    const w = await watched(() => refusal(file(zip, 'xlsx'), 'xlsx', { limits }));
    expect(w.result).toBe('The spreadsheet is too large once unpacked (more than 10 MB)');
    expect(w.growthMb).toBeLessThan(200);
    const all = await refusal(file(zip, 'xlsx'), 'xlsx', { limits: { totalBytes: 5 * 1024 * 1024 } });
    expect(all).toBe('The spreadsheet is too large once unpacked (more than 5 MB in all)');
  }, 60_000);

  it('an .xlsx of a million empty rows', async () => {
    const zip = await emptyRowsXlsx(1_000_000);
    expect(zip.length).toBeLessThan(5 * 1024 * 1024);
    const w = await watched(() => refusal(file(zip, 'xlsx'), 'xlsx'));
    expect(w.result).toBe('The file has more than 10,000 blank rows');
    expect(w.ms).toBeLessThan(5_000);
    expect(w.growthMb).toBeLessThan(200);
  }, 60_000);

  it('48 MB of blank CSV lines', async () => {
    const p = file(blankLinesCsv(48), 'csv');
    const w = await watched(() => refusal(p, 'csv'));
    expect(w.result).toBe('The file has more than 10,000 blank lines');
    expect(w.ms).toBeLessThan(5_000);
    expect(w.growthMb).toBeLessThan(200);
    // blank lines before the header count too
    const before = file(Buffer.concat([Buffer.alloc(20_000, '\n'), Buffer.from(`${CSV_HEADER}\n`)]), 'csv');
    expect(await refusal(before, 'csv')).toBe('The file has more than 10,000 blank lines');
  }, 60_000);

  it('a 45 MB cell, in a CSV and in a spreadsheet', async () => {
    const csv = await watched(() => refusal(file(hugeCellCsv(45), 'csv'), 'csv'));
    expect(csv.result).toBe('Line 2 of the file is too long: a cell may hold at most 1,000 characters');
    function* sheet() {
      yield* rowsXml([HEADER]);
      yield '<row r="2"><c r="A2" t="inlineStr"><is><t>';
      const block = 'A'.repeat(1024 * 1024);
      for (let i = 0; i < 45; i++) yield block;
      yield '</t></is></c></row>';
    }
    const xlsx = await watched(async () =>
      refusal(file(await zipOf(xlsxParts(worksheetXml(sheet()))), 'xlsx'), 'xlsx'),
    );
    expect(xlsx.result).toBe('Row 2 of the spreadsheet has a cell longer than 1,000 characters');
    for (const w of [csv, xlsx]) {
      expect(w.ms).toBeLessThan(10_000);
      expect(w.growthMb).toBeLessThan(200);
    }
  }, 60_000);

  it('a cell just over 1,000 characters, with its line or row named', async () => {
    const long = 'B'.repeat(1001);
    expect(await refusal(file(`${CSV_HEADER}\nA,1,M,Acme,r,1\n${long},1,M,Acme,r,1\n`, 'csv'), 'csv')).toBe(
      'Line 3 of the file has a cell longer than 1,000 characters',
    );
    expect(await refusal(file(await xlsxOf([HEADER, ['A', 1, 'M', 'B', long, 1]]), 'xlsx'), 'xlsx')).toBe(
      'Row 2 of the spreadsheet has a cell longer than 1,000 characters',
    );
    // a shared string too long is refused in the row that uses it
    const strings = sharedStringsXml([...HEADER, 'ok', long]);
    const cells = (r: number, idx: number[]) =>
      idx.map((i, c) => `<c r="${'ABCDEF'[c]}${r}" t="s"><v>${i}</v></c>`).join('');
    const sheet = worksheetXml([
      `<row r="1">${cells(1, [0, 1, 2, 3, 4, 5])}</row>`,
      `<row r="2">${cells(2, [6, 6, 6, 6, 6, 6])}</row>`,
      `<row r="3">${cells(3, [6, 6, 6, 6, 7, 6])}</row>`,
    ]);
    expect(await refusal(file(await zipOf(xlsxParts(sheet, { strings })), 'xlsx'), 'xlsx')).toBe(
      'Row 3 of the spreadsheet has a cell longer than 1,000 characters',
    );
  });

  it('control characters, in a CSV and in a spreadsheet', async () => {
    const nul = file(
      Buffer.from(`${CSV_HEADER}\nAna,100000001,N-1,Acme Brand,r,1\nBen\0,100000002,N-2,Acme Brand,r,1\n`),
      'csv',
    );
    expect(await refusal(nul, 'csv')).toBe('Line 3 of the file has a control character (U+0000) in a cell');
    expect(await refusal(file(`${CSV_HEADER}\nA\x1b,1,M,B,r,1\n`, 'csv'), 'csv')).toBe(
      'Line 2 of the file has a control character (U+001B) in a cell',
    );
    expect(await refusal(file(`${CSV_HEADER}\nA,1,M,B,r\x7f,1\n`, 'csv'), 'csv')).toContain('(U+007F)');
    // tab, and line breaks inside quotes, are text
    expect(await readAll(file(`${CSV_HEADER}\n"A\tB",1,"M\nN",B,r,1\n`, 'csv'), 'csv')).toHaveLength(1);
    // XML refuses most control characters itself; DEL it allows
    expect(await refusal(file(await xlsxOf([HEADER, ['A', 1, 'M', 'B', 'r\x7f', 1]]), 'xlsx'), 'xlsx')).toBe(
      'Row 2 of the spreadsheet has a control character (U+007F) in a cell',
    );
    expect(
      await refusal(
        file(await xlsxOf([HEADER, [{ xml: '<c r="A2" t="inlineStr"><is><t>&#1;</t></is></c>' }]]), 'xlsx'),
        'xlsx',
      ),
    ).toBe('The spreadsheet cannot be read');
  });

  it('a CSV that is not UTF-8, and a line of nothing but separators', async () => {
    const latin1 = Buffer.concat([
      Buffer.from(`${CSV_HEADER}\nAna,1,M,B,r,1\n`),
      Buffer.from('Ren\xe9,1,M,B,r,1\n', 'latin1'),
    ]);
    expect(await refusal(file(latin1, 'csv'), 'csv')).toBe(
      'Line 3 of the file is not UTF-8 text: save the file as "CSV UTF-8" and upload it again',
    );
    // a character cut by the end of a read chunk is still read whole
    const head = `${CSV_HEADER}\n${'Ana,1,M,B,r,1\n'.repeat(1150)}`;
    const cut = `${head}${'x'.repeat(16 * 1024 - head.length - 1)}é,1,M,B,r,1\n`; // é is bytes 16383 and 16384
    expect(
      Buffer.from(cut)
        .subarray(16 * 1024 - 1, 16 * 1024 + 1)
        .toString(),
    ).toBe('é');
    expect((await readAll(file(cut, 'csv'), 'csv')).at(-1)!.values.beneficiary_name).toMatch(/^x+é$/);
    const commas = file(Buffer.concat([Buffer.from(`${CSV_HEADER}\n`), Buffer.alloc(20 * 1024 * 1024, ',')]), 'csv');
    const w = await watched(() => refusal(commas, 'csv'));
    expect(w.result).toBe('Line 2 of the file has too many cells');
    expect(w.growthMb).toBeLessThan(200);
  }, 30_000);

  it('a zip that is not an .xlsx, a broken zip, broken XML, two sheets', async () => {
    const notXlsx = await zipOf([['readme.txt', 'hello']]);
    expect(await refusal(file(notXlsx, 'xlsx'), 'xlsx')).toBe(
      'The spreadsheet cannot be read: it is not an .xlsx file',
    );
    const good = await xlsxOf([HEADER, ['A', 1, 'M', 'B', 'r', 1]]);
    expect(await refusal(file(good.subarray(0, good.length >> 1), 'xlsx'), 'xlsx')).toBe(
      'The spreadsheet cannot be read: it is not an .xlsx file',
    );
    const scrambled = Buffer.from(good);
    for (let i = 200; i < 400; i++) scrambled[i] ^= 0x5a; // inside the first part's deflated data
    expect(await refusal(file(scrambled, 'xlsx'), 'xlsx')).toMatch(/^The spreadsheet cannot be read/);
    const broken = await zipOf(xlsxParts('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></row>'));
    expect(await refusal(file(broken, 'xlsx'), 'xlsx')).toBe('The spreadsheet cannot be read');
    const doctype = await zipOf(xlsxParts('<!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet/>'));
    expect(await refusal(file(doctype, 'xlsx'), 'xlsx')).toBe('The spreadsheet cannot be read');
    const two = await zipOf(xlsxParts(worksheetXml(rowsXml([HEADER])), { sheets: 2 }));
    expect(await refusal(file(two, 'xlsx'), 'xlsx')).toBe('The spreadsheet must have exactly one sheet');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('one').addRow(HEADER);
    wb.addWorksheet('two').addRow(['x']);
    expect(await refusal(file(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx'), 'xlsx')).toBe(
      'The spreadsheet must have exactly one sheet',
    );
  });

  it('the other caps: cells per row, shared strings, parts, XML elements and depth', async () => {
    const wideRow = `<row r="1">${'<c/>'.repeat(1001)}</row>`;
    expect(await refusal(file(await zipOf(xlsxParts(worksheetXml([wideRow]))), 'xlsx'), 'xlsx')).toBe(
      'Row 1 of the spreadsheet has more than 1,000 cells',
    );
    const strings = sharedStringsXml(Array.from({ length: 50 }, (_, i) => `text ${i}`));
    const withStrings = file(await zipOf(xlsxParts(worksheetXml([]), { strings })), 'xlsx');
    expect(await refusal(withStrings, 'xlsx', { limits: { sharedStrings: 10 } })).toBe(
      'The spreadsheet has more than 10 different texts',
    );
    expect(await refusal(withStrings, 'xlsx', { limits: { sharedStringChars: 100 } })).toBe(
      'The spreadsheet holds more than 100 characters of text',
    );
    expect(await refusal(withStrings, 'xlsx', { limits: { zipEntries: 3 } })).toBe(
      'The spreadsheet cannot be read: it has more than 3 parts',
    );
    const many = file(await zipOf(xlsxParts(worksheetXml(['<x/>'.repeat(2000)]))), 'xlsx');
    expect(await refusal(many, 'xlsx', { limits: { xmlElements: 1000 } })).toBe(
      'The spreadsheet is too large (more than 1,000 XML elements in one part)',
    );
    const deep = `<worksheet>${'<a>'.repeat(100)}${'</a>'.repeat(100)}<sheetData/></worksheet>`;
    expect(await refusal(file(await zipOf(xlsxParts(deep)), 'xlsx'), 'xlsx')).toBe('The spreadsheet cannot be read');
  });

  it('more rows than a batch may hold', async () => {
    const rows = Array.from({ length: MAX_BATCH_ROWS + 1 }, (_, i) => `A,100000001,L${i},Acme Brand,r,1`);
    const p = file(`${CSV_HEADER}\n${rows.join('\n')}\n`, 'csv');
    expect(await refusal(p, 'csv')).toBe('The file has more than 100,000 rows');
  }, 30_000);
});

describe('reading takes bounded time and lets others run', () => {
  it('reads 100,000 spreadsheet rows and 100,000 CSV lines while the event loop keeps answering', async () => {
    const data = function* () {
      yield HEADER;
      for (let i = 0; i < MAX_BATCH_ROWS; i++)
        yield [`Name ${i}`, 100000001 + i, `T-${i}`, 'Acme Brand', `Ref ${i}`, 100 + i];
    };
    const xlsx = file(await zipOf(xlsxParts(worksheetXml(rowsXml(data())))), 'xlsx');
    const csv = file([...data()].map((r) => r.join(',')).join('\n'), 'csv');
    for (const [p, format] of [
      [xlsx, 'xlsx'],
      [csv, 'csv'],
    ] as const) {
      const w = await watched(() => inspectFile(p, format));
      expect(w.result).toBe(MAX_BATCH_ROWS);
      expect(w.lagMs).toBeLessThan(250);
      expect(w.ms).toBeLessThan(30_000);
    }
  }, 120_000);

  it('stops at its deadline, which does not count the time the caller holds a row', async () => {
    const p = file(`${CSV_HEADER}\n${Array.from({ length: 5000 }, (_, i) => `A,1,M${i},B,r,1`).join('\n')}`, 'csv');
    expect(await refusal(p, 'csv', { deadlineMs: 0 })).toBe('The file took too long to read');
    const xlsx = file(await xlsxOf([HEADER, ['A', 1, 'M', 'B', 'r', 1]]), 'xlsx');
    expect(await refusal(xlsx, 'xlsx', { deadlineMs: 0 })).toBe('The file took too long to read');
    // several read chunks, held by the caller some 3 s in all against a deadline of 1 s
    const slow = file(`${CSV_HEADER}\n${Array.from({ length: 3000 }, (_, i) => `A,1,M${i},B,r,1`).join('\n')}`, 'csv');
    let rows = 0;
    for await (const _ of readRows(slow, 'csv', { deadlineMs: 1_000 })) {
      rows += 1;
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(rows).toBe(3000);
  });
});
