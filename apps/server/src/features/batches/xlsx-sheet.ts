import type yauzl from 'yauzl';
import { badCharacter, detached, FileRefused, num } from './file-limits.ts';
import { Capture, collect, parseXml } from './xlsx-xml.ts';
import { CANNOT, type Ctx } from './xlsx-zip.ts';

// The worksheet part of the .xlsx reader (xlsx.ts): the shared string table and the cells of the sheet, read
// as ExcelJS's reader read them for us before (styles ignored, so a date is its serial number).

const MAX_COLUMN = 16_384; // XFD
const MAX_ROW = 1_048_576;

/** One <row> of the sheet: its 1-based number and its non-empty cells by 1-based column. */
export interface SheetRow {
  row: number;
  /** number of <c> elements, empty ones included */
  cellCount: number;
  cells: Map<number, string>;
}

/** The shared string table; a string longer than a cell may be is kept as null (refused if a cell uses it). */
export async function sharedStrings(ctx: Ctx, entry: yauzl.Entry): Promise<(string | null)[]> {
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

export function worksheetRows(ctx: Ctx, entry: yauzl.Entry, strings: (string | null)[]): AsyncGenerator<SheetRow> {
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
