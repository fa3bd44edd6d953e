import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { ZipArchive } from 'archiver';

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
  /** lines (CSV) or <row> elements (XLSX) the database wrote already (cells.ts), after any `rows` */
  raw(bytes: string | Buffer): Promise<void>;
  end(): Promise<void>;
}

async function write(stream: Writable, chunk: string | Buffer) {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** CSV (RFC 4180, CRLF, UTF-8 with a byte order mark so spreadsheets read accents right). */
export async function csvWriter(stream: Writable, header: string[]): Promise<RowWriter> {
  await write(stream, `\uFEFF${header.map(csvField).join(',')}\r\n`);
  return {
    async rows(rows) {
      if (rows.length) await write(stream, rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n');
    },
    raw: (bytes) => write(stream, bytes),
    async end() {
      /* the file store ends the stream when it commits */
    },
  };
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The fixed parts of a one-sheet workbook: styles 1 (bold, the header) and 2 (0.00, amounts). */
const PARTS: [string, string][] = [
  [
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
  ],
  [
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Export" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PKG_REL}">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    'xl/styles.xml',
    `${XML}<styleSheet xmlns="${NS}">` +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
      '<xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
  ],
];

/** A, B, ..., Z, AA, ... */
function columnName(i: number): string {
  let n = i + 1;
  let name = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    name = String.fromCharCode(65 + m) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** Text for XML: escaped, and without the control characters XML 1.0 cannot hold. */
const xmlText = (t: string) =>
  t
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function xlsxCell(ref: string, cell: Cell, style = 0): string {
  const s = style ? ` s="${style}"` : '';
  if (cell === null) return '';
  if (typeof cell === 'number') return `<c r="${ref}"${s}><v>${cell}</v></c>`;
  if (typeof cell === 'object') return `<c r="${ref}" s="2"><v>${cell.cents / 100}</v></c>`;
  const t = neutralise(cell);
  const space = t !== t.trim() ? ' xml:space="preserve"' : '';
  return `<c r="${ref}" t="inlineStr"${s}><is><t${space}>${xmlText(t)}</t></is></c>`;
}

/**
 * XLSX written as a stream: the sheet's XML goes into the zip (archiver: deflated by zlib in the thread pool) as the
 * rows come, with backpressure from the file to the caller, so memory stays flat whatever the row count. Text is
 * inline (no shared-string table to hold), amounts are numbers shown with two decimals. Past 4 GiB archiver writes
 * ZIP64.
 */
export async function xlsxWriter(stream: Writable, header: string[]): Promise<RowWriter> {
  // level 1: deflate's fast path (XML this repetitive still shrinks about tenfold); pieces as large as an export
  // passes (256 KiB): zlib's default 16 KiB made many times the callbacks and buffers
  const zip = new ZipArchive({ zlib: { level: 1, chunkSize: 256 * 1024 } });
  const failed = new Promise<never>((_, reject) => zip.once('error', reject));
  failed.catch(() => undefined);
  // the file store ends the output when it commits; the zip must have written everything by then
  zip.pipe(stream, { end: false });
  for (const [name, body] of PARTS) zip.append(body, { name });
  const sheet = new PassThrough({ highWaterMark: 1024 * 1024 });
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  const refs = header.map((_, i) => columnName(i));
  let n = 0;
  const send = async (bytes: string | Buffer) => {
    if (!sheet.write(bytes)) await Promise.race([once(sheet, 'drain'), failed]);
  };
  const row = (cells: Cell[], style = 0) => {
    n++;
    let xml = `<row r="${n}">`;
    for (let i = 0; i < cells.length; i++) xml += xlsxCell(`${refs[i] ?? columnName(i)}${n}`, cells[i], style);
    return `${xml}</row>`;
  };
  await send(`${XML}<worksheet xmlns="${NS}"><sheetData>${row(header, 1)}`);
  return {
    async rows(rows) {
      if (rows.length) await send(rows.map((r) => row(r)).join(''));
    },
    raw: send,
    async end() {
      sheet.end('</sheetData></worksheet>');
      await Promise.race([zip.finalize(), failed]);
    },
  };
}
