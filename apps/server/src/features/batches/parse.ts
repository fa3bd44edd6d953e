import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';

/** The columns of a payout file, in the template's order. */
export const BATCH_COLUMNS = [
  'beneficiary_name',
  'obol_id',
  'merchant_transaction_id',
  'brand',
  'reference',
  'amount',
] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];
export type RawRow = Record<BatchColumn, string>;

/** The most rows one file may hold. */
export const MAX_BATCH_ROWS = 100_000;

export const CSV_TEMPLATE =
  BATCH_COLUMNS.join(',') +
  '\n' +
  'Jane Doe,100000001,INV-0001,Acme Brand,Invoice 0001,1500\n' +
  'John Roe,100000002,INV-0002,Acme Brand,Invoice 0002,2599\n';

/** The file is not a payout file we can read: the upload is refused with this message. */
export class FileRefused extends Error {}

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

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v && Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('formula' in v) return `=${String(v.formula)}`;
    if ('error' in v) return String(v.error);
  }
  return String(v);
}

/**
 * Streams the data rows of a payout file (never holding it whole), each with its 1-based line/row number.
 * Throws FileRefused for an empty file, no or wrong header, broken quoting, a spreadsheet with several
 * sheets, or more than MAX_BATCH_ROWS rows.
 */
export async function* readRows(filePath: string, format: FileFormat): AsyncGenerator<{ row: number; values: RawRow }> {
  let count = 0;
  const emit = (row: number, columns: BatchColumn[], cells: string[]) => {
    count += 1;
    if (count > MAX_BATCH_ROWS)
      throw new FileRefused(`The file has more than ${MAX_BATCH_ROWS.toLocaleString('en')} rows`);
    const values = {} as RawRow;
    columns.forEach((c, i) => (values[c] = (cells[i] ?? '').trim()));
    return { row, values };
  };
  if (format === 'csv') {
    const parser = createReadStream(filePath).pipe(
      parse({ bom: true, skip_empty_lines: true, relax_column_count: false, info: true }),
    );
    let columns: BatchColumn[] | null = null;
    try {
      for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
        if (!columns) {
          columns = checkHeader(rec.record);
          continue;
        }
        if (rec.record.every((c) => c.trim() === '')) continue;
        yield emit(rec.info.lines, columns, rec.record);
      }
    } catch (err) {
      if (err instanceof FileRefused) throw err;
      const e = err as { code?: string; lines?: number; message?: string; name?: string };
      if (e.name === 'CsvError' || e.code?.startsWith('CSV_') || e.code?.startsWith('INVALID_')) {
        const what =
          e.code === 'CSV_RECORD_INCONSISTENT_COLUMNS' || e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
            ? 'has a different number of columns than the header'
            : 'has broken quoting';
        throw new FileRefused(`Line ${e.lines ?? '?'} of the file ${what}`);
      }
      throw err;
    }
    if (!columns) throw new FileRefused('The file is empty');
    return;
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(filePath, {
    sharedStrings: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let sheets = 0;
  let columns: BatchColumn[] | null = null;
  try {
    for await (const sheet of reader) {
      sheets += 1;
      if (sheets > 1) throw new FileRefused('The spreadsheet must have exactly one sheet');
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const raw = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
        if (raw.every((c) => c.trim() === '')) continue;
        if (!columns) {
          columns = checkHeader(raw);
          continue;
        }
        if (raw.length > columns.length && raw.slice(columns.length).some((c) => c.trim() !== '')) {
          throw new FileRefused(`Row ${row.number} of the spreadsheet has more cells than the header`);
        }
        yield emit(row.number, columns, raw);
      }
    }
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    throw new FileRefused('The spreadsheet cannot be read');
  }
  if (!columns) throw new FileRefused('The file is empty');
}

/** Counts the rows, checking the whole file's structure, without keeping it. */
export async function inspectFile(filePath: string, format: FileFormat): Promise<number> {
  let n = 0;
  for await (const _ of readRows(filePath, format)) n += 1;
  if (n === 0) throw new FileRefused('The file has no payout rows');
  return n;
}
