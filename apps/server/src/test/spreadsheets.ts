import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { BATCH_COLUMNS } from '../features/batches/parse.ts';

/** Payout files made in tests, well-formed and hostile, built with a real zip writer. */

export const HEADER = [...BATCH_COLUMNS];
export const CSV_HEADER = HEADER.join(',');

type Content = string | Buffer | Iterable<string | Buffer>;

/** A zip of the given parts, in order; an iterable part is streamed into the zip writer, never held whole. */
export async function zipOf(parts: [string, Content][], level = 6): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  for (const [name, content] of parts)
    zip.append(typeof content === 'string' || Buffer.isBuffer(content) ? content : Readable.from(content), { name });
  await zip.finalize();
  await ended;
  return Buffer.concat(chunks);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

export const escapeXml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** A cell: a number, an inline string, or raw XML given as { xml }. */
export type CellSpec = number | string | { xml: string };
const cellXml = (ref: string, v: CellSpec) =>
  typeof v === 'number'
    ? `<c r="${ref}"><v>${v}</v></c>`
    : typeof v === 'string'
      ? `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(v)}</t></is></c>`
      : v.xml;

const letters = (col: number) => {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

/** <row> elements for rows of cells starting in column A and row 1 (a null cell is left out). */
export function* rowsXml(rows: Iterable<(CellSpec | null)[]>, firstRow = 1): Generator<string> {
  let r = firstRow;
  for (const cells of rows) {
    yield `<row r="${r}">${cells.map((v, i) => (v === null ? '' : cellXml(`${letters(i + 1)}${r}`, v))).join('')}</row>`;
    r += 1;
  }
}

/** A worksheet around these rows, in pieces of about 64 kB (the zip writer is slow with many small ones). */
export function* worksheetXml(rows: Iterable<string>): Generator<string> {
  let piece = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetData>`;
  for (const row of rows) {
    piece += row;
    if (piece.length >= 64 * 1024) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}</sheetData></worksheet>`;
}

export const sharedStringsXml = (strings: string[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">` +
  strings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('') +
  '</sst>';

/** The parts of a workbook of `sheets` worksheets (all of them `sheet`), with shared strings if given. */
export function xlsxParts(sheet: Content, opts: { strings?: Content; sheets?: number } = {}): [string, Content][] {
  const sheets = opts.sheets ?? 1;
  const ids = Array.from({ length: sheets }, (_, i) => i + 1);
  const parts: [string, Content][] = [
    [
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" ` +
        `Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
        ids.map((i) => `<sheet name="Sheet${i}" sheetId="${i}" r:id="rId${i}"/>`).join('') +
        '</sheets></workbook>',
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}">` +
        ids
          .map((i) => `<Relationship Id="rId${i}" Type="${REL}/worksheet" Target="worksheets/sheet${i}.xml"/>`)
          .join('') +
        (opts.strings ? `<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
        '</Relationships>',
    ],
  ];
  if (opts.strings) parts.push(['xl/sharedStrings.xml', opts.strings]);
  for (const i of ids) parts.push([`xl/worksheets/sheet${i}.xml`, i === 1 ? sheet : [...worksheetXml([])].join('')]);
  return parts;
}

/** A workbook of one sheet with these rows (inline strings and numbers). */
export const xlsxOf = (rows: (CellSpec | null)[][]) => zipOf(xlsxParts(worksheetXml(rowsXml(rows))));

// ---------- hostile files ----------

/** An .xlsx whose one shared string is `mb` MB of one letter: a few hundred kB that inflate to hundreds of MB. */
export function sharedStringBomb(mb = 400): Promise<Buffer> {
  function* strings() {
    yield `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}" count="1" uniqueCount="1"><si><t>`;
    const block = Buffer.alloc(1024 * 1024, 'A');
    for (let i = 0; i < mb; i++) yield block;
    yield '</t></si></sst>';
  }
  const sheet = worksheetXml(rowsXml([[{ xml: '<c r="A1" t="s"><v>0</v></c>' }]]));
  return zipOf(xlsxParts(sheet, { strings: strings() }), 9);
}

/** An .xlsx of a header and then `rows` empty <row> elements. */
export function emptyRowsXlsx(rows = 1_000_000): Promise<Buffer> {
  function* body() {
    yield* rowsXml([HEADER]);
    let batch: string[] = [];
    for (let r = 2; r <= rows + 1; r++) {
      batch.push(`<row r="${r}"/>`);
      if (batch.length === 10_000) {
        yield batch.join('');
        batch = [];
      }
    }
    yield batch.join('');
  }
  return zipOf(xlsxParts(worksheetXml(body())), 9);
}

/** The same zip, its central directory declaring every part `size` bytes once inflated (a lie). */
export function lieAboutSizes(zip: Buffer, size = 1000): Buffer {
  const out = Buffer.from(zip);
  const sig = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let p = out.indexOf(sig); p !== -1; p = out.indexOf(sig, p + 4)) out.writeUInt32LE(size, p + 24);
  return out;
}

/** A CSV header followed by `mb` MB of empty lines. */
export const blankLinesCsv = (mb = 48) =>
  Buffer.concat([Buffer.from(`${CSV_HEADER}\n`), Buffer.alloc(mb * 1024 * 1024, '\n')]);

/** A CSV whose second line starts with one cell of `mb` MB. */
export const hugeCellCsv = (mb = 45) =>
  Buffer.concat([
    Buffer.from(`${CSV_HEADER}\n`),
    Buffer.alloc(mb * 1024 * 1024, 'A'),
    Buffer.from(',100000001,X-1,Acme Brand,r,100\n'),
  ]);
