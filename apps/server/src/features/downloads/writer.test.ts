import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvWriter, neutralise, xlsxWriter, type Cell } from './writer.ts';

/** Everything written to a stream, once the writer is done. */
function sink() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, bytes: () => Buffer.concat(chunks) };
}

describe('neutralise', () => {
  it('puts an apostrophe before what a spreadsheet would run as a formula', () => {
    for (const t of ['=1+1', '+31 6', '-2', '@SUM(A1)', '\tx', '\rx', '＝1']) expect(neutralise(t)).toBe(`'${t}`);
    for (const t of ['Ana', '1-2', 'a=b', '']) expect(neutralise(t)).toBe(t);
  });
});

describe('csvWriter', () => {
  it('writes RFC 4180 rows with a byte order mark, quoting where needed', async () => {
    const out = sink();
    const w = await csvWriter(out.stream, ['Name', 'Amount']);
    await w.rows([
      ['Ana "A" Novak', { cents: 123456 }],
      ['=cmd', { cents: -5 }],
      [' padded', null],
    ]);
    await w.end();
    out.stream.end();
    expect(out.bytes().toString('utf8')).toBe(
      '\uFEFFName,Amount\r\n"Ana ""A"" Novak",1234.56\r\n"\'=cmd",-0.05\r\n" padded",\r\n',
    );
  });
});

describe('xlsxWriter', () => {
  it('writes a workbook a spreadsheet reads back: text, amounts, numbers, blanks, many columns', async () => {
    const out = sink();
    const header = Array.from({ length: 30 }, (_, i) => `Col ${i + 1}`);
    const w = await xlsxWriter(out.stream, header);
    const wide: Cell[] = header.map((_, i) => `v${i + 1}`);
    await w.rows([['Ana & <Bob>', { cents: 250075 }, 42, null, '@evil', '  spaced  ', 'bell\u0007gone'], wide]);
    await w.end();
    out.stream.end();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(out.bytes() as never);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Export');
    expect(ws.getRow(1).getCell(1).value).toBe('Col 1');
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
    const w = await xlsxWriter(slow, ['A', 'B', 'C']);
    const rows: Cell[][] = Array.from({ length: 2_000 }, (_, i) => [
      `row ${i} ${randomBytes(100).toString('hex')}`,
      { cents: i },
      i,
    ]);
    let written = 0;
    const producing = (async () => {
      for (let i = 0; i < 200; i++) {
        await w.rows(rows);
        written++;
      }
    })();
    await new Promise((r) => setTimeout(r, 1000));
    // the producer is held back: what is in flight is bounded by the streams' buffers (about 10 MB of XML
    // here, whatever the wait), not all 200 chunks (130 MB)
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
