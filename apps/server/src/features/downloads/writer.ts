import type { Writable } from 'node:stream';
import { once } from 'node:events';
import ExcelJS from 'exceljs';

/** A cell of an export: text (neutralised), cents (shown as euros), a whole number, or empty. */
export type Cell = string | { cents: number } | number | null;

/**
 * A cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return)
 * gets a leading apostrophe, so it opens as the text it is (OWASP "CSV injection").
 */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text;
}

const euros = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  if (typeof cell === 'object') return euros(cell.cents);
  const t = neutralise(cell);
  return /[",\r\n]/.test(t) || t !== t.trim() || t.startsWith("'") ? `"${t.replace(/"/g, '""')}"` : t;
}

export interface RowWriter {
  rows(rows: Cell[][]): Promise<void>;
  end(): Promise<void>;
}

async function write(stream: Writable, chunk: string) {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** CSV (RFC 4180, CRLF, UTF-8 with a byte order mark so spreadsheets read accents right). */
export async function csvWriter(stream: Writable, header: string[]): Promise<RowWriter> {
  await write(stream, `\uFEFF${header.map(csvField).join(',')}\r\n`);
  return {
    async rows(rows) {
      if (rows.length) await write(stream, rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n');
    },
    async end() {
      /* the file store ends the stream when it commits */
    },
  };
}

/** XLSX written as a stream: each row is committed as it comes, so memory stays flat. */
export async function xlsxWriter(stream: Writable, header: string[]): Promise<RowWriter> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: false });
  const sheet = wb.addWorksheet('Export');
  sheet.addRow(header).commit();
  return {
    async rows(rows) {
      for (const r of rows)
        sheet
          .addRow(
            r.map((c) =>
              c === null ? null : typeof c === 'object' ? c.cents / 100 : typeof c === 'string' ? neutralise(c) : c,
            ),
          )
          .commit();
      // let the zip stream drain between chunks
      await new Promise((r) => setImmediate(r));
    },
    async end() {
      sheet.commit();
      await wb.commit();
    },
  };
}
