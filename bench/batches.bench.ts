/**
 * Batch staging and execution at scale: a CSV of N payout rows (default 100,000) is streamed, validated and
 * staged in chunks, read back page by page, and executed into payouts; each step beside a bare INSERT of the
 * same rows in the same run, with the ratio (ours / bare). Peak memory growth is printed beside the bare
 * INSERT's own, to show the file is never held whole. PGlite keeps its data in a folder as `npm start` does
 * (BENCH_PGLITE=memory: in memory, where the data itself is memory the process holds).
 *
 *   npm run bench:batches [-- rows]     (DATABASE_URL=postgres://... adds PostgreSQL)
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateRow } from '@obol/contract';
import { sql } from 'drizzle-orm';
import { openDatabase, runMigrations, rowsOf, type Database } from '../apps/server/src/platform/db.ts';
import { benchDeps, fundedMerchant } from './fixtures.ts';
import { scratchPostgres } from './scratch.ts';
import { seedDemo, syncReferenceData } from '../apps/server/src/seed.ts';
import { platformAccountId } from '../apps/server/src/features/ledger/accounts.ts';
import { postEntry } from '../apps/server/src/features/ledger/service.ts';
import { batches } from '../apps/server/src/features/batches/tables.ts';
import { STAGED_ID_STRIDE } from '../apps/server/src/features/batches/staged-ids.ts';
import { executeBatch } from '../apps/server/src/features/batches/execute.ts';
import { stagedPage } from '../apps/server/src/features/batches/review.ts';
import { readRowBatches } from '../apps/server/src/features/batches/parse.ts';
import { uploadKey } from '../apps/server/src/features/batches/service.ts';
import { stageBatch } from '../apps/server/src/features/batches/stage.ts';
import { closeStagingReaders, warmStagingReader } from '../apps/server/src/features/batches/stage-reader.ts';

const N = Number(process.argv[2] ?? 100_000);
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

async function writeCsv(file: string, rows = N, idPrefix = 'BENCH') {
  const out = createWriteStream(file);
  out.write('beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\n');
  for (let i = 0; i < rows; i++) {
    const line = `Beneficiary ${i},1${String(i).padStart(8, '0')},${idPrefix}-${i},Acme Brand,Invoice ${i},${100 + (i % 900)}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

async function bench(label: string, database: Database, csv: string) {
  // the staging reader's spare thread, started as the server's job runner starts it (workers.ts)
  warmStagingReader();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-bench-'));
  await runMigrations(database);
  await syncReferenceData(database.db);
  await seedDemo(database.db, 'Bench@pass1');
  const deps = await benchDeps(database, dataDir);
  const jobs = deps.jobs;
  // enough money for the whole batch, through the ledger
  const { merchantId, account } = await fundedMerchant(database.db);
  // a batch of `file` waiting to be staged, as the upload route leaves it: the file in the store, the batch Processing
  const uploaded = async (file: string, rows: number, tag = '') => {
    const id = `BENCH${tag}${Date.now().toString(36).toUpperCase()}`;
    const stored = await deps.files.create(uploadKey(id, 'csv'));
    await pipeline(createReadStream(file), stored.stream);
    await stored.commit();
    await database.db.insert(batches).values({
      batchId: id,
      merchantId,
      behalfOfId: merchantId,
      accountId: account.id,
      uploadedBy: merchantId,
      payoutType: 'Batch Payout',
      fileName: path.basename(file),
      fileFormat: 'csv',
      status: 'Processing',
      totalRows: rows,
      feeBps: 150,
    });
    return id;
  };
  const batchId = await uploaded(csv, N);

  // the growth of the process's peak memory while `work` runs
  const growth = async (work: () => Promise<void>) => {
    peakRss = process.memoryUsage().rss;
    const before = peakRss;
    await work();
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    return peakRss - before;
  };
  // each timed step starts when no autovacuum is running (PostgreSQL starts one on a table a step has just filled), so
  // none pays for the work a step before it left behind
  const quiet = async () => {
    if (database.kind !== 'postgres') return;
    for (let i = 0; i < 600; i++) {
      const [{ n }] = rowsOf<{ n: number | string }>(
        await database.db.execute(
          sql`SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()`,
        ),
      );
      if (Number(n) === 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await quiet();
  // the longest the event loop was held meanwhile (on PGlite: the longest a request waited behind a chunk)
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let t = performance.now();
  const stagePeak = await growth(() => stageBatch(deps, batchId));
  const stageS = (performance.now() - t) / 1000;
  loop.disable();
  // a small file after it, as the next upload of a busy day: its reader is the thread the first job gave back
  const small = path.join(dataDir, 'small.csv');
  await writeCsv(small, 10, 'SMALL');
  const smallId = await uploaded(small, 10, 'S');
  t = performance.now();
  await stageBatch(deps, smallId);
  const smallMs = performance.now() - t;
  const [staged] = await database.db
    .select()
    .from(batches)
    .where(sql`batch_id = ${batchId}`);
  if (staged.status !== 'Pending') {
    // e.g. the file's read deadline passed on a machine too busy: say so rather than fail further on
    console.log(`\n${label}: staging ended ${staged.status}: ${staged.error ?? ''}`);
    await jobs.stop();
    rmSync(dataDir, { recursive: true, force: true });
    return;
  }

  // baseline: the same rows as bare INSERTs (unnest, 1,000 a statement), no validation, no indexes: every column
  // staging writes, with the values it writes for these rows (all valid: no errors, Pending, nothing missing)
  await database.db.execute(
    sql`CREATE TABLE bench_rows (batch_id text, row_number int, beneficiary_name text, obol_id text, merchant_transaction_id text, brand text, reference text, amount_text text, amount bigint, errors jsonb, status text, missing int)`,
  );
  await quiet();
  t = performance.now();
  const barePeak = await growth(async () => {
    for (let start = 0; start < N; start += 1000) {
      const idx = Array.from({ length: Math.min(1000, N - start) }, (_, k) => start + k);
      await database.db.execute(sql`INSERT INTO bench_rows SELECT ${batchId}, * FROM unnest(
      ${sql.param(idx.map((i) => i + 2))}::int[], ${sql.param(idx.map((i) => `Beneficiary ${i}`))}::text[], ${sql.param(idx.map((i) => `1${String(i).padStart(8, '0')}`))}::text[],
      ${sql.param(idx.map((i) => `BENCH-${i}`))}::text[], ${sql.param(idx.map(() => 'Acme Brand'))}::text[], ${sql.param(idx.map((i) => `Invoice ${i}`))}::text[],
      ${sql.param(idx.map((i) => String(100 + (i % 900))))}::text[], ${sql.param(idx.map((i) => 100 + (i % 900)))}::bigint[],
      ${sql.param(idx.map(() => '{}'))}::jsonb[], ${sql.param(idx.map(() => 'Pending'))}::text[], ${sql.param(idx.map(() => 0))}::int[])`);
    }
  });
  const bareS = (performance.now() - t) / 1000;

  // detail, not a baseline: where staging's time goes. The file read and checked with no database, and the
  // same bare INSERTs into a copy of staged_transactions (its indexes and its batch check, nothing looked up).
  const context = { brands: new Set(['acme brand']), duplicateInFile: false, duplicateOfPayout: false };
  t = performance.now();
  for await (const rows of readRowBatches(csv, 'csv', {}, 1000)) for (const r of rows) validateRow(r.values, context);
  const readS = (performance.now() - t) / 1000;
  await database.db.execute(sql`CREATE TABLE bench_staged (LIKE staged_transactions INCLUDING ALL)`);
  await database.db.execute(sql`CREATE TRIGGER bench_staged_batch AFTER INSERT ON bench_staged
    REFERENCING NEW TABLE AS staged_rows FOR EACH STATEMENT EXECUTE FUNCTION staged_transactions_batch_exists()`);
  await quiet();
  t = performance.now();
  for (let start = 0; start < N; start += 1000) {
    const idx = Array.from({ length: Math.min(1000, N - start) }, (_, k) => start + k);
    await database.db.execute(sql`INSERT INTO bench_staged
      (id, batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand, reference, amount_text, amount, errors, status, missing)
      SELECT ${staged.seq} * ${STAGED_ID_STRIDE}::bigint + r, ${batchId}, r, b, o, m, br, re, at, a, e, st, mi FROM unnest(
      ${sql.param(idx.map((i) => i + 2))}::int[], ${sql.param(idx.map((i) => `Beneficiary ${i}`))}::text[], ${sql.param(idx.map((i) => `1${String(i).padStart(8, '0')}`))}::text[],
      ${sql.param(idx.map((i) => `BENCH-${i}`))}::text[], ${sql.param(idx.map(() => 'Acme Brand'))}::text[], ${sql.param(idx.map((i) => `Invoice ${i}`))}::text[],
      ${sql.param(idx.map((i) => String(100 + (i % 900))))}::text[], ${sql.param(idx.map((i) => 100 + (i % 900)))}::bigint[],
      ${sql.param(idx.map(() => '{}'))}::jsonb[], ${sql.param(idx.map(() => 'Pending'))}::text[], ${sql.param(idx.map(() => 0))}::int[])
      AS u (r, b, o, m, br, re, at, a, e, st, mi)`);
  }
  const tableS = (performance.now() - t) / 1000;
  await database.db.execute(sql`DROP TABLE bench_staged`);

  // review page by page: the first and a deep page, each the median of a few reads
  const median = async (work: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await work();
      ms.push(performance.now() - t0);
    }
    return ms.sort((a, b) => a - b)[2];
  };
  const deepPage = Math.floor(N / 10);
  const first = await stagedPage(database.db, batchId, { page: 1, perPage: 10, search: '', status: '' });
  const firstMs = await median(() =>
    stagedPage(database.db, batchId, { page: 1, perPage: 10, search: '', status: '' }),
  );
  const deepMs = await median(() =>
    stagedPage(database.db, batchId, { page: deepPage, perPage: 10, search: '', status: '' }),
  );

  // execution: reserve the total (as confirm-batch does), then the job creates the payouts
  const total = rowsOf<{ s: string | number }>(
    await database.db.execute(sql`SELECT sum(amount) AS s FROM staged_transactions WHERE batch_id = ${batchId}`),
  )[0].s;
  await database.db.transaction(async (tx) => {
    await tx
      .update(batches)
      .set({ status: 'Processing', executedAt: new Date(), amount: Number(total) })
      .where(sql`batch_id = ${batchId}`);
    await postEntry(tx, {
      idempotencyKey: `bench:${batchId}:reserve`,
      kind: 'batch.reserve',
      postings: [
        { accountId: account.id, amount: -Number(total) },
        { accountId: await platformAccountId(tx, 'payout_clearing'), amount: Number(total) },
      ],
    });
  });
  t = performance.now();
  await executeBatch(deps, batchId);
  const execS = (performance.now() - t) / 1000;
  const [{ n }] = rowsOf<{ n: number | string }>(
    await database.db.execute(sql`SELECT count(*) AS n FROM payouts WHERE batch_id = ${batchId}`),
  );
  await database.db.execute(sql`CREATE TABLE bench_payouts (LIKE payouts INCLUDING DEFAULTS)`);
  t = performance.now();
  await database.db
    .execute(sql`INSERT INTO bench_payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type, merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key)
    SELECT ${merchantId}, ${merchantId}, ${account.id}, ${merchantId}, batch_id, 'batch', merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, 0, 150, 'in_flight', 'x' || row_number FROM staged_transactions WHERE batch_id = ${batchId}`);
  const bareExecS = (performance.now() - t) / 1000;

  const rate = (rows: number, s: number) => `${(rows / s).toFixed(0).padStart(8)} rows/s (${s.toFixed(2)} s)`;
  const pct = (ours: number, bare: number) => `${((100 * bare) / ours).toFixed(0)}% of bare`;
  console.log(
    `\n${label}: ${N.toLocaleString('en')} rows (staged ${first.pendingTransaction + first.failedTransaction}, payouts created ${Number(n)})`,
  );
  console.log(
    `  staging: stream, validate, insert   ${rate(N, stageS)}   ${pct(stageS, bareS)}   peak memory growth ${mb(stagePeak)}, event loop held at most ${(loop.max / 1e6).toFixed(0)} ms (p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms)`,
  );
  console.log(
    `  baseline: bare INSERT of the rows   ${rate(N, bareS)}              peak memory growth ${mb(barePeak)}`,
  );
  console.log(`  staging: a file of 10 rows after it   ${smallMs.toFixed(0).padStart(5)} ms`);
  console.log(`  detail: the file read and checked, no database   ${rate(N, readS)}   ${pct(readS, bareS)}`);
  console.log(
    `  detail: bare INSERT into staged_transactions' shape (indexes, batch check) ${rate(N, tableS)}   ${pct(tableS, bareS)}`,
  );
  console.log(
    `  review: first page ${firstMs.toFixed(1)} ms, page ${deepPage} ${deepMs.toFixed(1)} ms   deep/first ${(deepMs / firstMs).toFixed(2)}x`,
  );
  console.log(`  execution: payouts created         ${rate(Number(n), execS)}   ${pct(execS, bareExecS)}`);
  console.log(`  baseline: bare INSERT ... SELECT    ${rate(Number(n), bareExecS)}`);
  await jobs.stop();
  await closeStagingReaders();
  rmSync(dataDir, { recursive: true, force: true });
}

const work = mkdtempSync(path.join(tmpdir(), 'obol-bench-csv-'));
const csv = path.join(work, 'rows.csv');
await writeCsv(csv);
const inMemory = process.env.BENCH_PGLITE === 'memory';
const pgliteDir = path.join(work, 'pglite');
if (process.env.BENCH_SKIP_PGLITE !== '1') {
  const pglite = await openDatabase(inMemory ? {} : { dataDir: pgliteDir });
  await bench(inMemory ? 'PGlite (in memory)' : 'PGlite (data folder)', pglite, csv);
  await pglite.close();
}
if (process.env.DATABASE_URL) {
  const { database, drop } = await scratchPostgres(process.env.DATABASE_URL, 8);
  try {
    await bench('PostgreSQL', database, csv);
  } finally {
    await drop();
  }
} else console.log('\n(PostgreSQL skipped: set DATABASE_URL to include it)');
rmSync(work, { recursive: true, force: true });
clearInterval(sampler);
process.exit(0);
