import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { ZipArchive } from 'archiver';

/**
 * The file around an export's rows. The rows themselves, header included, are written by the database (cells.ts:
 * the one cell writer); these only frame them and move their bytes, waiting whenever the file asks.
 */
export interface FileWriter {
  /** CSV lines or XLSX <row> elements, in order */
  raw(bytes: string | Buffer): Promise<void>;
  end(): Promise<void>;
}

async function write(stream: Writable, chunk: string | Buffer) {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** CSV (RFC 4180, CRLF, UTF-8 with a byte order mark so spreadsheets read accents right). */
export async function csvFile(stream: Writable): Promise<FileWriter> {
  await write(stream, '\uFEFF');
  return {
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

/**
 * XLSX written as a stream: the sheet's XML goes into the zip (archiver: deflated by zlib in the thread pool) as the
 * rows come, with backpressure from the file to the caller, so memory stays flat whatever the row count. Text is
 * inline (no shared-string table to hold). Past 4 GiB archiver writes ZIP64.
 */
export async function xlsxFile(stream: Writable): Promise<FileWriter> {
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
  const send = async (bytes: string | Buffer) => {
    if (!sheet.write(bytes)) await Promise.race([once(sheet, 'drain'), failed]);
  };
  await send(`${XML}<worksheet xmlns="${NS}"><sheetData>`);
  return {
    raw: send,
    async end() {
      sheet.end('</sheetData></worksheet>');
      await Promise.race([zip.finalize(), failed]);
    },
  };
}
