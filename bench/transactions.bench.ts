/**
 * The transaction lists and exports at scale: N payouts (default 1,000,000) in N/1,000 batches, over two
 * merchants and their brands, a year of dates and every status. For each list, the server time of the first
 * and a deep page with common filters, beside the same query written by hand and run directly on the database;
 * then the seconds and peak memory growth of exporting all of them as CSV and XLSX, beside COPY of the same rows
 * (the ratio ours / COPY), and the longest the event loop was held meanwhile.
 *
 *   npm run bench:transactions [-- rows]     (DATABASE_URL=postgres://... adds PostgreSQL)
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import pino from 'pino';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { openDatabase, runMigrations, rowsOf, type Database } from '../apps/server/src/platform/db.ts';
import { scratchPostgres } from './scratch.ts';
import type { Deps } from '../apps/server/src/platform/deps.ts';
import type { AuthContext } from '../apps/server/src/platform/http.ts';
import { createFileStore } from '../apps/server/src/platform/files.ts';
import { createJobs } from '../apps/server/src/platform/jobs.ts';
import type { Scope } from '../apps/server/src/platform/scope.ts';
import { seedDemo, syncReferenceData, userIdByEmail } from '../apps/server/src/seed.ts';
import { holderAccounts } from '../apps/server/src/features/ledger/accounts.ts';
import { listCompleted, listPayouts } from '../apps/server/src/features/transactions/service.ts';
import { countQuery, pageQuery, payoutWhere } from '../apps/server/src/features/transactions/query.ts';
import { startTestApp } from '../apps/server/src/test/harness.ts';
import { batchHistory } from '../apps/server/src/features/transactions/history.ts';
import { PAYOUTS_EXPORT } from '../apps/server/src/features/transactions/exports.ts';
import type { PayoutFilters } from '../apps/server/src/features/transactions/query.ts';
import { listBatches } from '../apps/server/src/features/batches/list.ts';
import { runExport, startExport } from '../apps/server/src/features/downloads/service.ts';

const N = Number(process.argv[2] ?? 1_000_000);
const PER_BATCH = 1_000;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (x: number) => `${x.toFixed(1).padStart(8)} ms`;

const noFilters: PayoutFilters = {
  status: '',
  beneficiary_name: '',
  brand: '',
  behalf_of: '',
  uploaded_by: '',
  account_used: '',
  merchant_id: '',
  intergiro_trx_id: '',
  reference: '',
  obol_id: '',
  amount: null,
  start_date: '',
  end_date: '',
  tz: 'UTC',
};

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}
/** the best of three runs (the first warms caches) */
async function best(fn: () => Promise<unknown>): Promise<number> {
  let b = Infinity;
  for (let i = 0; i < 3; i++) b = Math.min(b, (await time(fn))[0]);
  return b;
}

async function seed(database: Database) {
  const db = database.db;
  const m1 = (await userIdByEmail(db, 'merchant@obol.example'))!;
  const b1 = (await userIdByEmail(db, 'brand@obol.example'))!;
  const m2 = (await userIdByEmail(db, 'merchant2@obol.example'))!;
  const b2 = (await userIdByEmail(db, 'brand2@obol.example'))!;
  const acc = async (u: number) => (await holderAccounts(db, u)).payout!.id;
  const [a1, ab1, a2, ab2] = [await acc(m1), await acc(b1), await acc(m2), await acc(b2)].map((n) =>
    sql.raw(String(n)),
  );
  const [m1s, b1s, m2s, b2s] = [m1, b1, m2, b2].map((n) => sql.raw(String(n)));
  const batches = Math.ceil(N / PER_BATCH);
  // batch k: merchant 1 for k % 10 < 7 (its brand for 0 and 1), else merchant 2 (its brand for 9)
  const holder = (k: SQL) =>
    sql`CASE WHEN ${k} % 10 IN (0, 1) THEN ${b1s} WHEN ${k} % 10 < 7 THEN ${m1s} WHEN ${k} % 10 = 9 THEN ${b2s} ELSE ${m2s} END`;
  const merchant = (k: SQL) => sql`CASE WHEN ${k} % 10 < 7 THEN ${m1s} ELSE ${m2s} END`;
  const account = (k: SQL) =>
    sql`CASE WHEN ${k} % 10 IN (0, 1) THEN ${ab1} WHEN ${k} % 10 < 7 THEN ${a1} WHEN ${k} % 10 = 9 THEN ${ab2} ELSE ${a2} END`;
  const brand = (k: SQL) =>
    sql`CASE WHEN ${k} % 10 IN (0, 1) THEN 'Acme Brand' WHEN ${k} % 10 < 7 THEN 'Acme Payouts' WHEN ${k} % 10 = 9 THEN 'Globex Outlet' ELSE 'Globex Trading' END`;
  const k = sql`k`;
  await db.execute(sql`
    INSERT INTO batches (batch_id, merchant_id, behalf_of_id, account_id, uploaded_by, payout_type, file_name, status, total_rows, amount, fee, fee_bps, executed_at, created_at, updated_at)
    SELECT 'BB' || k, ${merchant(k)}, ${holder(k)}, ${account(k)}, ${merchant(k)}, 'Batch Payout', 'bench-' || k || '.csv', 'Completed',
      ${sql.raw(String(PER_BATCH))}, 0, 500 + k % 1000, 150, now() - make_interval(secs => k * ${sql.raw(String(PER_BATCH * 31.5))}), now() - make_interval(secs => k * ${sql.raw(String(PER_BATCH * 31.5))}), now() - make_interval(secs => k * ${sql.raw(String(PER_BATCH * 31.5))})
    FROM generate_series(0, ${sql.raw(String(batches - 1))}) k`);
  const CHUNK = 50_000;
  const t = performance.now();
  for (let start = 0; start < N; start += CHUNK) {
    const end = Math.min(N, start + CHUNK) - 1;
    const bk = sql`(i / ${sql.raw(String(PER_BATCH))})`;
    await db.execute(sql`
      INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type, merchant_transaction_id,
        beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key, provider_id, failure_message, created_at, updated_at)
      SELECT ${merchant(bk)}, ${holder(bk)}, ${account(bk)}, ${merchant(bk)}, 'BB' || ${bk}, 'batch', 'MT' || i,
        'Beneficiary ' || i, ${brand(bk)}, '1' || lpad(i::text, 8, '0'), 'INV-' || i, 100 + i % 900, 0, 150,
        CASE i % 20 WHEN 0 THEN 'failed' WHEN 1 THEN 'pending' WHEN 2 THEN 'in_flight' ELSE 'completed' END,
        'bench:' || i, 'PRV' || i, CASE WHEN i % 40 = 0 THEN 'Wallet is closed' END,
        now() - make_interval(secs => i * 31.5), now() - make_interval(secs => i * 31.5)
      FROM generate_series(${sql.raw(String(start))}, ${sql.raw(String(end))}) i`);
    process.stdout.write(`\r  seeding payouts ${(end + 1).toLocaleString('en')} / ${N.toLocaleString('en')}`);
  }
  // as the nightly maintenance job does (PGlite has no autovacuum): index-only scans need the visibility map
  await db.execute(sql`VACUUM ANALYZE`);
  console.log(` (${((performance.now() - t) / 1000).toFixed(0)} s with every index)`);
  return { m1, b1 };
}

/** the `p` quantile of `xs` */
const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];

/**
 * The payout list's page 1 as a client gets it (the real app: session check, input and answer checks, JSON),
 * beside its page query run directly, in the same run (issue 21: goal <= 2x the page query at p95). The two are
 * timed alternately, one call each in turn (RUNS of each after a warm-up), so a pause of the machine or of the
 * process (a garbage collection, another process on the two cores) falls on both alike; p95 of a few hundred
 * calls timed one kind after the other moved between 1.2x and 5x from run to run on the same code.
 */
async function apiList(database: Database, staff: Scope) {
  const RUNS = 1000;
  const app = await startTestApp({}, { database });
  // answers as production holds them (stripped to their schema), not as the tests do (strict: every field walked)
  app.app.answerMode = 'strip';
  try {
    const token = await app.signIn('admin@obol.example', 'Bench@pass1');
    const where = payoutWhere(staff, noFilters);
    const post = (url: string, body: object) => async () => {
      const r = await app.post(url, body, token);
      if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text}`);
    };
    const api = post('/api/payout-transactions', { per_page: 10 });
    const direct = () => database.db.execute(pageQuery(where, 'DESC', 10, 0, null));
    for (let i = 0; i < 50; i++) {
      await api();
      await direct();
    }
    const apiMs: number[] = [];
    const directMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      apiMs.push((await time(api))[0]);
      directMs.push((await time(direct))[0]);
    }
    const figures: [string, number[]][] = [
      ['through the API: POST /api/payout-transactions, page 1', apiMs],
      ['its page query, run directly', directMs],
    ];
    const alone = async (fn: () => Promise<unknown>) => {
      for (let i = 0; i < 20; i++) await fn();
      const xs: number[] = [];
      for (let i = 0; i < 200; i++) xs.push((await time(fn))[0]);
      return xs;
    };
    const other: [string, number[]][] = [
      ['a bare count(*) of the same rows (200 runs)', await alone(() => database.db.execute(countQuery(where)))],
      ['a one-query route, POST /api/brand-list (200 runs)', await alone(post('/api/brand-list', {}))],
    ];
    console.log(
      `  ${`payout list, staff, no filter (${RUNS} runs each, alternated)`.padEnd(62)} ${'p50'.padStart(11)} ${'p95'.padStart(11)} ${'p99'.padStart(11)}`,
    );
    for (const [name, xs] of [...figures, ...other])
      console.log(`  ${name.padEnd(62)} ${ms(quantile(xs, 0.5))} ${ms(quantile(xs, 0.95))} ${ms(quantile(xs, 0.99))}`);
    const ratio = (p: number) => (quantile(apiMs, p) / quantile(directMs, p)).toFixed(1);
    console.log(`  API / page query: p50 ${ratio(0.5)}x, p95 ${ratio(0.95)}x (goal <= 2x), p99 ${ratio(0.99)}x`);
  } finally {
    await app.close();
  }
}

async function bench(label: string, database: Database, pgUrl?: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-bench-'));
  console.log(
    `\n${label}: ${N.toLocaleString('en')} payouts in ${Math.ceil(N / PER_BATCH).toLocaleString('en')} batches`,
  );
  await runMigrations(database);
  await syncReferenceData(database.db);
  await seedDemo(database.db, 'Bench@pass1');
  const { m1 } = await seed(database);
  const db = database.db;
  const staff: Scope = { kind: 'all' };
  const merchant: Scope = { kind: 'merchant', merchantId: m1 };
  const since = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const deep = Math.floor(N / 2 / 10); // page at half the rows, 10 a page
  const raw = (q: SQL) => db.execute(q);
  // NULLS LAST as the indexes are written: with plain DESC (NULLS FIRST) no index gives the order (docs/decisions/022)
  const PAYOUT_SQL = (where: SQL, offset: number) => sql`
    SELECT p.*, b.name AS behalf_of, u.name AS uploaded_by, a.name AS account_used
    FROM payouts p JOIN users b ON b.id = p.behalf_of_id JOIN users u ON u.id = p.created_by JOIN accounts a ON a.id = p.account_id
    WHERE ${where} ORDER BY p.updated_at DESC NULLS LAST, p.id DESC NULLS LAST LIMIT 10 OFFSET ${offset}`;
  const COUNT_SQL = (where: SQL) => sql`SELECT count(*) FROM payouts p WHERE ${where}`;

  const rows: [string, number, number][] = [];
  const measure = async (name: string, ours: () => Promise<unknown>, direct: () => Promise<unknown>) => {
    rows.push([name, await best(ours), await best(direct)]);
  };
  const page = (p: number, cursor?: string) => ({ page: p, perPage: 10, cursor });

  await measure(
    'payouts, staff, no filter, page 1',
    () => listPayouts(db, staff, noFilters, 'DESC', page(1)),
    () => Promise.all([raw(PAYOUT_SQL(sql`true`, 0)), raw(COUNT_SQL(sql`true`))]),
  );
  await measure(
    `payouts, staff, no filter, page ${deep.toLocaleString('en')} (offset)`,
    () => listPayouts(db, staff, noFilters, 'DESC', page(deep)),
    () => Promise.all([raw(PAYOUT_SQL(sql`true`, (deep - 1) * 10)), raw(COUNT_SQL(sql`true`))]),
  );
  const before = await listPayouts(db, staff, noFilters, 'DESC', page(deep - 1));
  await measure(
    `payouts, staff, no filter, page ${deep.toLocaleString('en')} (next-page cursor)`,
    () => listPayouts(db, staff, noFilters, 'DESC', page(deep, before.next_cursor!)),
    () => raw(PAYOUT_SQL(sql`true`, (deep - 1) * 10)),
  );
  const after = await listPayouts(db, staff, noFilters, 'DESC', page(deep + 1));
  await measure(
    `payouts, staff, no filter, page ${deep.toLocaleString('en')} (previous-page cursor)`,
    () => listPayouts(db, staff, noFilters, 'DESC', { ...page(deep), prevCursor: after.prev_cursor! }),
    () => raw(PAYOUT_SQL(sql`true`, (deep - 1) * 10)),
  );
  const monthCompleted = { ...noFilters, status: 'Completed', start_date: since(30), end_date: today };
  const monthWhere = sql`p.merchant_id = ${m1} AND p.status = 'completed' AND p.updated_at >= ${since(30)}::date AND p.updated_at < ${today}::date + 1`;
  await measure(
    'payouts, merchant, Completed in the last 30 days, page 1',
    () => listPayouts(db, merchant, monthCompleted, 'DESC', page(1)),
    () => Promise.all([raw(PAYOUT_SQL(monthWhere, 0)), raw(COUNT_SQL(monthWhere))]),
  );
  await measure(
    'payouts, merchant, Completed in the last 30 days, page 200',
    () => listPayouts(db, merchant, monthCompleted, 'DESC', page(200)),
    () => Promise.all([raw(PAYOUT_SQL(monthWhere, 1990)), raw(COUNT_SQL(monthWhere))]),
  );
  const brandFailed = { ...noFilters, status: 'Failed', brand: 'Acme Brand' };
  const brandWhere = sql`p.merchant_id = ${m1} AND p.status = 'failed' AND p.brand = 'Acme Brand'`;
  await measure(
    'payouts, merchant, brand + Failed, page 1',
    () => listPayouts(db, merchant, brandFailed, 'DESC', page(1)),
    () => Promise.all([raw(PAYOUT_SQL(brandWhere, 0)), raw(COUNT_SQL(brandWhere))]),
  );
  const mtid = `MT${Math.floor(N / 3)}`;
  await measure(
    'payouts, staff, merchant transaction id (exact)',
    () => listPayouts(db, staff, { ...noFilters, merchant_id: mtid }, 'DESC', page(1)),
    () =>
      Promise.all([
        raw(PAYOUT_SQL(sql`p.merchant_transaction_id = ${mtid}`, 0)),
        raw(COUNT_SQL(sql`p.merchant_transaction_id = ${mtid}`)),
      ]),
  );
  await measure(
    'payouts, staff, beneficiary name contains',
    () => listPayouts(db, staff, { ...noFilters, beneficiary_name: 'ciary 4242' }, 'DESC', page(1)),
    () =>
      Promise.all([
        raw(PAYOUT_SQL(sql`p.beneficiary_name ILIKE '%ciary 4242%'`, 0)),
        raw(COUNT_SQL(sql`p.beneficiary_name ILIKE '%ciary 4242%'`)),
      ]),
  );
  const completedWhereSql = sql`p.merchant_id = ${m1} AND p.status = 'completed'`;
  const feeSql = sql`SELECT (SELECT sum(fee) FROM payouts p WHERE ${completedWhereSql}) + (SELECT sum(fee) FROM batches WHERE batch_id IN (SELECT DISTINCT batch_id FROM payouts p WHERE ${completedWhereSql}))`;
  const cf = { status: 'Completed' as const, brand: '', batch_id: '', start_date: '', end_date: '', tz: 'UTC' };
  await measure(
    'completed, merchant, page 1 with fee totals',
    () => listCompleted(db, merchant, cf, page(1)),
    () => Promise.all([raw(PAYOUT_SQL(completedWhereSql, 0)), raw(COUNT_SQL(completedWhereSql)), raw(feeSql)]),
  );
  await measure(
    `completed, merchant, page ${Math.floor(deep / 2).toLocaleString('en')} with fee totals`,
    () => listCompleted(db, merchant, cf, page(Math.floor(deep / 2))),
    () =>
      Promise.all([
        raw(PAYOUT_SQL(completedWhereSql, (Math.floor(deep / 2) - 1) * 10)),
        raw(COUNT_SQL(completedWhereSql)),
        raw(feeSql),
      ]),
  );
  const batchId = `BB${Math.floor(N / PER_BATCH / 2)}`;
  const hist = { batch_id: batchId, status: '' as const, min_amount: null, max_amount: null };
  await measure(
    `history of one batch (${PER_BATCH} rows), last page`,
    () => batchHistory(db, staff, hist, { page: PER_BATCH / 10, perPage: 10 }),
    () =>
      Promise.all([
        raw(sql`SELECT * FROM payouts WHERE batch_id = ${batchId} ORDER BY id LIMIT 10 OFFSET ${PER_BATCH - 10}`),
        raw(sql`SELECT count(*) FROM payouts WHERE batch_id = ${batchId}`),
      ]),
  );
  const nb = Math.ceil(N / PER_BATCH);
  await measure(
    'batch list, staff, page 1',
    () => listBatches(db, staff, { page: 1, perPage: 10, search: '', status: '' }),
    () =>
      Promise.all([
        raw(sql`SELECT * FROM batches ORDER BY updated_at DESC, batch_id DESC LIMIT 10`),
        raw(sql`SELECT count(*) FROM batches`),
      ]),
  );
  await measure(
    `batch list, staff, last page`,
    () => listBatches(db, staff, { page: Math.ceil(nb / 10), perPage: 10, search: '', status: '' }),
    () =>
      Promise.all([
        raw(
          sql`SELECT * FROM batches ORDER BY updated_at DESC, batch_id DESC LIMIT 10 OFFSET ${(Math.ceil(nb / 10) - 1) * 10}`,
        ),
        raw(sql`SELECT count(*) FROM batches`),
      ]),
  );

  console.log(`  ${'list (best of 3)'.padEnd(62)} ${'ours'.padStart(11)} ${'direct SQL'.padStart(11)}`);
  for (const [name, ours, direct] of rows) console.log(`  ${name.padEnd(62)} ${ms(ours)} ${ms(direct)}`);
  await apiList(database, staff);

  // exports: every payout, as staff, through the export job; beside COPY of the same rows
  const log = pino({ level: 'silent' });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const jobs = await createJobs(database, log);
  const deps = { config, database, db, log, jobs, files: createFileStore(config) } as unknown as Deps;
  const admin = (await userIdByEmail(db, 'admin@obol.example'))!;
  const auth = { user: { id: admin }, scope: staff } as unknown as AuthContext;
  // baseline first: COPY of the same columns, joined and ordered alike, to a file
  const copySql = `COPY (SELECT p.id, p.beneficiary_name, p.brand, b.name, u.name, a.name, p.merchant_transaction_id, p.provider_id, p.reference, p.obol_id, p.batch_id, p.currency, p.amount, p.fee, p.status, p.failure_message, p.updated_at
    FROM payouts p JOIN users b ON b.id = p.behalf_of_id JOIN users u ON u.id = p.created_by JOIN accounts a ON a.id = p.account_id
    ORDER BY p.updated_at DESC, p.id DESC) TO STDOUT WITH CSV HEADER`;
  const out = path.join(dataDir, 'copy.csv');
  global.gc?.();
  const copyRss0 = process.memoryUsage().rss;
  peakRss = copyRss0;
  let copyMs: number;
  if (pgUrl) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    [copyMs] = await time(() => pipeline(client.query(copyTo(copySql)), createWriteStream(out)));
    await client.end();
  } else {
    [copyMs] = await time(async () => {
      const r = await database.pglite!.query(copySql.replace('TO STDOUT', "TO '/dev/blob'"));
      await writeFile(out, Buffer.from(await r.blob!.arrayBuffer()));
    });
  }
  console.log(
    `  baseline: COPY ... TO ${pgUrl ? 'STDOUT (streamed)' : "'/dev/blob' (held whole)"}: ${(copyMs / 1000).toFixed(1)} s, ${mb(statSync(out).size)} file, peak memory growth ${mb(peakRss - copyRss0)}`,
  );
  for (const format of ['csv', 'xlsx'] as const) {
    const file = await startExport(deps, auth, PAYOUTS_EXPORT, { ...noFilters, 'sort-buy': 'DESC', format });
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    peakRss = rss0;
    // the longest the event loop was held (on PGlite: the longest any request waited behind the export)
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const [t] = await time(() => runExport(deps, file.id));
    loop.disable();
    const [done] = rowsOf<{ rows: number; bytes: number; status: string }>(
      await db.execute(sql`SELECT rows, bytes, status FROM download_files WHERE id = ${file.id}`),
    );
    console.log(
      `  export ${format.toUpperCase()} of all ${Number(done.rows).toLocaleString('en')} payouts: ` +
        `${(t / 1000).toFixed(1)} s = ${(t / copyMs).toFixed(1)}x COPY (goal ${format === 'csv' ? '2' : '4'}x), ${mb(Number(done.bytes))} file, ` +
        `peak memory growth ${mb(peakRss - rss0)} (goal 200 MB), event loop held at most ${(loop.max / 1e6).toFixed(0)} ms (${done.status})`,
    );
  }
  await jobs.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// BENCH_SKIP_PGLITE=1 measures PostgreSQL only
if (process.env.BENCH_SKIP_PGLITE !== '1') {
  const pgliteDir = mkdtempSync(path.join(tmpdir(), 'obol-bench-pglite-'));
  const pglite = await openDatabase({ dataDir: pgliteDir });
  await bench('PGlite (on disk)', pglite);
  await pglite.close();
  rmSync(pgliteDir, { recursive: true, force: true });
}
if (process.env.DATABASE_URL) {
  const { database, url, drop } = await scratchPostgres(process.env.DATABASE_URL, 8);
  try {
    await bench('PostgreSQL', database, url);
  } finally {
    await drop();
  }
} else console.log('\n(PostgreSQL skipped: set DATABASE_URL to include it)');
clearInterval(sampler);
process.exit(0);
