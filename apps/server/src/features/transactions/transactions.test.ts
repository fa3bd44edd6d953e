import { transactionOps } from '@obol/contract';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../platform/db.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { userIdByEmail } from '../../seed.ts';
import { runExport } from '../downloads/service.ts';
import { listPayouts } from './service.ts';

/**
 * The transaction lists and their exports over a fixture of payouts written straight to the database:
 * two merchants, a brand of each, an uploaded batch with a batch fee, a manual payout with its own fee.
 */
let t: TestApp;
const tok: Record<string, string> = {};
const id: Record<string, number> = {};
const DAY = 86_400_000;
/** YYYY-MM-DD of n days ago (UTC) */
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);
const at = (n: number, time: string) => `${daysAgo(n)}T${time}Z`;
const tomorrow = new Date(Date.now() + 2 * DAY).toISOString().slice(0, 10);

async function account(ownerId: number) {
  const r = await t.deps.db.execute(sql`SELECT id FROM accounts WHERE owner_id = ${ownerId} AND kind = 'payout'`);
  return Number(rowsOf<{ id: number }>(r)[0].id);
}

interface P {
  merchant: number;
  behalf: number;
  by: number;
  batch?: string | null;
  name: string;
  brand: string;
  mtid: string;
  prv?: string | null;
  ref: string;
  obol: string;
  amount: number;
  fee?: number;
  status: string;
  msg?: string | null;
  updated: string;
}
async function payout(p: P) {
  const acc = await account(p.merchant === id.merchant2 ? id.merchant2 : p.behalf);
  const r = await t.deps.db.execute(sql`
    INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type,
      merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status,
      idempotency_key, provider_id, failure_message, created_at, updated_at)
    VALUES (${p.merchant}, ${p.behalf}, ${acc}, ${p.by}, ${p.batch ?? null},
      ${p.batch?.startsWith('M') ? 'manual' : 'batch'}, ${p.mtid}, ${p.name}, ${p.brand}, ${p.obol}, ${p.ref},
      ${p.amount}, ${p.fee ?? 0}, 150, ${p.status}, ${'test:' + p.mtid + ':' + p.merchant}, ${p.prv ?? null},
      ${p.msg ?? null}, ${p.updated}::timestamptz, ${p.updated}::timestamptz)
    RETURNING id`);
  return Number(rowsOf<{ id: number }>(r)[0].id);
}
async function batch(
  batchId: string,
  merchant: number,
  behalf: number,
  by: number,
  type: string,
  status: string,
  fee: number,
  executed = true,
) {
  const acc = await account(behalf);
  await t.deps.db.execute(sql`
    INSERT INTO batches (batch_id, merchant_id, behalf_of_id, account_id, uploaded_by, payout_type, file_name, status,
      fee, executed_at)
    VALUES (${batchId}, ${merchant}, ${behalf}, ${acc}, ${by}, ${type}, ${batchId.toLowerCase() + '.csv'}, ${status},
      ${fee}, ${executed ? sql`now()` : null})`);
}

const list = (body: object, who = 'admin') => t.post('/api/payout-transactions', body, tok[who]);
const names = (res: { body: { transactions: { data: { beneficiary_name: string }[] } } }) =>
  res.body.transactions.data.map((r) => r.beneficiary_name).sort();

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'silent' });
  for (const [k, email] of Object.entries({
    admin: 'admin@obol.example',
    merchant: 'merchant@obol.example',
    brand: 'brand@obol.example',
    merchant2: 'merchant2@obol.example',
    brand2: 'brand2@obol.example',
    reviewer: 'reviewer@obol.example',
    riskops: 'risk-ops@obol.example',
  }))
    id[k] = (await userIdByEmail(t.deps.db, email))!;
  for (const k of ['admin', 'merchant', 'brand', 'merchant2', 'reviewer', 'riskops'])
    tok[k] = await t.signIn(`${k === 'riskops' ? 'risk-ops' : k}@obol.example`);

  await batch('B-ONE', id.merchant, id.merchant, id.merchant, 'Batch Payout', 'Completed', 300);
  await batch('M-ONE', id.merchant, id.brand, id.admin, 'Manual Payout', 'Completed', 0);
  await batch('B-TWO', id.merchant2, id.merchant2, id.merchant2, 'Batch Payout', 'Completed', 1000);
  const m = { merchant: id.merchant, behalf: id.merchant, by: id.merchant };
  id.alice = await payout({
    ...m,
    batch: 'B-ONE',
    name: 'Alice Smith',
    brand: 'Acme Payouts',
    mtid: 'MT-1',
    prv: 'PRV-1',
    ref: 'REF-1',
    obol: '100000001',
    amount: 1000,
    status: 'completed',
    updated: at(3, '10:00:00'),
  });
  id.bob = await payout({
    ...m,
    batch: 'B-ONE',
    name: 'Bob Jones',
    brand: 'Acme Payouts',
    mtid: 'MT-2',
    prv: 'PRV-2',
    ref: 'REF-2',
    obol: '100000002',
    amount: 2500,
    status: 'failed',
    msg: 'Wallet is closed',
    updated: at(2, '23:30:00'),
  });
  id.carol = await payout({
    ...m,
    batch: 'B-ONE',
    name: '=HYPERLINK("http://evil","x")',
    brand: 'Acme Payouts',
    mtid: 'MT-3',
    prv: 'PRV-3',
    ref: '+REF-3',
    obol: '100000003',
    amount: 500,
    status: 'completed',
    updated: at(1, '00:30:00'),
  });
  id.dan = await payout({
    merchant: id.merchant,
    behalf: id.brand,
    by: id.admin,
    batch: 'M-ONE',
    name: 'Dan Brown',
    brand: 'Acme Brand',
    mtid: 'MT-4',
    prv: 'PRV-4',
    ref: 'REF-4',
    obol: '100000004',
    amount: 2000,
    fee: 30,
    status: 'completed',
    updated: at(4, '12:00:00'),
  });
  id.eve = await payout({
    ...m,
    batch: null,
    name: 'Eve Adams',
    brand: 'Acme Payouts',
    mtid: 'MT-5',
    prv: 'PRV-5',
    ref: 'REF-5',
    obol: '100000005',
    amount: 700,
    status: 'pending',
    updated: at(5, '08:00:00'),
  });
  id.fay = await payout({
    merchant: id.merchant,
    behalf: id.brand,
    by: id.brand,
    batch: null,
    name: 'Fay Failed',
    brand: 'Acme Brand',
    mtid: 'MT-6',
    prv: 'PRV-6',
    ref: 'REF-6',
    obol: '100000006',
    amount: 800,
    status: 'failed',
    msg: null,
    updated: at(6, '08:00:00'),
  });
  id.zed = await payout({
    merchant: id.merchant2,
    behalf: id.merchant2,
    by: id.merchant2,
    batch: 'B-TWO',
    name: 'Zed Other',
    brand: 'Globex Trading',
    mtid: 'MT-1',
    prv: 'PRV-Z',
    ref: 'REF-Z',
    obol: '200000001',
    amount: 9999,
    status: 'completed',
    updated: at(3, '11:00:00'),
  });
  // a staged batch awaiting execution, and one still being staged
  await batch('B-STAGED', id.merchant, id.merchant, id.merchant, 'Batch Payout', 'Pending', 0, false);
  await t.deps.db.execute(sql`
    INSERT INTO staged_transactions (id, batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id,
      brand, reference, amount_text, amount, errors, status)
    SELECT b.seq * 100000000 + v.row_number, v.* FROM batches b JOIN (VALUES
      ('B-STAGED', 1, 'Good Row', '100000007', 'S-1', 'Acme Payouts', 'R', '100', 100, '{}'::jsonb, 'Pending'),
      ('B-STAGED', 2, 'Bad Row', '12', 'S-2', 'Nope', 'R', '-5', NULL,
        '{"obol_id":"Invalid Obol Id","amount":"Must be greater than 0"}', 'Failed')
    ) v (batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand, reference, amount_text,
      amount, errors, status)
      ON v.batch_id = b.batch_id`);
  await batch('B-BUSY', id.merchant, id.merchant, id.merchant, 'Batch Payout', 'Processing', 0, false);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('POST /api/payout-transactions', () => {
  it('shows staff every merchant, a merchant and its team their own, a brand what was made on its behalf', async () => {
    const all = await list({});
    expect(all.status).toBe(200);
    expect(all.body.transactions.total).toBe(7);
    expect(names(await list({}, 'merchant'))).toEqual([
      '=HYPERLINK("http://evil","x")',
      'Alice Smith',
      'Bob Jones',
      'Dan Brown',
      'Eve Adams',
      'Fay Failed',
    ]);
    expect((await list({}, 'riskops')).body.transactions.total).toBe(6);
    expect(names(await list({}, 'brand'))).toEqual(['Dan Brown', 'Fay Failed']);
    expect(names(await list({}, 'merchant2'))).toEqual(['Zed Other']);
  });

  it('answers every column of a row', async () => {
    const r = await list({ merchant_id: 'MT-4' });
    expect(r.body.transactions.data).toEqual([
      expect.objectContaining({
        id: id.dan,
        beneficiary_name: 'Dan Brown',
        brand: 'Acme Brand',
        behalf_of: 'Acme Brand',
        uploaded_by: 'Ada Admin',
        merchant_transaction_id: 'MT-4',
        intergiro_trx_id: 'PRV-4',
        reference: 'REF-4',
        account_id: '100000004',
        amount: 2000,
        status: 'Completed',
        updated_at: new Date(at(4, '12:00:00')).toISOString(),
      }),
    ]);
    expect(typeof r.body.transactions.data[0].account_used).toBe('string');
  });

  it('filters by status, names (a part, any case), brand, identifiers (exact) and amount', async () => {
    expect(names(await list({ status: 'Failed' }))).toEqual(['Bob Jones', 'Fay Failed']);
    expect(names(await list({ status: 'Pending' }))).toEqual(['Eve Adams']);
    expect(names(await list({ beneficiary_name: 'smI' }))).toEqual(['Alice Smith']);
    expect(names(await list({ beneficiary_name: '%' }))).toEqual([]);
    expect(names(await list({ brand: 'Acme Brand' }))).toEqual(['Dan Brown', 'Fay Failed']);
    expect(names(await list({ behalf_of: 'acme br' }))).toEqual(['Dan Brown', 'Fay Failed']);
    expect(names(await list({ uploaded_by: 'ada' }))).toEqual(['Dan Brown']);
    expect((await list({ account_used: 'zzz-no-such-account' })).body.transactions.total).toBe(0);
    expect(names(await list({ merchant_id: 'MT-1' }))).toEqual(['Alice Smith', 'Zed Other']);
    expect(names(await list({ merchant_id: 'MT-1' }, 'merchant2'))).toEqual(['Zed Other']);
    expect(names(await list({ intergiro_trx_id: 'PRV-2' }))).toEqual(['Bob Jones']);
    expect(names(await list({ reference: 'REF-5' }))).toEqual(['Eve Adams']);
    expect(names(await list({ obol_id: '100000006' }))).toEqual(['Fay Failed']);
    expect(names(await list({ amount: 2500 }))).toEqual(['Bob Jones']);
    expect(names(await list({ amount: '700' }))).toEqual(['Eve Adams']);
    expect(names(await list({ amount: 0 }))).toEqual([]);
    expect(names(await list({ status: 'Completed', brand: 'Acme Payouts', amount: 1000 }))).toEqual(['Alice Smith']);
  });

  it('filters by calendar days in the browser time zone: one date, a range, a reversed range', async () => {
    expect(names(await list({ start_date: daysAgo(3) }))).toEqual(['Alice Smith', 'Zed Other']);
    expect(names(await list({ end_date: daysAgo(3) }))).toEqual(['Alice Smith', 'Zed Other']);
    expect(names(await list({ start_date: daysAgo(4), end_date: daysAgo(3) }))).toEqual([
      'Alice Smith',
      'Dan Brown',
      'Zed Other',
    ]);
    expect(names(await list({ start_date: daysAgo(3), end_date: daysAgo(4) }))).toEqual([
      'Alice Smith',
      'Dan Brown',
      'Zed Other',
    ]);
    // Bob's payout at 23:30 UTC two days ago is on the next day in Berlin;
    // Carol's 00:30 UTC is on the day before in New York
    expect(names(await list({ start_date: daysAgo(2) }))).toEqual(['Bob Jones']);
    expect(names(await list({ start_date: daysAgo(1), tz: 'Europe/Berlin' }))).toEqual([
      '=HYPERLINK("http://evil","x")',
      'Bob Jones',
    ]);
    expect(names(await list({ start_date: daysAgo(2), tz: 'America/New_York' }))).toEqual([
      '=HYPERLINK("http://evil","x")',
      'Bob Jones',
    ]);
  });

  it('sorts by date either way and pages by offset or by the cursor of the previous page alike', async () => {
    const desc = await list({ per_page: 3 });
    expect(desc.body.transactions.data.map((r: { id: number }) => r.id)).toEqual([id.carol, id.bob, id.zed]);
    const asc = await list({ 'sort-by': 'ASC', per_page: 2 });
    expect(asc.body.transactions.data.map((r: { id: number }) => r.id)).toEqual([id.fay, id.eve]);
    const page2 = await list({ per_page: 3, page: 2 });
    const byCursor = await list({ per_page: 3, page: 2, cursor: desc.body.next_cursor });
    expect(page2.body.transactions.data.map((r: { id: number }) => r.id)).toEqual([id.alice, id.dan, id.eve]);
    expect(byCursor.body.transactions.data).toEqual(page2.body.transactions.data);
    expect(byCursor.body.transactions.total).toBe(7);
    const page3 = await list({ per_page: 3, page: 3 });
    expect(page3.body.transactions.data.map((r: { id: number }) => r.id)).toEqual([id.fay]);
    expect((await list({ per_page: 3, page: 4 })).body.transactions.data).toEqual([]);
  });

  it('steps back a page by the prev_cursor of the page shown, either sort; the totals are exact', async () => {
    const ids = (r: { body: { transactions: { data: { id: number }[] } } }) =>
      r.body.transactions.data.map((x) => x.id);
    for (const sort of ['DESC', 'ASC'] as const) {
      const byPage = [1, 2, 3].map((page) => list({ 'sort-by': sort, per_page: 3, page }));
      const [p1, p2, p3] = await Promise.all(byPage);
      // forward from page 1 to 3 by next_cursor, then back to 1 by prev_cursor: the pages by number, each way
      const f2 = await list({ 'sort-by': sort, per_page: 3, page: 2, cursor: p1.body.next_cursor });
      const f3 = await list({ 'sort-by': sort, per_page: 3, page: 3, cursor: f2.body.next_cursor });
      expect(ids(f3)).toEqual(ids(p3));
      const b2 = await list({ 'sort-by': sort, per_page: 3, page: 2, prev_cursor: f3.body.prev_cursor });
      expect(ids(b2)).toEqual(ids(p2));
      const b1 = await list({ 'sort-by': sort, per_page: 3, page: 1, prev_cursor: b2.body.prev_cursor });
      expect(ids(b1)).toEqual(ids(p1));
      for (const r of [p1, f2, f3, b2, b1]) {
        expect(r.body.transactions).toMatchObject({ total: 7, total_estimated: false });
        const [first, last] = [r.body.transactions.data[0], r.body.transactions.data.at(-1)];
        expect(r.body.prev_cursor === null).toBe(!first);
        expect(r.body.next_cursor === null).toBe(!last);
      }
      // before page 1 there is nothing: an empty page with no cursors, the total still told
      const b0 = await list({ 'sort-by': sort, per_page: 3, prev_cursor: b1.body.prev_cursor });
      expect(b0.body).toMatchObject({
        transactions: { data: [], total: 7, total_estimated: false },
        next_cursor: null,
        prev_cursor: null,
      });
    }
    // the cursor is a position, not a filter: filtered lists step the same way
    const failed = await list({ status: 'Failed', per_page: 1 });
    const next = await list({ status: 'Failed', per_page: 1, page: 2, cursor: failed.body.next_cursor });
    expect(ids(next)).toEqual([id.fay]);
    expect(ids(await list({ status: 'Failed', per_page: 1, prev_cursor: next.body.prev_cursor }))).toEqual([id.bob]);
    // one step at a time: both cursors at once, or a prev_cursor we did not write, are refused
    const both = await list({ cursor: failed.body.next_cursor, prev_cursor: next.body.prev_cursor });
    expect(both.status).toBe(400);
    expect(both.body.fields.prev_cursor).toEqual(['Send cursor or prev_cursor, not both']);
    const forged = await list({ prev_cursor: Buffer.from('2026-02-30 10:00:00|1').toString('base64url') });
    expect(forged.status).toBe(400);
    expect(forged.body.fields.prev_cursor).toEqual(['cursor is not valid']);
  });

  it('answers an unfiltered list the same when its page runs prepared (page 1, a cursor, web sizes)', async () => {
    const ids = (r: { body: { transactions: { data: { id: number }[] } } }) =>
      r.body.transactions.data.map((x) => x.id);
    for (const [who, sort] of [
      ['admin', 'DESC'],
      ['admin', 'ASC'],
      ['merchant', 'DESC'],
    ] as const) {
      // per_page 11 is no page size of the web's: planned each time; 10 (PAGE_SIZES) runs prepared
      const planned = await list({ 'sort-by': sort, per_page: 11 }, who);
      // more than five runs: PostgreSQL's own plan for the prepared statement (a generic one) answers too
      for (let i = 0; i < 7; i++) {
        const prepared = await list({ 'sort-by': sort, per_page: 10 }, who);
        expect(prepared.body.transactions).toEqual(planned.body.transactions);
      }
      const third = await list({ 'sort-by': sort, per_page: 3 }, who);
      const after = await list({ 'sort-by': sort, per_page: 10, page: 2, cursor: third.body.next_cursor }, who);
      expect(ids(after)).toEqual(ids(planned).slice(3));
      expect(after.body.transactions.data).toEqual(planned.body.transactions.data.slice(3));
      const before = await list({ 'sort-by': sort, per_page: 10, prev_cursor: after.body.prev_cursor }, who);
      expect(before.body.transactions.data).toEqual(planned.body.transactions.data.slice(0, 3));
    }
  });

  it('refuses bad input with the field and its message, and changes nothing', async () => {
    const cases: [object, string, string][] = [
      [{ amount: -1 }, 'amount', 'Amount must be 0 or more'],
      [{ amount: '12.5' }, 'amount', 'Amount must be a whole number of cents'],
      [{ amount: 'abc' }, 'amount', 'Amount must be a whole number of cents'],
      [{ start_date: '2026-02-30' }, 'start_date', 'Date must be a valid date (YYYY-MM-DD)'],
      [{ end_date: '23/11/2026' }, 'end_date', 'Date must be a valid date (YYYY-MM-DD)'],
      [{ start_date: tomorrow }, 'start_date', 'Date must not be after today'],
      [{ status: 'Lost' }, 'status', 'status must be Completed, Pending, Failed or Processing'],
      [{ page: 0 }, 'page', 'page must be at least 1'],
      [{ page: true }, 'page', 'page must be a number'],
      [{ page: [2] }, 'page', 'page must be a number'],
      [{ per_page: 100000 }, 'per_page', 'per_page must be at most 100'],
      [{ 'sort-by': 'sideways' }, 'sort-by', 'sort must be DESC or ASC'],
      [{ tz: 'Mars/Olympus' }, 'tz', 'tz must be a valid IANA time zone'],
      [{ cursor: 'bm9wZQ' }, 'cursor', 'cursor is not valid'],
      [{ prev_cursor: 'bm9wZQ' }, 'prev_cursor', 'cursor is not valid'],
      [{ prev_cursor: 'x'.repeat(201) }, 'prev_cursor', 'cursor is not valid'],
    ];
    for (const [body, field, message] of cases) {
      const r = await list(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.fields[field], JSON.stringify(body)).toEqual([message]);
    }
  });

  it('needs a session and the view permission', async () => {
    expect((await t.post('/api/payout-transactions', {})).status).toBe(401);
    expect((await list({}, 'reviewer')).status).toBe(200);
  });
});

describe('POST /api/transaction-details', () => {
  it('answers the details, with the failure message of a failed payout', async () => {
    const r = await t.post('/api/transaction-details', { id: id.bob }, tok.merchant);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      merchant_transaction_id: 'MT-2',
      intergiro_trx_id: 'PRV-2',
      beneficiary_name: 'Bob Jones',
      brand: 'Acme Payouts',
      account_id: '100000002',
      reference: 'REF-2',
      currency: 'EUR',
      amount: 2500,
      status: 'Failed',
      failed_transaction: { message: 'Wallet is closed' },
    });
    const fay = await t.post('/api/transaction-details', { id: id.fay }, tok.brand);
    expect(fay.body.failed_transaction).toEqual({ message: '' });
    const alice = await t.post('/api/transaction-details', { id: id.alice }, tok.merchant);
    expect(alice.body.failed_transaction).toBeNull();
  });

  it("answers 404 for another tenant's payout exactly as for none, and 400 for a bad id", async () => {
    const other = await t.post('/api/transaction-details', { id: id.zed }, tok.merchant);
    const none = await t.post('/api/transaction-details', { id: 99_999_999 }, tok.merchant);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(none.body);
    expect((await t.post('/api/transaction-details', { id: id.alice }, tok.brand)).status).toBe(404);
    expect((await t.post('/api/transaction-details', { id: 'x' }, tok.merchant)).status).toBe(400);
    expect((await t.post('/api/transaction-details', {}, tok.merchant)).body.fields.id).toEqual([
      'This field is required',
    ]);
    expect((await t.post('/api/transaction-details', { id: 2 ** 60 }, tok.merchant)).status).toBe(400);
  });
});

describe('POST /api/brand-list', () => {
  it('lists the brands of the caller’s scope under {brand}', async () => {
    const all = await t.post('/api/brand-list', {}, tok.admin);
    expect(all.body.brand.map((b: { name: string }) => b.name)).toEqual(['Acme Brand', 'Globex Outlet']);
    expect((await t.post('/api/brand-list', {}, tok.merchant)).body.brand).toEqual([
      { id: id.brand, name: 'Acme Brand' },
    ]);
    expect((await t.post('/api/brand-list', {}, tok.brand)).body.brand).toEqual([{ id: id.brand, name: 'Acme Brand' }]);
    expect((await t.post('/api/brand-list', {}, tok.merchant2)).body.brand).toEqual([
      { id: id.brand2, name: 'Globex Outlet' },
    ]);
  });
});

describe('POST /api/completed-transactions', () => {
  const completed = (body: object, who = 'merchant') =>
    t.post('/api/completed-transactions', { status: 'Completed', ...body }, tok[who]);

  it('lists only Completed payouts with the batch fee, and totals the fees once per batch', async () => {
    const r = await completed({});
    expect(r.status).toBe(200);
    expect(names(r)).toEqual(['=HYPERLINK("http://evil","x")', 'Alice Smith', 'Dan Brown']);
    const alice = r.body.transactions.data.find((x: { id: number }) => x.id === id.alice);
    expect(alice).toMatchObject({ batch_id: 'B-ONE', batch_fee: 300, fee: 0, amount: 1000 });
    const dan = r.body.transactions.data.find((x: { id: number }) => x.id === id.dan);
    expect(dan).toMatchObject({ batch_id: 'M-ONE', batch_fee: 0, fee: 30 });
    // batch B-ONE's fee once (300) and the manual payout's own fee (30)
    expect(r.body.fee).toEqual({ total_eur_fee: '3.30', total_cent_fee: 330 });
  });

  it('filters by brand, batch and dates, in scope', async () => {
    const b = await completed({ batch_id: 'B-ONE' });
    expect(names(b)).toEqual(['=HYPERLINK("http://evil","x")', 'Alice Smith']);
    expect(b.body.fee.total_cent_fee).toBe(300);
    expect(names(await completed({ brand: 'Acme Brand' }))).toEqual(['Dan Brown']);
    expect((await completed({ brand: 'Acme Brand' })).body.fee.total_cent_fee).toBe(30);
    expect(names(await completed({ start_date: daysAgo(3) }))).toEqual(['Alice Smith']);
    expect((await completed({ batch_id: 'B-TWO' })).body).toMatchObject({
      transactions: { data: [], total: 0 },
      fee: { total_cent_fee: 0, total_eur_fee: '0.00' },
    });
    const staff = await completed({}, 'admin');
    expect(staff.body.transactions.total).toBe(4);
    expect(staff.body.fee.total_cent_fee).toBe(1330);
  });

  it('refuses another status and bad paging', async () => {
    expect((await completed({ status: 'Failed' })).status).toBe(400);
    expect((await completed({ per_page: -1 })).status).toBe(400);
    expect((await completed({ batch_id: 'x'.repeat(65) })).status).toBe(400);
  });
});

describe('POST /api/batch-history', () => {
  const history = (body: object, who = 'merchant') =>
    t.post('/api/batch-history', { per_page: 10, page: 1, ...body }, tok[who]);

  it("lists an executed batch's payouts with their reasons, and filters by status and amount", async () => {
    const r = await history({ batch_id: 'B-ONE' });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    expect(r.body.batch).toMatchObject({
      batch_id: 'B-ONE',
      file_name: 'b-one.csv',
      batch_status: 'Completed',
      merchant_name: 'Acme Payouts',
    });
    expect(r.body.data.map((x: { merchant_transaction_id: string }) => x.merchant_transaction_id)).toEqual([
      'MT-1',
      'MT-2',
      'MT-3',
    ]);
    expect(r.body.data[1]).toMatchObject({
      status: 'Failed',
      failed_transaction: { message: 'Wallet is closed' },
      intergiro_trx_id: 'PRV-2',
      account_id: '100000002',
      currency: 'EUR',
    });
    expect((await history({ batch_id: 'B-ONE', status: 'completed' })).body.total).toBe(2);
    expect((await history({ batch_id: 'B-ONE', status: 'failed' })).body.total).toBe(1);
    expect((await history({ batch_id: 'B-ONE', status: 'pending' })).body.total).toBe(0);
    const range = await history({ batch_id: 'B-ONE', min_amount: 600, max_amount: 2500 });
    expect(range.body.data.map((x: { amount: number }) => x.amount)).toEqual([1000, 2500]);
    expect((await history({ batch_id: 'B-ONE', per_page: 2, page: 2 })).body.data).toHaveLength(1);
  });

  it('lists a staged batch from its rows: Pending, or Failed with the reasons', async () => {
    const r = await history({ batch_id: 'B-STAGED' });
    expect(r.body.total).toBe(2);
    expect(r.body.data[1]).toMatchObject({
      status: 'Failed',
      amount: null,
      failed_transaction: { message: 'Must be greater than 0; Invalid Obol Id' },
    });
    expect((await history({ batch_id: 'B-STAGED', status: 'pending' })).body.total).toBe(1);
  });

  it("answers 402 for a batch still being staged, 404 for another tenant's, 400 for bad filters", async () => {
    const busy = await history({ batch_id: 'B-BUSY' });
    expect(busy.status).toBe(402);
    expect(busy.body.error).toEqual(['Batch is in processing state.']);
    expect((await history({ batch_id: 'B-TWO' })).status).toBe(404);
    expect((await history({ batch_id: 'B-ONE' }, 'brand')).status).toBe(404);
    expect((await history({ batch_id: 'B-TWO' }, 'admin')).status).toBe(200);
    const bad = await history({ batch_id: 'B-ONE', min_amount: 5, max_amount: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.min_amount).toEqual(['Min amount must not be above max amount']);
    expect((await history({ batch_id: 'B-ONE', min_amount: -5 })).body.fields.min_amount).toEqual([
      'Amount must be 0 or more',
    ]);
    expect((await history({})).body.fields.batch_id).toEqual(['This field is required']);
    expect((await history({ batch_id: 'B-ONE', status: 'Lost' })).status).toBe(400);
  });
});

describe('exports and the download lists', () => {
  const files = (body: object, who = 'merchant') =>
    t.post('/api/download-files', { per_page: 20, page: 1, type: 0, ...body }, tok[who]);
  const download = (fileId: number, who = 'merchant') =>
    t.app.inject({
      method: 'GET',
      url: `/api/download-file/${fileId}`,
      headers: { authorization: `Bearer ${tok[who]}` },
    });

  it('exports the filtered payouts of the caller’s scope as CSV, with formulas neutralised', async () => {
    const r = await t.post('/api/export-payout-transactions', { status: 'Completed', 'sort-buy': 'ASC' }, tok.merchant);
    expect(r.status).toBe(200);
    expect(r.body.message).toEqual(['Process is running in the background. Please wait.']);
    expect(r.body.file).toMatchObject({ status: 'Initiated', is_download: 0, is_report: 0, format: 'csv' });
    const listed = await files({});
    expect(listed.body.data[0]).toMatchObject({ id: r.body.file.id, status: 'Initiated', is_download: 0 });
    expect((await download(r.body.file.id)).statusCode).toBe(409);

    await runExport(t.deps, r.body.file.id);
    const done = (await files({})).body.data[0];
    expect(done).toMatchObject({ id: r.body.file.id, status: 'Completed', is_download: 1, rows: 3 });

    const d = await download(r.body.file.id);
    expect(d.statusCode).toBe(200);
    expect(d.headers['content-type']).toContain('text/csv');
    expect(d.headers['content-disposition']).toMatch(/^attachment; filename="payout-transactions-.*\.csv"$/);
    const lines = d.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^ID,Beneficiary Name,Brand,/);
    expect(lines).toHaveLength(4);
    // oldest first, as asked; no other merchant's payout
    expect(lines[1]).toContain('Dan Brown');
    expect(lines[2]).toContain('Alice Smith');
    expect(d.body).not.toContain('Zed Other');
    // a cell a spreadsheet would run as a formula starts with an apostrophe
    expect(lines[3]).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(lines[3]).toContain(`"'+REF-3"`);
    expect(lines[1]).toContain(',20.00,0.30,Completed,');
  });

  it('exports XLSX on request, as text cells', async () => {
    const r = await t.post(
      '/api/export-completed-transactions',
      { status: 'Completed', batch_id: 'B-ONE', format: 'xlsx' },
      tok.merchant,
    );
    expect(r.status).toBe(200);
    await runExport(t.deps, r.body.file.id);
    const d = await download(r.body.file.id);
    expect(d.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(d.rawPayload as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(1).value).toBe('Batch ID');
    const cells = [2, 3].map((n) => ws.getRow(n).getCell(2).value);
    expect(cells).toContain(`'=HYPERLINK("http://evil","x")`);
    expect(ws.getRow(2).getCell(4).value).toBe(3);
    expect(ws.rowCount).toBe(3);
  });

  it("exports one batch's history, and the date range of a payout export shows in the list", async () => {
    const h = await t.post('/api/export-batch-history', { batch_id: 'B-ONE', status: 'failed' }, tok.merchant);
    await runExport(t.deps, h.body.file.id);
    const body = (await download(h.body.file.id)).body;
    expect(body).toContain('Bob Jones');
    expect(body).toContain('Wallet is closed');
    expect(body).not.toContain('Alice Smith');
    expect((await t.post('/api/export-batch-history', { batch_id: 'B-TWO' }, tok.merchant)).status).toBe(404);
    expect((await t.post('/api/export-batch-history', { batch_id: 'B-BUSY' }, tok.merchant)).status).toBe(402);

    const p = await t.post(
      '/api/export-payout-transactions',
      { end_date: daysAgo(2), start_date: daysAgo(4) },
      tok.merchant,
    );
    expect(p.body.file).toMatchObject({ start_date: daysAgo(4), end_date: daysAgo(2) });
    await runExport(t.deps, p.body.file.id);
    const names2 = (await download(p.body.file.id)).body;
    expect(names2).toContain('Bob Jones');
    expect(names2).not.toContain('Eve Adams');
  });

  it('keeps files to their tenant: another merchant, a brand and staff neither list nor download them', async () => {
    const mine = (await files({})).body.data.map((f: { id: number }) => f.id);
    expect(mine.length).toBeGreaterThan(0);
    expect((await files({}, 'riskops')).body.data.map((f: { id: number }) => f.id)).toEqual(mine);
    for (const who of ['merchant2', 'admin', 'brand']) {
      expect((await files({}, who)).body.data.filter((f: { id: number }) => mine.includes(f.id))).toEqual([]);
      expect((await download(mine[0], who)).statusCode).toBe(404);
    }
    // a brand's own export is its own, and its merchant's
    const b = await t.post('/api/export-payout-transactions', {}, tok.brand);
    await runExport(t.deps, b.body.file.id);
    const csv = (await download(b.body.file.id, 'brand')).body;
    expect(csv).toContain('Dan Brown');
    expect(csv).not.toContain('Alice Smith');
    expect((await download(b.body.file.id, 'merchant')).statusCode).toBe(200);
    expect((await download(b.body.file.id, 'merchant2')).statusCode).toBe(404);
  });

  it('searches by file name or date, pages by 20, and keeps reports apart', async () => {
    const all = await files({});
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    expect(
      (await files({ search: 'batch-transactions' })).body.data.every((f: { file_name: string }) =>
        f.file_name.startsWith('batch-transactions'),
      ),
    ).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await files({ search: today })).body.total).toBe(all.body.total);
    expect((await files({ search: '1999-01-01' })).body.total).toBe(0);
    expect((await files({ per_page: 1, page: 2 })).body.data).toHaveLength(1);
    expect((await files({ type: 1 })).body).toEqual({ data: [], total: 0 });
    expect((await files({ type: 2 })).status).toBe(400);
    expect((await files({ page: 0 })).status).toBe(400);
    expect((await download(0)).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/download-file/abc',
          headers: { authorization: `Bearer ${tok.merchant}` },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('needs the export permission to export, and refuses bad filters before starting a job', async () => {
    const r = await t.post('/api/export-payout-transactions', {}, tok.reviewer);
    expect(r.status).toBe(403);
    const before = (await files({})).body.total;
    const bad = await t.post('/api/export-payout-transactions', { start_date: tomorrow }, tok.merchant);
    expect(bad.status).toBe(400);
    expect(bad.body.fields.start_date).toEqual(['Date must not be after today']);
    expect((await t.post('/api/export-payout-transactions', { format: 'pdf' }, tok.merchant)).status).toBe(400);
    expect((await files({})).body.total).toBe(before);
  });

  it('marks a file Failed when its export cannot be written; a rerun of a finished file changes nothing', async () => {
    const r = await t.post('/api/export-payout-transactions', {}, tok.merchant);
    await t.deps.db.execute(sql`UPDATE download_files SET kind = 'nonsense' WHERE id = ${r.body.file.id}`);
    await runExport(t.deps, r.body.file.id);
    expect((await files({})).body.data.find((f: { id: number }) => f.id === r.body.file.id).status).toBe('Failed');
    const escape = await t.post('/api/export-payout-transactions', {}, tok.merchant);
    await t.deps.db.execute(
      sql`UPDATE download_files SET storage_key = '../escape.csv' WHERE id = ${escape.body.file.id}`,
    );
    await runExport(t.deps, escape.body.file.id);
    const failed = (await files({})).body.data.find((f: { id: number }) => f.id === escape.body.file.id);
    expect(failed).toMatchObject({ status: 'Failed', is_download: 0 });
    expect((await download(escape.body.file.id)).statusCode).toBe(409);
    const ok = await t.post('/api/export-payout-transactions', {}, tok.merchant);
    await runExport(t.deps, ok.body.file.id);
    const first = (await download(ok.body.file.id)).body;
    await runExport(t.deps, ok.body.file.id);
    expect((await download(ok.body.file.id)).body).toBe(first);
  });
});

describe('totals of long lists', () => {
  it('counts exactly up to 10,000 rows and above that answers an estimate, marked as one', async () => {
    // 10,050 more payouts of the second merchant, older than every other one (this describe runs last)
    const acc = await account(id.merchant2);
    await t.deps.db.execute(sql`
      INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type,
        merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status,
        idempotency_key, created_at, updated_at)
      SELECT ${id.merchant2}, ${id.merchant2}, ${acc}, ${id.merchant2}, NULL, 'manual', 'BULK-' || i, 'Bulk ' || i,
        'Globex Trading', '2' || lpad(i::text, 8, '0'), 'R-' || i, 100, 0, 150,
        CASE WHEN i % 2 = 0 THEN 'completed' ELSE 'pending' END, 'bulk:' || i,
        now() - interval '30 days' - make_interval(secs => i), now() - interval '30 days' - make_interval(secs => i)
      FROM generate_series(1, 10050) i`);
    await t.deps.db.execute(sql`ANALYZE payouts`);
    const staff = await list({ per_page: 10 });
    expect(staff.body.transactions.total_estimated).toBe(true);
    // never less than what was counted; the planner's figure is near the truth (10,057)
    expect(staff.body.transactions.total).toBeGreaterThan(10_000);
    expect(staff.body.transactions.total).toBeLessThan(20_000);
    // the first merchant's list and a filtered one are small: exact
    expect((await list({}, 'merchant')).body.transactions).toMatchObject({ total: 6, total_estimated: false });
    const pending = await list({ status: 'Pending' }, 'merchant2');
    expect(pending.body.transactions).toMatchObject({ total: 5025, total_estimated: false });
    // the completed list is marked the same way
    const done = await t.post('/api/completed-transactions', { status: 'Completed' }, tok.admin);
    expect(done.body.transactions).toMatchObject({ total: 5029, total_estimated: false });
    // the last pages by number still read by offset, and a step by cursor goes on from any of them
    const last = await list({ per_page: 10, page: 1006 });
    expect(
      last.body.transactions.data.map((r: { merchant_transaction_id: string }) => r.merchant_transaction_id),
    ).toEqual(Array.from({ length: 7 }, (_, i) => `BULK-${10044 + i}`));
    const back = await list({ per_page: 10, page: 1005, prev_cursor: last.body.prev_cursor });
    expect(back.body.transactions.data.at(-1).merchant_transaction_id).toBe('BULK-10043');
  });

  // over the 10,050 payouts the test above added
  it('counts a list above the cap once in ten seconds: the next pages answer the estimate uncounted', async () => {
    // the same database, seen through a wrapper that notes the counts it is asked for
    // (by execute, and by the session's prepareQuery for a page run prepared: executeNamed)
    const counts: string[] = [];
    const note = (text: string) => text.includes('count(*)') && counts.push(text);
    const session = new Proxy(t.deps.db._.session, {
      get(target, key) {
        const v = Reflect.get(target, key, target);
        if (key !== 'prepareQuery') return typeof v === 'function' ? v.bind(target) : v;
        return (q: { sql: string }, ...rest: unknown[]) => (note(q.sql), v.call(target, q, ...rest));
      },
    });
    const db = new Proxy(t.deps.db, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver);
        if (key === '_') return { ...v, session };
        if (key !== 'execute') return typeof v === 'function' ? v.bind(target) : v;
        return (q: Parameters<typeof target.execute>[0]) => {
          note(JSON.stringify(q));
          return target.execute(q);
        };
      },
    });
    // the filters as the route parses a body that sets none
    const noFilters = transactionOps.payoutTransactions.input.parse({});
    const page = (n: number) => listPayouts(db, { kind: 'all' }, noFilters, 'DESC', { page: n, perPage: 10 });
    const first = await page(1);
    expect(counts).toHaveLength(1);
    expect(first.transactions).toMatchObject({ total_estimated: true });
    expect(first.transactions.total).toBeGreaterThan(10_000);
    const second = await page(2);
    expect(counts).toHaveLength(1);
    expect(second.transactions.total).toBe(first.transactions.total);
    expect(second.transactions.total_estimated).toBe(true);
    // a small list is counted every time: exact figures are never kept
    const small = () =>
      listPayouts(db, { kind: 'merchant', merchantId: id.merchant }, noFilters, 'DESC', { page: 1, perPage: 2 });
    expect((await small()).transactions).toMatchObject({ total: 6, total_estimated: false });
    expect((await small()).transactions).toMatchObject({ total: 6, total_estimated: false });
    expect(counts).toHaveLength(3);
  });
});
