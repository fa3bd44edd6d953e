import { readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { count } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import {
  blankLinesCsv,
  CSV_HEADER,
  emptyRowsXlsx,
  HEADER,
  hugeCellCsv,
  lieAboutSizes,
  sharedStringBomb,
  zipOf,
} from '../../test/spreadsheets.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderReference } from '../ledger/accounts.ts';
import { batches } from './tables.ts';

let t: TestApp;
let merchant: string;
let merchantId: number;

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'error' });
  merchant = await t.signIn('merchant@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
});
afterAll(async () => {
  await t?.close();
});

const batchCount = async () => (await t.deps.db.select({ n: count() }).from(batches))[0].n;
const uploadsLeft = () => {
  try {
    return readdirSync(path.join(t.dataDir, 'uploads'));
  } catch {
    return [];
  }
};

/** Uploads the file while asking GET /api/health a moment later; how long each took. */
async function uploadWithHealth(content: Buffer, name: string) {
  const started = performance.now();
  const upload = t
    .upload(
      '/api/upload-transactions',
      { file_name: name, behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) },
      { name, content },
      merchant,
    )
    .then((r) => ({ r, ms: performance.now() - started }));
  await sleep(20);
  const asked = performance.now();
  const health = await t.app.inject({ method: 'GET', url: '/api/health' });
  const healthMs = performance.now() - asked;
  const { r, ms } = await upload;
  return { r, ms, health, healthMs };
}

describe('hostile uploads are answered 400 within seconds, the server answering others meanwhile', () => {
  const cases: [string, () => Promise<Buffer> | Buffer, string, string][] = [
    [
      'a shared string that inflates to 400 MB',
      () => sharedStringBomb(400),
      'bomb.xlsx',
      'The spreadsheet is too large once unpacked (more than 100 MB)',
    ],
    [
      'the same, its central directory lying about sizes',
      async () => lieAboutSizes(await sharedStringBomb(400)),
      'liar.xlsx',
      'The spreadsheet has a cell longer than 1,000 characters',
    ],
    ['a million empty rows', () => emptyRowsXlsx(1_000_000), 'rows.xlsx', 'The file has more than 10,000 blank rows'],
    ['48 MB of blank CSV lines', () => blankLinesCsv(48), 'blank.csv', 'The file has more than 10,000 blank lines'],
    [
      'a 45 MB cell',
      () => hugeCellCsv(45),
      'cell.csv',
      'Line 2 of the file is too long: a cell may hold at most 1,000 characters',
    ],
    [
      'a NUL byte in a CSV',
      () => Buffer.from(`${CSV_HEADER}\nAna,100000001,H-1,Acme Brand,r,1\nBen\0,100000002,H-2,Acme Brand,r,1\n`),
      'nul.csv',
      'Line 3 of the file has a control character (U+0000) in a cell',
    ],
    [
      'a zip that is not a spreadsheet',
      () => zipOf([['notes.txt', 'hello']]),
      'notes.xlsx',
      'The spreadsheet cannot be read: it is not an .xlsx file',
    ],
    [
      'a workbook of two sheets',
      async () => {
        const wb = new ExcelJS.Workbook();
        wb.addWorksheet('one').addRow(HEADER);
        wb.addWorksheet('two').addRow(['x']);
        return Buffer.from(await wb.xlsx.writeBuffer());
      },
      'two.xlsx',
      'The spreadsheet must have exactly one sheet',
    ],
  ];

  it.each(cases)(
    '%s',
    async (_what, make, name, message) => {
      const content = await make();
      const before = await batchCount();
      const { r, ms, health, healthMs } = await uploadWithHealth(content, name);
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual([message]);
      expect(r.body.fields.file).toEqual([message]);
      expect(ms).toBeLessThan(15_000);
      expect(health.statusCode).toBe(200);
      expect(healthMs).toBeLessThan(3_000);
      expect(await batchCount()).toBe(before);
      expect(uploadsLeft()).toEqual([]);
    },
    60_000,
  );

  it('a well-formed spreadsheet is still taken', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('payouts');
    ws.addRow(HEADER);
    ws.addRow(['Ana Novak', 100000001, 'W-1', 'Acme Brand', 'Invoice', 700]);
    const { r } = await uploadWithHealth(Buffer.from(await wb.xlsx.writeBuffer()), 'ok.xlsx');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
  });
});
