import { posix } from 'node:path';
import type yauzl from 'yauzl';
import { FileRefused, type FileLimits, type ReadClock } from './file-limits.ts';
import { sharedStrings, worksheetRows, type SheetRow } from './xlsx-sheet.ts';
import { collect, parseXml } from './xlsx-xml.ts';
import { CANNOT, listEntries, NOT_XLSX, openZip, resolveTarget, type Ctx } from './xlsx-zip.ts';

/**
 * A small streaming reader of the one worksheet of an .xlsx, for uploads. The zip is opened by its central
 * directory (yauzl); each part needed is inflated as a stream (our own zlib inflater, counting the bytes it
 * really produces: declared sizes are never trusted) and parsed with a streaming SAX parser (saxes), every cap
 * of FileLimits being checked as the bytes arrive. Nothing but the shared string table is kept whole, and that
 * only within its caps. Values are read as ExcelJS's reader read them for us before (styles ignored, so a
 * date is its serial number).
 *
 * xlsx-zip.ts opens and inflates the parts, xlsx-xml.ts parses one, xlsx-sheet.ts reads the strings and the cells;
 * here the workbook is followed to its one sheet.
 */

export type { SheetRow } from './xlsx-sheet.ts';

/** The rows of the workbook's only worksheet, blank ones included, in file order. */
export async function* readSheetRows(filePath: string, limits: FileLimits, clock: ReadClock): AsyncGenerator<SheetRow> {
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await openZip(filePath);
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
