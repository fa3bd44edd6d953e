import { readdirSync } from 'node:fs';
import path from 'node:path';
import { feeCents } from '@obol/contract';
import ExcelJS from 'exceljs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderReference } from '../ledger/accounts.ts';
import { payouts } from '../payouts/tables.ts';
import { MAX_BATCH_ROWS } from './parse.ts';
import { batches, stagedTransactions } from './tables.ts';

let t: TestAppWithProvider;
let merchant: string;
let merchantId: number;
let ref: string;
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, workers: true, provider: { settleMs: 50 } });
  merchant = await t.signIn('merchant@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  ref = holderReference(merchantId);
});
afterAll(async () => {
  await t?.close();
});

const upload = (
  content: string | Buffer,
  name = 'payouts.csv',
  token = merchant,
  fields: Record<string, string> = {},
) =>
  t.upload(
    '/api/upload-transactions',
    { file_name: name, behalf_of_id: String(merchantId), account_reference: ref, ...fields },
    { name, content },
    token,
  );

async function staged(batchId: string, token = merchant) {
  for (let i = 0; i < 100; i++) {
    const p = await t.post('/api/batch-progress', { id: batchId }, token);
    if (p.status !== 200) return p;
    if (p.body.status === 'Pending' && p.body.processedJobs === p.body.totalJobs) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('staging did not finish');
}
const balance = async () =>
  (await t.post('/api/account-balance', { account_reference: ref }, merchant)).body.balance as number;
const batchCount = async () => (await t.deps.db.select({ n: count() }).from(batches))[0].n;
const uploadsLeft = () => {
  try {
    return readdirSync(path.join(t.dataDir, 'uploads'));
  } catch {
    return [];
  }
};

describe('upload refusals leave nothing behind', () => {
  it.each([
    ['a text file', 'hello', 'notes.txt', 'Please upload a CSV file'],
    ['an empty file', '', 'empty.csv', 'The file is empty'],
    ['a header without rows', `${HEADER}\n`, 'h.csv', 'The file has no payout rows'],
    ['wrong columns', 'name,wallet,amount\nA,1,2\n', 'w.csv', 'The columns must be'],
    ['broken quoting', `${HEADER}\n"Ana,100000001,X1,Acme Brand,r,100\n`, 'q.csv', 'broken quoting'],
    ['a stray quote', `${HEADER}\nAna "the" Novak,100000001,X1,Acme Brand,r,100\n`, 's.csv', 'broken quoting'],
    [
      'a row with more columns than the header',
      `${HEADER}\nAna,100000001,X1,Acme Brand,r,100,extra\n`,
      'c.csv',
      'different number of columns',
    ],
    ['a binary file named .csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]), 'zip.csv', 'Please upload a CSV file'],
  ])('%s', async (_what, content, name, message) => {
    const before = await batchCount();
    const r = await upload(content, name);
    expect(r.status).toBe(400);
    expect(r.body.error[0]).toContain(message);
    expect(r.body.fields.file).toBeTruthy();
    expect(await batchCount()).toBe(before);
    expect(uploadsLeft()).toEqual([]);
  });

  it('a spreadsheet with several sheets', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('one').addRow(HEADER.split(','));
    wb.addWorksheet('two').addRow(['x']);
    const r = await upload(Buffer.from(await wb.xlsx.writeBuffer()), 'two.xlsx');
    expect(r.status).toBe(400);
    expect(r.body.error[0]).toBe('The spreadsheet must have exactly one sheet');
    expect(uploadsLeft()).toEqual([]);
  });

  it('a file over the row limit', async () => {
    const rows = Array.from({ length: MAX_BATCH_ROWS + 1 }, (_, i) => `A,100000001,L${i},Acme Brand,r,1`);
    const r = await upload(`${HEADER}\n${rows.join('\n')}\n`, 'big.csv');
    expect(r.status).toBe(400);
    expect(r.body.error[0]).toContain('more than 100,000 rows');
    expect(uploadsLeft()).toEqual([]);
  }, 60_000);

  it("without the permission, or for another tenant's account", async () => {
    const csv = `${HEADER}\nAna,100000001,P1,Acme Brand,r,100\n`;
    expect((await upload(csv, 'a.csv', await t.signIn('finance@obol.example'))).status).toBe(403);
    const m2 = (await userIdByEmail(t.deps.db, 'merchant2@obol.example'))!;
    const r = await upload(csv, 'a.csv', merchant, {
      account_reference: holderReference(m2),
      behalf_of_id: String(m2),
    });
    expect(r.status).toBe(404);
  });
});

describe('a batch from upload to execution', () => {
  let batchId: string;

  it('stages every row with its errors kept per field', async () => {
    const csv = [
      HEADER,
      'Ana Novak,100000001,B-1,Acme Brand,Invoice 1,1500',
      'Ben Berg,12345,B-2,Unknown Brand,Invoice 2,-5',
      ',100000003,B-1,Acme Brand,Invoice 3,10',
      '"=HYPERLINK(""x"")",100000004,B-4,Acme Brand,@ref,2500',
      'Greta Horvat,200000005,B-5,Acme Brand,Invoice 5,1000',
    ].join('\n');
    const up = await upload(csv, 'March payouts!.csv');
    expect(up.status).toBe(200);
    batchId = up.body.batch_id;
    const p = await staged(batchId);
    expect(p.body).toMatchObject({ processedJobs: 5, totalJobs: 5 });
    const s = await t.post('/api/staged-transactions', { batch_id: batchId, per_page: 10, page: 1 }, merchant);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ pendingTransaction: 3, failedTransaction: 2, missingTransaction: 1 });
    expect(s.body.batch.file_name).toBe('Marchpayouts.csv');
    const [r1, r2, r3, r4] = s.body.transaction.data;
    expect(r1.status).toBe('Pending');
    expect(r2.account_id.error).toBe('Invalid Obol Id');
    expect(r2.brand.error).toBe('Brand name does not exist');
    expect(r2.amount.error).toBe('Must be greater than 0');
    expect(r3.beneficiary_name.error).toBe('This field is required');
    expect(r3.merchant_transaction_id.error).toBe('Merchant transaction id is repeated in this file');
    // stored as given; neutralised only in files we write
    expect(r4.beneficiary_name.value).toBe('=HYPERLINK("x")');
    const failed = await t.post('/api/staged-transactions', { batch_id: batchId, status: 'Failed' }, merchant);
    expect(failed.body.transaction.total).toBe(2);
    const search = await t.post('/api/staged-transactions', { batch_id: batchId, search: 'novak' }, merchant);
    expect(search.body.transaction.total).toBe(1);
    const amount = await t.post('/api/batch-amount', { batch_id: batchId, account_reference: ref }, merchant);
    expect(amount.body).toEqual({ amount: 5000, fee: feeCents(5000, 150) });
  });

  it('is resumed as the current batch by a new sign-in', async () => {
    const login = await t.post('/api/login', {
      email: 'merchant@obol.example',
      password: 'Test@pass1',
      auth_type: 'email',
    });
    const v = await t.post('/api/verify-code', {
      challenge_token: login.body.challenge_token,
      code: t.lastMailTo('merchant@obol.example')!.code,
    });
    expect(v.body.batch).toEqual({
      batch_id: batchId,
      merchant_name: 'Acme Payouts',
      file_name: 'Marchpayouts.csv',
      account_reference: ref,
      batch_status: 'Pending',
    });
  });

  it('keeps another tenant out of it', async () => {
    const other = await t.signIn('merchant2@obol.example');
    for (const [url, body] of [
      ['/api/staged-transactions', { batch_id: batchId }],
      ['/api/batch-amount', { batch_id: batchId }],
      ['/api/batch-progress', { id: batchId }],
      ['/api/rename-batch', { batch_id: batchId, file_name: 'x' }],
      ['/api/clear-batch', { batch_id: batchId }],
      ['/api/execute-batch', { batch_id: batchId }],
    ] as const) {
      const r = await t.post(url, body, other);
      expect(r.status, url).toBe(404);
    }
    // a staged row of another tenant's batch answers exactly as a row that does not exist
    const rows = (await t.post('/api/staged-transactions', { batch_id: batchId }, merchant)).body.transaction.data;
    const theirs = await t.post('/api/delete-transaction', { id: rows[0].id }, other);
    const none = await t.post('/api/delete-transaction', { id: 2_000_000_000 }, other);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(none.body);
    expect(
      (await t.post('/api/staged-transactions', { batch_id: batchId }, merchant)).body.transaction.data,
    ).toHaveLength(rows.length);
  });

  it('refuses execution while a row misses a required field', async () => {
    const r = await t.post('/api/execute-batch', { batch_id: batchId, amount: 5000 }, merchant);
    expect(r.status).toBe(422);
  });

  it('fixes a row inline, deletes others, renames the file', async () => {
    const s = await t.post('/api/staged-transactions', { batch_id: batchId }, merchant);
    const [, r2, r3] = s.body.transaction.data;
    const fix = await t.post(
      '/api/update-transaction',
      {
        id: r3.id,
        batch_id: batchId,
        beneficiary_name: 'Chloe Costa',
        obol_id: '100000003',
        merchant_transaction_id: 'B-3',
        brand: 'Acme Brand',
        amount: '10',
        reference: 'Invoice 3',
      },
      merchant,
    );
    expect(fix.status).toBe(200);
    expect(fix.body.transaction.status).toBe('Pending');
    // the manual payout's third amount rule: above the available balance is refused, and nothing changes
    const tooMuch = await t.post(
      '/api/update-transaction',
      {
        id: r3.id,
        batch_id: batchId,
        beneficiary_name: 'Chloe Costa',
        obol_id: '100000003',
        merchant_transaction_id: 'B-3',
        brand: 'Acme Brand',
        amount: String((await balance()) + 1),
        reference: 'Invoice 3',
      },
      merchant,
    );
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toEqual({
      error: ['Must not exceed available balance'],
      fields: { amount: ['Must not exceed available balance'] },
    });
    const kept = (await t.post('/api/staged-transactions', { batch_id: batchId }, merchant)).body.transaction.data;
    expect(kept.find((r: { id: number }) => r.id === r3.id).amount.value).toBe('10');
    const stillBad = await t.post(
      '/api/update-transaction',
      {
        id: r2.id,
        batch_id: batchId,
        beneficiary_name: 'Ben Berg',
        obol_id: '12345',
        merchant_transaction_id: 'B-2',
        brand: 'Acme Brand',
        amount: '1.5',
        reference: 'r',
      },
      merchant,
    );
    expect(stillBad.body.transaction.status).toBe('Failed');
    expect(stillBad.body.transaction.amount.error).toBe('Must be a whole number');
    expect(
      (await t.post('/api/delete-transaction', { id: r2.id, batch_id: batchId, merchant_name: 'x' }, merchant)).status,
    ).toBe(200);
    const rename = await t.post('/api/rename-batch', { batch_id: batchId, file_name: 'april run #2.csv' }, merchant);
    expect(rename.body.file_name).toBe('aprilrun2.csv');
    const after = await t.post('/api/staged-transactions', { batch_id: batchId }, merchant);
    expect(after.body).toMatchObject({ pendingTransaction: 4, failedTransaction: 0, missingTransaction: 0 });
  });

  it('executes with the code that approves exactly this batch and total, once', async () => {
    const before = await balance();
    const total = 1500 + 10 + 2500 + 1000;
    const fee = feeCents(total, 150);
    expect((await t.post('/api/execute-batch', { batch_id: batchId, amount: total + 1 }, merchant)).status).toBe(409);
    const ask = await t.post(
      '/api/execute-batch',
      { batch_id: batchId, amount: total, merchant_name: 'Acme Payouts' },
      merchant,
    );
    expect(ask.status).toBe(200);
    const code = t.lastMailTo('merchant@obol.example')!.code!;
    const wrong = await t.post(
      '/api/confirm-batch',
      { batch_id: batchId, code: code === '000000' ? '111111' : '000000' },
      merchant,
    );
    expect(wrong.status).toBe(422);
    expect(await balance()).toBe(before);
    const ok = await t.post('/api/confirm-batch', { batch_id: batchId, code, merchant_name: 'Acme Payouts' }, merchant);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ amount: total, fee });
    expect(await balance()).toBe(before - total - fee);
    const twice = await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant);
    expect(twice.status).toBe(409);
    // the payouts are created and settle; the one to another brand's wallet fails and its amount returns
    const end = Date.now() + 15_000;
    let rows: (typeof payouts.$inferSelect)[] = [];
    for (;;) {
      rows = await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId));
      if (rows.length === 4 && rows.every((r) => r.status !== 'in_flight')) break;
      if (Date.now() > end) throw new Error(`batch payouts: ${JSON.stringify(rows.map((r) => r.status))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const failed = rows.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.failureMessage)).toEqual(['Brand does not match']);
    // its amount returns, and the fee kept is the fee on what was paid
    const paid = total - failed[0].amount;
    expect(await balance()).toBe(before - paid - feeCents(paid, 150));
    const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
    expect(b.status).toBe('Completed');
    // the lists keep the spec's Completed and say beside it that one of the four payouts failed
    for (const list of ['/api/batches', '/api/recent-batches']) {
      const listed = await t.post(list, { search: batchId }, merchant);
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({
        batch_status: 'Completed',
        payouts: { completed: 3, failed: 1, in_flight: 0 },
      });
    }
    expect((await t.post('/api/trial-balance', {}, await t.signIn('admin@obol.example'))).body.balanced).toBe(true);
    // a repeated merchant transaction id is now refused in a new file
    const again = await upload(`${HEADER}\nAna,100000001,B-1,Acme Brand,r,100\n`, 'again.csv');
    await staged(again.body.batch_id);
    const s = await t.post('/api/staged-transactions', { batch_id: again.body.batch_id }, merchant);
    expect(s.body.transaction.data[0].merchant_transaction_id.error).toBe('Merchant transaction id already exists');
  });

  it('refuses a code issued for another batch, and a batch beyond the balance', async () => {
    const a = await upload(`${HEADER}\nAna,100000001,C-1,Acme Brand,r,100\n`, 'a.csv');
    const b = await upload(`${HEADER}\nAna,100000001,C-2,Acme Brand,r,100\n`, 'b.csv');
    await staged(a.body.batch_id);
    await staged(b.body.batch_id);
    await t.post('/api/execute-batch', { batch_id: a.body.batch_id, amount: 100 }, merchant);
    const code = t.lastMailTo('merchant@obol.example')!.code!;
    const other = await t.post('/api/confirm-batch', { batch_id: b.body.batch_id, code }, merchant);
    expect(other.status).toBe(422);
    expect(other.body.error[0]).toBe('This code does not approve this transaction');
    const huge = await upload(`${HEADER}\nAna,100000001,C-3,Acme Brand,r,999999999\n`, 'huge.csv');
    await staged(huge.body.batch_id);
    const r = await t.post('/api/execute-batch', { batch_id: huge.body.batch_id }, merchant);
    expect(r.status).toBe(422);
    expect(r.body.error[0]).toBe('Insufficient balance');
  });

  it('clears a batch: Declined, rows gone, no longer editable', async () => {
    const up = await upload(`${HEADER}\nAna,100000001,D-1,Acme Brand,r,100\n`, 'd.csv');
    await staged(up.body.batch_id);
    // the same file again while the first is open: its row fails for the id, and the review counts it by reason
    const dup = await upload(`${HEADER}\nAna,100000001,D-1,Acme Brand,r,100\nBen,100000002,D-2,,r,200\n`, 'd.csv');
    await staged(dup.body.batch_id);
    const review = await t.post('/api/staged-transactions', { batch_id: dup.body.batch_id }, merchant);
    expect(review.body).toMatchObject({ failedTransaction: 2, missingTransaction: 1 });
    expect(review.body.failedByReason).toHaveLength(2);
    expect(review.body.failedByReason.map((r: { count: number }) => r.count)).toEqual([1, 1]);
    expect(review.body.failedByReason.map((r: { reason: string }) => r.reason)).toContain(
      review.body.transaction.data[0].merchant_transaction_id.error,
    );
    await t.post('/api/clear-batch', { batch_id: dup.body.batch_id, merchant_name: 'x' }, merchant);
    expect(
      (await t.post('/api/clear-batch', { batch_id: up.body.batch_id, merchant_name: 'x' }, merchant)).status,
    ).toBe(200);
    const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, up.body.batch_id));
    expect(b.status).toBe('Declined');
    const [{ n }] = await t.deps.db
      .select({ n: count() })
      .from(stagedTransactions)
      .where(eq(stagedTransactions.batchId, up.body.batch_id));
    expect(n).toBe(0);
    expect((await t.post('/api/execute-batch', { batch_id: up.body.batch_id }, merchant)).status).toBe(409);
    // the same file uploaded again after clearing stages cleanly: the cleared batch holds none of its ids
    const again = await upload(`${HEADER}\nAna,100000001,D-1,Acme Brand,r,100\n`, 'd.csv');
    await staged(again.body.batch_id);
    const s = await t.post('/api/staged-transactions', { batch_id: again.body.batch_id }, merchant);
    expect(s.body).toMatchObject({ pendingTransaction: 1, failedTransaction: 0 });
    expect(s.body.transaction.data[0].merchant_transaction_id.error ?? null).toBeNull();
    await t.post('/api/clear-batch', { batch_id: again.body.batch_id, merchant_name: 'x' }, merchant);
  });

  it('reads a one-sheet spreadsheet', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('payouts');
    ws.addRow(HEADER.split(','));
    ws.addRow(['Ana Novak', '100000001', 'X-1', 'Acme Brand', 'Invoice', 700]);
    ws.addRow(['Ben Berg', 100000002, 'X-2', 'Acme Brand', 'Invoice', 800]);
    const up = await upload(Buffer.from(await wb.xlsx.writeBuffer()), 'sheet.xlsx');
    expect(up.status).toBe(200);
    await staged(up.body.batch_id);
    const s = await t.post('/api/staged-transactions', { batch_id: up.body.batch_id }, merchant);
    expect(s.body.pendingTransaction).toBe(2);
    expect((await t.post('/api/batch-amount', { batch_id: up.body.batch_id }, merchant)).body.amount).toBe(1500);
  });

  it('serves the CSV template', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/csv-template',
      headers: { authorization: `Bearer ${merchant}` },
    });
    expect(r.statusCode).toBe(200);
    expect(r.body.split('\n')[0]).toBe(HEADER);
  });
});

describe('batch lists', () => {
  it("show the caller's batches only, newest first, with status and search filters", async () => {
    const mine = await t.post('/api/recent-batches', { per_page: 100, page: 1 }, merchant);
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBeGreaterThan(3);
    // a batch not executed has no payouts yet: every count is 0
    const declinedRow = mine.body.data.find((b: { batch_status: string }) => b.batch_status === 'Declined');
    expect(declinedRow.payouts).toEqual({ completed: 0, failed: 0, in_flight: 0 });
    expect(mine.body.data[0]).toMatchObject({
      payout_type: 'Batch Payout',
      uploaded_by: { name: 'Acme Payouts' },
      behalf_of: { name: 'Acme Payouts' },
    });
    const other = await t.post('/api/recent-batches', {}, await t.signIn('merchant2@obol.example'));
    expect(other.body).toEqual({ data: [], total: 0 });
    const completed = await t.post('/api/batches', { status: 'Completed' }, merchant);
    expect(completed.body.data.every((b: { batch_status: string }) => b.batch_status === 'Completed')).toBe(true);
    const declined = await t.post('/api/batches', { status: 'Declined' }, merchant);
    expect(declined.body.total).toBeGreaterThan(0);
    const byName = await t.post('/api/batches', { search: 'aprilrun2' }, merchant);
    expect(byName.body.data.map((b: { file_name: string }) => b.file_name)).toEqual(['aprilrun2.csv']);
    expect((await t.post('/api/batches', { status: 'Lost' }, merchant)).status).toBe(400);
    expect((await t.post('/api/batches', { page: 0 }, merchant)).status).toBe(400);
    // an id beyond what the database holds is a 400 naming the field, not a database error
    const huge = await t.post('/api/delete-transaction', { id: 1e20 }, merchant);
    expect(huge.status).toBe(400);
    expect(huge.body.fields.id).toEqual([`id must be at most ${Number.MAX_SAFE_INTEGER}`]);
    // a boolean or an array is not read as page 1 or 2
    const truthy = await t.post('/api/recent-batches', { page: true }, merchant);
    expect(truthy.status).toBe(400);
    expect(truthy.body.fields.page).toEqual(['page must be a number']);
    expect((await t.post('/api/batches', { per_page: [50] }, merchant)).body.fields.per_page).toEqual([
      'per_page must be a number',
    ]);
    expect((await t.post('/api/recent-batches', {}, await t.signIn('2d-admin@obol.example'))).status).toBe(403);
  });
});
