import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAYMENT_MSG, validateRow, type RawRow } from '@obol/contract';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestApp, type TestApp } from '../../test/harness.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderAccounts } from '../ledger/accounts.ts';
import { payouts } from '../payouts/tables.ts';
import { readRowBatches } from './parse.ts';
import { uploadKey } from './service.ts';
import { STAGE_ROWS, stageBatch } from './stage.ts';
import { stagedIdOf } from './staged-ids.ts';
import { batches, stagedTransactions } from './tables.ts';

// Staging writes a file in chunks (1,000 rows a statement on PGlite, 5,000 on PostgreSQL) and marks the
// duplicates of merchant transaction ids partly in JavaScript (within a chunk) and partly in the database (earlier
// chunks, the merchant's payouts, its other open batches): every row must come out as validateRow says, the file
// read in order with everything before the row known.
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';
const CHUNK = STAGE_ROWS[engine];
let t: TestApp;
let merchantId: number;
let accountId: number;

beforeAll(async () => {
  t = await startTestApp();
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  accountId = (await holderAccounts(t.deps.db, merchantId)).payout!.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The id staging gives row `rowNumber` of the batch (its range of ids: stagedIdOf). */
const idOf = async (batchId: string, rowNumber: number) => {
  const [b] = await t.deps.db.select({ seq: batches.seq }).from(batches).where(eq(batches.batchId, batchId));
  return stagedIdOf(b.seq, rowNumber);
};

async function newBatch(csv: string, status = 'Processing') {
  const batchId = `ST${randomUUID().slice(0, 8).toUpperCase()}`;
  const w = await t.deps.files.create(uploadKey(batchId, 'csv'));
  w.stream.end(Buffer.from(csv));
  await w.commit();
  await t.deps.db.insert(batches).values({
    batchId,
    merchantId,
    behalfOfId: merchantId,
    accountId,
    uploadedBy: merchantId,
    payoutType: 'Batch Payout',
    fileName: 'stage.csv',
    fileFormat: 'csv',
    status,
  });
  return batchId;
}

/** The rows staged for a batch, in the file's order. */
const stagedRowsOf = (batchId: string) =>
  t.deps.db
    .select()
    .from(stagedTransactions)
    .where(eq(stagedTransactions.batchId, batchId))
    .orderBy(asc(stagedTransactions.rowNumber));

const line = (v: RawRow) =>
  [v.beneficiary_name, v.obol_id, v.merchant_transaction_id, v.brand, v.reference, v.amount].join(',');

describe('staging a file of several chunks', () => {
  it('marks every duplicate id as validateRow would: in the file (same chunk or an earlier one) before taken', async () => {
    const tag = `D${randomUUID().slice(0, 6)}`;
    const paid = `${tag}-PAID`;
    const open = `${tag}-OPEN`;
    const openFailed = `${tag}-OPENF`;
    // taken: a payout of the merchant, and an executable row of another of its batches awaiting execution
    await t.deps.db.insert(payouts).values({
      merchantId,
      behalfOfId: merchantId,
      accountId,
      createdBy: merchantId,
      merchantTransactionId: paid,
      beneficiaryName: 'Ana',
      brand: 'Acme Brand',
      obolId: '100000001',
      reference: 'r',
      amount: 100,
      fee: 0,
      feeBps: 0,
      status: 'completed',
      idempotencyKey: `${tag}-paid`,
    });
    const other = await newBatch(`${HEADER}\n`, 'Pending');
    await t.deps.db.insert(stagedTransactions).values([
      { id: await idOf(other, 2), batchId: other, rowNumber: 2, merchantTransactionId: open, status: 'Pending' },
      { id: await idOf(other, 3), batchId: other, rowNumber: 3, merchantTransactionId: openFailed, status: 'Failed' },
    ]);

    const n = Math.round(CHUNK * 2.5);
    const long = 'L'.repeat(51);
    const rows: RawRow[] = [];
    for (let i = 0; i < n; i++) {
      let mtid = `${tag}-${i}`;
      if (i % 7 === 3) mtid = `${tag}-${i - 2}`; // repeated in the same chunk, mostly
      if (i % 97 === 50 && i > CHUNK) mtid = `${tag}-${i - CHUNK - 1}`; // from an earlier chunk
      if (i === 5 || i === CHUNK + 5) mtid = paid; // taken, then repeated in a later chunk
      if (i === 6 || i === 9) mtid = open; // taken, then repeated in the same chunk
      if (i === 7) mtid = openFailed; // not taken: that row cannot be executed
      if (i === 10 || i === CHUNK + 10) mtid = long; // an error of its own, never a duplicate
      if (i % 50 === 20) mtid = ''; // missing, never a duplicate
      rows.push({
        beneficiary_name: `Ana ${i}`,
        obol_id: '100000001',
        merchant_transaction_id: mtid,
        brand: i % 13 === 4 ? 'Unknown Brand' : 'Acme Brand',
        reference: `r${i}`,
        amount: i % 11 === 8 ? '-1' : String(100 + i),
      });
    }
    const batchId = await newBatch(`${HEADER}\n${rows.map(line).join('\n')}\n`);
    await stageBatch(t.deps, batchId);

    const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
    expect(b).toMatchObject({ status: 'Pending', totalRows: n, processedRows: n });
    const staged = await stagedRowsOf(batchId);
    expect(staged).toHaveLength(n);
    const brands = new Set(['acme brand', 'globex outlet']);
    const seen = new Set<string>();
    const taken = new Set([paid, open]);
    let marked = 0;
    staged.forEach((s, i) => {
      const values = rows[i];
      const mtid = values.merchant_transaction_id;
      const v = validateRow(values, { brands, duplicateInFile: seen.has(mtid), duplicateOfPayout: taken.has(mtid) });
      expect({ row: s.rowNumber, errors: s.errors, status: s.status, missing: s.missing, amount: s.amount }).toEqual({
        row: i + 2,
        errors: v.errors,
        status: v.status,
        missing: v.missing ? 1 : 0,
        amount: v.amount,
      });
      if (mtid && !validateRow(values).errors.merchant_transaction_id) seen.add(mtid);
      if (v.errors.merchant_transaction_id?.startsWith('Merchant transaction id')) marked += 1;
    });
    expect(marked).toBeGreaterThan(n / 10);
  }, 60_000);
});

describe('the values of a row', () => {
  it('are staged as the file gives them, whatever characters they hold', async () => {
    // a backslash, COPY's null marker, a tab, line breaks and quotes inside quoted cells, a non-Latin script
    const awkward = ['back\\slash', '\\N', 'tab\there', 'two\nlines', 'carriage\r\nreturn', 'say "hi"', 'Zoë 北京 👋'];
    const csvCell = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const lines = awkward.map((v, i) =>
      [csvCell(v), '100000001', csvCell(`${v}-${i}`), 'Acme Brand', csvCell(v), String(100 + i)].join(','),
    );
    const file = `${HEADER}\n${lines.join('\n')}\n`;
    const local = path.join(mkdtempSync(path.join(tmpdir(), 'obol-stage-')), 'awkward.csv');
    writeFileSync(local, file);
    const read = [];
    for await (const rows of readRowBatches(local, 'csv')) read.push(...rows);
    expect(read.map((r) => r.values.beneficiary_name)).toEqual(awkward);

    const batchId = await newBatch(file);
    await stageBatch(t.deps, batchId);
    const staged = await stagedRowsOf(batchId);
    expect(
      staged.map((s) => [s.beneficiaryName, s.merchantTransactionId, s.reference, s.amountText, s.amount]),
    ).toEqual(
      read.map((r, i) => [
        r.values.beneficiary_name,
        r.values.merchant_transaction_id,
        r.values.reference,
        r.values.amount,
        100 + i,
      ]),
    );
    expect(staged.map((s) => s.status)).toEqual(awkward.map(() => 'Pending'));

    // the same file again while the first awaits execution: the look-up finds each id, whatever it holds, as taken
    const again = await newBatch(file);
    await stageBatch(t.deps, again);
    const repeated = await stagedRowsOf(again);
    expect(repeated.map((s) => [s.status, s.errors])).toEqual(
      awkward.map(() => ['Failed', { merchant_transaction_id: PAYMENT_MSG.duplicateMtid }]),
    );
  });
});

describe("the chunk's look-up", () => {
  it.runIf(engine === 'pglite')(
    'keeps a plan that searches by index, whatever the tables held when it was made',
    async () => {
      // PGlite is one session: its plan cache is the one staging uses. The plan is made once (the generic plan) now,
      // with index reads priced as if sequential scans were the cheaper plan, as they are for tables of a few rows (a
      // new database): such a plan would be kept as the tables grow.
      const pglite = t.deps.database.pglite!;
      const mtid = `P${randomUUID().slice(0, 8)}`;
      const row = { beneficiary_name: 'Ana', obol_id: '100000001', brand: 'Acme Brand', reference: 'r', amount: '100' };
      await pglite.exec('SET plan_cache_mode = force_generic_plan; SET random_page_cost = 10000');
      let plan: string;
      try {
        await stageBatch(t.deps, await newBatch(`${HEADER}\n${line({ ...row, merchant_transaction_id: mtid })}\n`));
        const [{ generic, types }] = (
          await pglite.query<{ generic: number; types: string[] }>(
            `SELECT generic_plans AS generic, parameter_types::text[] AS types
           FROM pg_prepared_statements WHERE name = 'obol_stage_look_up'`,
          )
        ).rows;
        expect(Number(generic)).toBeGreaterThan(0);
        // the plan kept: EXPLAIN EXECUTE shows it and runs nothing (still forced to the generic plan, it makes
        // no other)
        const values = types.map((type) => ({ 'text[]': "'{}'", integer: '0', text: "'none'" })[type]);
        plan = (await pglite.exec(`EXPLAIN EXECUTE obol_stage_look_up(${values.join(', ')})`))[0].rows
          .map((r) => Object.values(r)[0])
          .join('\n');
      } finally {
        await pglite.exec('RESET plan_cache_mode; RESET random_page_cost');
      }
      expect(plan).toMatch(/Index (Only )?Scan using \w+ on payouts/);
      expect(plan).toMatch(/Index Scan using batches_pkey on batches/);
      expect(plan).toMatch(/Index Scan using staged_batch_mtid_idx on staged_transactions/);
      expect(plan).not.toMatch(/Seq Scan/);
    },
  );
});

describe('the batch a staged row belongs to', () => {
  it('must exist (checked per statement, on insert and on update), and is never deleted nor given another id', async () => {
    const batchId = await newBatch(`${HEADER}\n`);
    const row = { id: await idOf(batchId, 2), batchId, rowNumber: 2, status: 'Pending' };
    await t.deps.db.insert(stagedTransactions).values([row, { ...row, id: await idOf(batchId, 3), rowNumber: 3 }]);
    const ghost = `GHOST${randomUUID().slice(0, 8)}`;
    await expect(
      t.deps.db.insert(stagedTransactions).values([
        { ...row, id: await idOf(batchId, 4), rowNumber: 4 },
        { ...row, id: 1, batchId: ghost },
      ]),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23503' }) });
    await expect(
      t.deps.db.update(stagedTransactions).set({ batchId: ghost }).where(eq(stagedTransactions.batchId, batchId)),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23503' }) });
    await expect(t.deps.db.delete(batches).where(eq(batches.batchId, batchId))).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23503' }),
    });
    await expect(
      t.deps.db.update(batches).set({ batchId: ghost }).where(eq(batches.batchId, batchId)),
    ).rejects.toMatchObject({ cause: expect.objectContaining({ code: '23503' }) });
    // nothing of the refused statements stayed; the batch and its two rows did
    const rows = await t.deps.db.select().from(stagedTransactions).where(eq(stagedTransactions.batchId, batchId));
    expect(rows.map((r) => r.rowNumber).sort()).toEqual([2, 3]);
    expect(await t.deps.db.select().from(stagedTransactions).where(eq(stagedTransactions.batchId, ghost))).toEqual([]);
    // a batch with no rows at all is kept too
    const empty = await newBatch(`${HEADER}\n`);
    await expect(t.deps.db.delete(batches).where(eq(batches.batchId, empty))).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23503' }),
    });
    // other changes to a batch are not refused
    await t.deps.db.update(batches).set({ fileName: 'renamed.csv' }).where(eq(batches.batchId, batchId));
  });

  it('holds each row to its batch range, whether a statement is one batch or several', async () => {
    const a = await newBatch(`${HEADER}\n`);
    const b = await newBatch(`${HEADER}\n`);
    const row = (batchId: string, id: number) => ({ id, batchId, rowNumber: 2, status: 'Pending' });
    const refused = { cause: expect.objectContaining({ code: '23503' }) };
    // one batch, every id in its range, from its first to its last: one look-up of the batch
    await t.deps.db.insert(stagedTransactions).values([row(a, await idOf(a, 0)), row(a, await idOf(a, 99_999_999))]);
    // one batch id, but the last row in the next batch's range, or the first in the one before
    await expect(
      t.deps.db.insert(stagedTransactions).values([row(a, await idOf(a, 5)), row(a, await idOf(a, 100_000_000))]),
    ).rejects.toMatchObject(refused);
    await expect(
      t.deps.db.insert(stagedTransactions).values([row(a, (await idOf(a, 0)) - 1), row(a, await idOf(a, 6))]),
    ).rejects.toMatchObject(refused);
    // one batch id, every row in another batch's range
    await expect(
      t.deps.db.insert(stagedTransactions).values([row(a, await idOf(b, 2)), row(a, await idOf(b, 3))]),
    ).rejects.toMatchObject(refused);
    // two batches, each in its own range: checked row by row, and let in
    await t.deps.db.insert(stagedTransactions).values([row(a, await idOf(a, 7)), row(b, await idOf(b, 7))]);
    // two batches, one row in the other's range
    await expect(
      t.deps.db.insert(stagedTransactions).values([row(a, await idOf(a, 8)), row(b, await idOf(a, 9))]),
    ).rejects.toMatchObject(refused);
    // an update that moves one batch's last row past its range
    await expect(
      t.deps.db
        .update(stagedTransactions)
        .set({ id: sql`${stagedTransactions.id} + 50` })
        .where(eq(stagedTransactions.batchId, a)),
    ).rejects.toMatchObject(refused);
    // an update of no row at all is no refusal
    await t.deps.db.update(stagedTransactions).set({ brand: 'x' }).where(eq(stagedTransactions.batchId, 'NO-SUCH'));
    const kept = await t.deps.db
      .select({ id: stagedTransactions.id, batchId: stagedTransactions.batchId })
      .from(stagedTransactions)
      .where(sql`${stagedTransactions.batchId} IN (${a}, ${b})`)
      .orderBy(asc(stagedTransactions.id));
    expect(kept).toEqual([
      { id: await idOf(a, 0), batchId: a },
      { id: await idOf(a, 7), batchId: a },
      { id: await idOf(a, 99_999_999), batchId: a },
      { id: await idOf(b, 7), batchId: b },
    ]);
  });
});
