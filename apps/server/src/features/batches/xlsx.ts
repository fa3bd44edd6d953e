import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';
import { badCharacter, detached, FileRefused, megabytes, num, type FileLimits, type ReadClock } from './file-limits.ts';

/**
 * A small streaming reader of the one worksheet of an .xlsx, for uploads. The zip is opened by its central
 * directory (yauzl); each part needed is inflated as a stream (our own zlib inflater, counting the bytes it
 * really produces: declared sizes are never trusted) and parsed with a streaming SAX parser (saxes), every cap
 * of FileLimits being checked as the bytes arrive. Nothing but the shared string table is kept whole, and that
 * only within its caps. Values are read as ExcelJS's reader read them for us before (styles ignored, so a
 * date is its serial number).
 */

/** One <row> of the sheet: its 1-based number and its non-empty cells by 1-based column. */
export interface SheetRow {
  row: number;
  /** number of <c> elements, empty ones included */
  cellCount: number;
  cells: Map<number, string>;
}

const CANNOT = 'The spreadsheet cannot be read';
const NOT_XLSX = 'The spreadsheet cannot be read: it is not an .xlsx file';
const MAX_COLUMN = 16_384; // XFD
const MAX_ROW = 1_048_576;
/** characters handed to the XML parser at a time: its buffers are checked between two writes */
const WRITE_CHARS = 16 * 1024;

interface Ctx {
  zip: yauzl.ZipFile;
  limits: FileLimits;
  clock: ReadClock;
  /** inflated bytes of all parts so far */
  total: number;
}

/** The rows of the workbook's only worksheet, blank ones included, in file order. */
export async function* readSheetRows(filePath: string, limits: FileLimits, clock: ReadClock): AsyncGenerator<SheetRow> {
  let zip: yauzl.ZipFile | undefined;
  try {
    try {
      zip = await yauzl.openPromise(filePath, {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: false,
      });
    } catch (err) {
      throw new FileRefused(NOT_XLSX, { cause: err });
    }
    // failures reach us through the calls that meet them; an error event with no listener would end the process
    zip.on('error', () => undefined);
    const ctx: Ctx = { zip, limits, clock, total: 0 };
    const entries = await listEntries(ctx);
    const part = (p: string) => entries.get(p.toLowerCase());

    const rootRels = part('_rels/.rels');
    const officeDoc = rootRels
      ? (await relationships(ctx, rootRels)).find((r) => r.type.endsWith('/officeDocument'))
      : undefined;
    const workbookPath = officeDoc ? resolveTarget('', officeDoc.target) : 'xl/workbook.xml';
    const workbook = part(workbookPath);
    if (!workbook) throw new FileRefused(NOT_XLSX);
    const sheetId = await onlySheet(ctx, workbook);

    const dir = posix.dirname(workbookPath);
    const relsEntry = part(posix.join(dir, '_rels', `${posix.basename(workbookPath)}.rels`));
    const rels = relsEntry ? await relationships(ctx, relsEntry) : [];
    const sheetRel = rels.find((r) => r.id === sheetId);
    let sheet = sheetRel ? part(resolveTarget(dir, sheetRel.target)) : undefined;
    if (!sheet && !sheetRel) {
      // no relationship for it: a workbook written by hand; take its only worksheet part
      const worksheets = [...entries.values()].filter((e) => /(^|\/)worksheets\/[^/]+\.xml$/i.test(e.fileName));
      if (worksheets.length === 1) sheet = worksheets[0];
    }
    if (!sheet) throw new FileRefused(CANNOT);
    const stringsRel = rels.find((r) => r.type.endsWith('/sharedStrings'));
    const stringsEntry = part(
      stringsRel ? resolveTarget(dir, stringsRel.target) : posix.join(dir, 'sharedStrings.xml'),
    );
    const strings = stringsEntry ? await sharedStrings(ctx, stringsEntry) : [];
    yield* worksheetRows(ctx, sheet, strings);
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    throw new FileRefused(CANNOT, { cause: err });
  } finally {
    zip?.close();
  }
}

async function listEntries(ctx: Ctx): Promise<Map<string, yauzl.Entry>> {
  const tooMany = () => new FileRefused(`${CANNOT}: it has more than ${num(ctx.limits.zipEntries)} parts`);
  if (ctx.zip.entryCount > ctx.limits.zipEntries) throw tooMany();
  const entries = new Map<string, yauzl.Entry>();
  for await (const entry of ctx.zip.eachEntry()) {
    if (entries.size >= ctx.limits.zipEntries) throw tooMany();
    const key = entry.fileName.toLowerCase();
    if (entries.has(key)) throw new FileRefused(CANNOT); // two parts of one name: which would Excel read?
    entries.set(key, entry);
    await ctx.clock.tick();
  }
  return entries;
}

function resolveTarget(dir: string, target: string): string {
  const t = target.replace(/\\/g, '/');
  return t.startsWith('/') ? posix.normalize(t.slice(1)) : posix.normalize(posix.join(dir, t));
}

/** The bytes of one part, inflated as they are read; refused as soon as a size cap is passed. */
async function* inflate(ctx: Ctx, entry: yauzl.Entry): AsyncGenerator<Buffer> {
  const { limits } = ctx;
  const tooLarge = () =>
    new FileRefused(`The spreadsheet is too large once unpacked (more than ${megabytes(limits.partBytes)})`);
  const tooLargeInAll = () =>
    new FileRefused(`The spreadsheet is too large once unpacked (more than ${megabytes(limits.totalBytes)} in all)`);
  if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8))
    throw new FileRefused(CANNOT);
  // what it declares only lets us refuse early; what it inflates to is counted below
  if (entry.uncompressedSize > limits.partBytes) throw tooLarge();
  const raw = await ctx.zip.openReadStreamPromise(entry, { decodeFileData: false });
  let stream: Readable = raw;
  if (entry.compressionMethod === 8) {
    const inflater = createInflateRaw({ chunkSize: 16 * 1024 });
    raw.on('error', (err) => inflater.destroy(err));
    stream = raw.pipe(inflater);
  }
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      ctx.total += chunk.length;
      if (bytes > limits.partBytes) throw tooLarge();
      if (ctx.total > limits.totalBytes) throw tooLargeInAll();
      yield chunk;
    }
  } finally {
    raw.unpipe();
    raw.destroy();
    stream.destroy();
  }
}

/** The parser's buffers, which it fills until a token ends: checked between writes so none outgrows its cap. */
interface SaxBuffers {
  text: string;
  name: string;
  piTarget: string;
  entity: string;
  tags: unknown[];
  attribList: unknown[];
}
const buffersOf = (p: SaxesParser) => p as unknown as SaxBuffers;
{
  // fail loudly at start-up if a saxes release renames what we watch
  const b = buffersOf(new SaxesParser());
  for (const k of ['text', 'name', 'piTarget', 'entity'] as const)
    if (typeof b[k] !== 'string') throw new Error(`saxes: no ${k} buffer`);
  if (!Array.isArray(b.tags) || !Array.isArray(b.attribList)) throw new Error('saxes: no tag or attribute list');
}

interface XmlHandlers {
  open(tag: SaxesTagPlain, name: string): void;
  close(name: string): void;
  text(text: string): void;
  /** the refusal when a text outgrows xmlTokenChars before it ends */
  overflow(): FileRefused;
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** Streams one XML part through saxes, yielding what the handlers emit as it goes. */
async function* parseXml<T>(
  ctx: Ctx,
  entry: yauzl.Entry,
  wire: (emit: (item: T) => void) => XmlHandlers,
): AsyncGenerator<T> {
  const { limits } = ctx;
  const out: T[] = [];
  const h = wire((item) => out.push(item));
  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on('doctype', () => {
    throw new FileRefused(CANNOT); // no DTD in an .xlsx part
  });
  const buf = buffersOf(parser);
  let elements = 0;
  parser.on('opentag', (tag) => {
    if (buf.tags.length > limits.xmlDepth) throw new FileRefused(CANNOT);
    if (++elements > limits.xmlElements)
      throw new FileRefused(
        `The spreadsheet is too large (more than ${num(limits.xmlElements)} XML elements in one part)`,
      );
    h.open(tag, localName(tag.name));
  });
  parser.on('closetag', (tag) => h.close(localName(tag.name)));
  parser.on('text', (t) => h.text(t));
  parser.on('cdata', (t) => h.text(t));
  const guard = () => {
    if (buf.text.length > limits.xmlTokenChars) throw h.overflow();
    if (
      buf.name.length > limits.xmlTokenChars ||
      buf.piTarget.length > limits.xmlTokenChars ||
      buf.entity.length > limits.xmlTokenChars ||
      buf.attribList.length > limits.xmlAttributes ||
      buf.tags.length > limits.xmlDepth
    )
      throw new FileRefused(CANNOT);
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const chunk of inflate(ctx, entry)) {
    const text = decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i += WRITE_CHARS) {
      parser.write(text.slice(i, i + WRITE_CHARS));
      guard();
      if (out.length) yield* out.splice(0);
      await ctx.clock.tick();
    }
  }
  parser.write(decoder.decode());
  parser.close();
  if (out.length) yield* out.splice(0);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function relationships(ctx: Ctx, entry: yauzl.Entry): Promise<Relationship[]> {
  let count = 0;
  return collect(
    parseXml<Relationship>(ctx, entry, (emit) => ({
      open(tag, name) {
        if (name !== 'Relationship') return;
        if (++count > ctx.limits.zipEntries) throw new FileRefused(CANNOT);
        const a = tag.attributes;
        emit({ id: a.Id ?? '', type: a.Type ?? '', target: a.Target ?? '' });
      },
      close() {},
      text() {},
      overflow: () => new FileRefused(CANNOT),
    })),
  );
}

/** The relationship id of the workbook's one sheet; refuses a workbook of none or several. */
async function onlySheet(ctx: Ctx, entry: yauzl.Entry): Promise<string> {
  let sheets = 0;
  const ids = await collect(
    parseXml<string>(ctx, entry, (emit) => ({
      open(tag, name) {
        if (name !== 'sheet') return;
        if (++sheets > 1) throw new FileRefused('The spreadsheet must have exactly one sheet');
        const key = Object.keys(tag.attributes).find((k) => k.endsWith(':id'));
        emit(key ? tag.attributes[key] : '');
      },
      close() {},
      text() {},
      overflow: () => new FileRefused(CANNOT),
    })),
  );
  if (ids.length !== 1) throw new FileRefused('The spreadsheet must have exactly one sheet');
  return ids[0];
}

/** Text gathered for one value, kept up to the field cap (past it only the fact that it is too long). */
class Capture {
  text = '';
  tooLong = false;
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  add(t: string) {
    if (this.tooLong) return;
    if (this.text.length + t.length > this.max) {
      this.tooLong = true;
      this.text = '';
    } else this.text += t;
  }
}

/** The shared string table; a string longer than a cell may be is kept as null (refused if a cell uses it). */
async function sharedStrings(ctx: Ctx, entry: yauzl.Entry): Promise<(string | null)[]> {
  const { limits } = ctx;
  const strings: (string | null)[] = [];
  let chars = 0;
  let si: Capture | null = null;
  let inT = false;
  let phonetic = 0;
  await collect(
    parseXml<never>(ctx, entry, () => ({
      open(_tag, name) {
        if (name === 'si') {
          if (strings.length >= limits.sharedStrings)
            throw new FileRefused(`The spreadsheet has more than ${num(limits.sharedStrings)} different texts`);
          si = new Capture(limits.fieldChars);
        } else if (name === 'rPh') phonetic += 1;
        else if (name === 't' && si && !phonetic) inT = true;
      },
      close(name) {
        if (name === 't') inT = false;
        else if (name === 'rPh') phonetic -= 1;
        else if (name === 'si' && si) {
          chars += si.text.length;
          if (chars > limits.sharedStringChars)
            throw new FileRefused(
              `The spreadsheet holds more than ${num(limits.sharedStringChars)} characters of text`,
            );
          strings.push(si.tooLong ? null : detached(si.text));
          si = null;
        }
      },
      text(t) {
        if (inT) si?.add(t);
      },
      overflow: () =>
        inT
          ? new FileRefused(`The spreadsheet has a cell longer than ${num(limits.fieldChars)} characters`)
          : new FileRefused(CANNOT),
    })),
  );
  return strings;
}

/** "C5" -> 3 (the row part is not needed: the cell belongs to the <row> around it) */
function columnOf(ref: string): number {
  const m = /^\$?([A-Za-z]{1,3})\$?\d*$/.exec(ref);
  if (!m) throw new FileRefused(CANNOT);
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  if (col > MAX_COLUMN) throw new FileRefused(CANNOT);
  return col;
}

interface CellState {
  col: number;
  type: string;
  v: Capture | null;
  f: Capture | null;
  is: Capture | null;
}

function worksheetRows(ctx: Ctx, entry: yauzl.Entry, strings: (string | null)[]): AsyncGenerator<SheetRow> {
  const { limits } = ctx;
  let inSheetData = false;
  let row: SheetRow | null = null;
  let lastRow = 0;
  let lastCol = 0;
  let cell: CellState | null = null;
  let capture: Capture | null = null;
  let inIs = false;
  let phonetic = 0;
  const tooLong = (r: number) =>
    new FileRefused(`Row ${r} of the spreadsheet has a cell longer than ${num(limits.fieldChars)} characters`);

  const valueOf = (c: CellState, r: number): string => {
    let text: string;
    if (c.type === 'inlineStr' && c.is) {
      if (c.is.tooLong) throw tooLong(r);
      text = c.is.text;
    } else if (c.v) {
      if (c.v.tooLong) throw tooLong(r);
      const v = c.v.text;
      switch (c.type) {
        case 's': {
          const s = /^\s*\d+\s*$/.test(v) ? strings[Number(v)] : undefined;
          if (s === undefined) throw new FileRefused(CANNOT);
          if (s === null) throw tooLong(r);
          text = s;
          break;
        }
        case 'b':
          text = Number.parseInt(v, 10) !== 0 ? 'true' : 'false';
          break;
        case 'str':
        case 'inlineStr':
        case 'e':
        case 'd':
          text = v;
          break;
        default:
          text = v.trim() === '' ? '' : String(Number.parseFloat(v));
      }
    } else if (c.f) {
      if (c.f.tooLong) throw tooLong(r);
      text = `=${c.f.text}`; // a formula without a cached value
    } else text = '';
    if (text.length > limits.fieldChars) throw tooLong(r);
    const bad = badCharacter(text);
    if (bad) throw new FileRefused(`Row ${r} of the spreadsheet has a control character (${bad}) in a cell`);
    return text;
  };

  return parseXml<SheetRow>(ctx, entry, (emit) => ({
    open(tag, name) {
      const a = tag.attributes;
      switch (name) {
        case 'sheetData':
          inSheetData = true;
          break;
        case 'row': {
          if (!inSheetData) break;
          const n = a.r === undefined ? lastRow + 1 : Number(a.r);
          if (!Number.isInteger(n) || n < 1 || n > MAX_ROW) throw new FileRefused(CANNOT);
          row = { row: n, cellCount: 0, cells: new Map() };
          lastCol = 0;
          break;
        }
        case 'c':
          if (!row) break;
          if (++row.cellCount > limits.cellsPerRow)
            throw new FileRefused(`Row ${row.row} of the spreadsheet has more than ${num(limits.cellsPerRow)} cells`);
          cell = { col: a.r ? columnOf(a.r) : lastCol + 1, type: a.t ?? 'n', v: null, f: null, is: null };
          if (cell.col > MAX_COLUMN) throw new FileRefused(CANNOT);
          break;
        case 'v':
          if (cell) capture = cell.v = new Capture(limits.fieldChars);
          break;
        case 'f':
          if (cell) capture = cell.f = new Capture(limits.fieldChars);
          break;
        case 'is':
          if (cell) {
            inIs = true;
            cell.is = new Capture(limits.fieldChars);
          }
          break;
        case 'rPh':
          if (inIs) phonetic += 1;
          break;
        case 't':
          if (inIs && cell?.is && !phonetic) capture = cell.is;
          break;
      }
    },
    close(name) {
      switch (name) {
        case 'v':
        case 'f':
        case 't':
          capture = null;
          break;
        case 'rPh':
          if (inIs) phonetic -= 1;
          break;
        case 'is':
          inIs = false;
          break;
        case 'c':
          if (row && cell) {
            const text = valueOf(cell, row.row);
            if (text !== '') row.cells.set(cell.col, text);
            lastCol = cell.col;
          }
          cell = null;
          capture = null;
          break;
        case 'row':
          if (row) {
            emit(row);
            lastRow = row.row;
          }
          row = null;
          break;
        case 'sheetData':
          inSheetData = false;
          break;
      }
    },
    text(t) {
      capture?.add(t);
    },
    overflow: () => (capture && row ? tooLong(row.row) : new FileRefused(CANNOT)),
  }));
}
