/**
 * A batch of N payouts (default 20,000) through the API on PostgreSQL, the whole path: upload, staging, the
 * code, confirmation, the job that creates the payouts, their submission to the provider simulator over real
 * HTTP (batch calls), its batched webhooks back and their settlement in the ledger; timed from confirmation to
 * every payout settled. The server runs as its own process (`WORKERS=1`), as `npm start` runs it; the bench
 * drives the API from an app of its own on the same database (no workers), as the process tests do.
 *
 * Staging is timed from the upload's start (its multipart read and the file store included) to the batch's Pending,
 * beside a bare INSERT of the same rows (unnest, 1,000 a statement, into a plain table: bench:batches' baseline).
 * The same file (other ids) is staged and cleared first, as bench:api warms its servers with the load it measures.
 *
 * Baseline in the same run, on the same server: bare conditional debits
 * (`UPDATE ... SET balance = balance - 1 WHERE id = $1 AND balance >= 1`, one autocommit statement each) on 16
 * connections, each on its own row: what the database alone does per second with no application at all.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:payouts [-- rows]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { rowsOf, runMigrations } from '../apps/server/src/platform/db.ts';
import { seedDemo, syncReferenceData } from '../apps/server/src/seed.ts';
import { holderReference } from '../apps/server/src/features/ledger/accounts.ts';
import { trialBalance } from '../apps/server/src/features/ledger/service.ts';
import { DEMO_PASSWORD, startTestApp } from '../apps/server/src/test/harness.ts';
import {
  freePort,
  PROVIDER_KEY,
  startProviderProcess,
  startServerProcess,
  type Proc,
} from '../apps/server/src/test/processes.ts';
import { fundedMerchant } from './fixtures.ts';
import { scratchPostgres } from './scratch.ts';

const N = Number(process.argv[2] ?? 20_000);
const url = process.env.DATABASE_URL;
if (!url) {
  console.log('payouts bench: needs a PostgreSQL server (DATABASE_URL=postgres://...); skipped');
  process.exit(0);
}

const scratch = await scratchPostgres(url, 20);
const procs: Proc[] = [];
try {
  const { database } = scratch;
  await runMigrations(database);
  await syncReferenceData(database.db);
  await seedDemo(database.db, DEMO_PASSWORD);
  const { merchantId } = await fundedMerchant(database.db);

  const filesDir = mkdtempSync(path.join(tmpdir(), 'obol-bench-files-'));
  const port = await freePort();
  const provider = await startProviderProcess({
    webhookUrl: `http://127.0.0.1:${port}/api/provider/webhook`,
    settleMs: 200,
  });
  procs.push(provider);
  procs.push(
    await startServerProcess({
      databaseUrl: scratch.url,
      providerUrl: provider.url,
      port,
      env: { FILES_DIR: filesDir, LOG_LEVEL: 'error' },
    }),
  );
  const driver = await startTestApp(
    { LOG_LEVEL: 'silent', PROVIDER_API_KEY: PROVIDER_KEY, FILES_DIR: filesDir },
    { database, providerUrl: provider.url },
  );
  const token = await driver.signIn('merchant@obol.example');
  const lines = Array.from(
    { length: N },
    // every 50th to another brand's wallet: the provider fails it and its money returns
    (_, i) =>
      `Payee ${i},${i % 50 === 7 ? 2 : 1}${String(i).padStart(8, '0')},BENCH-${i},Acme Brand,Invoice ${i},${100 + (i % 900)}`,
  );
  const until = async (what: string, probe: () => Promise<boolean>, ms = 30 * 60_000) => {
    const end = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > end) throw new Error(`${what}: timed out\n${procs.map((p) => p.output()).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const upload = async (rows: string[]) => {
    const up = await driver.upload(
      '/api/upload-transactions',
      { file_name: 'bench.csv', behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) },
      {
        name: 'bench.csv',
        content: `beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\n${rows.join('\n')}\n`,
      },
      token,
    );
    if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
    const id = up.body.batch_id as string;
    await until(
      'staged',
      async () => (await driver.post('/api/batch-progress', { id }, token)).body.status === 'Pending',
    );
    return id;
  };
  // the same file first (other ids), cleared after: the figure is staging's, not that of code the server and the
  // driver run for the first time (compiled on first use, several times slower a row)
  const warm = await upload(lines.map((l) => l.replace(',BENCH-', ',WARM-')));
  await driver.post('/api/clear-batch', { batch_id: warm }, token);
  // staging through the API: from the upload's start to the batch's Pending (written by the server's staging job)
  const uploadAt = Date.now();
  const batchId = await upload(lines);
  // where staging's time went: the upload's batch and job written, the job's start and the batch's Pending (the
  // server's clock is this machine's)
  const staging = rowsOf<{ answered: number; started: number; pending: number }>(
    await database.db.execute(
      sql`SELECT extract(epoch FROM j.created_on) * 1000 AS answered, extract(epoch FROM j.started_on) * 1000 AS started,
          extract(epoch FROM b.updated_at) * 1000 AS pending
        FROM batches b, pgboss.job j WHERE b.batch_id = ${batchId} AND j.name = 'batch.stage' AND j.data->>'batchId' = ${batchId}`,
    ),
  )[0];
  const stageS = (Number(staging.pending) - uploadAt) / 1000;
  let t = performance.now();
  const ask = await driver.post('/api/execute-batch', { batch_id: batchId }, token);
  if (ask.status !== 200) throw new Error(`execute-batch: ${ask.status} ${ask.text}`);
  const code = driver.lastMailTo('merchant@obol.example')!.code!;
  t = performance.now();
  const confirmedAt = Date.now();
  const ok = await driver.post('/api/confirm-batch', { batch_id: batchId, code }, token);
  if (ok.status !== 200) throw new Error(`confirm-batch: ${ok.status} ${ok.text}`);
  // the probes read as little as they can, so that polling takes less of the database from the work it times: the
  // payouts counted until all exist, then only whether one is still in flight (the first found ends the probe).
  // Counting every payout's status at each poll took ~16 ms of the database a poll, ~1 s of a 7 s run (statement
  // log, sixteenth pass); these take ~6 ms.
  const created = async () =>
    Number(
      rowsOf<{ total: number | string }>(
        await database.db.execute(sql`SELECT count(*) AS total FROM payouts WHERE batch_id = ${batchId}`),
      )[0].total,
    ) === N;
  const inFlight = async () =>
    rowsOf(
      await database.db.execute(
        sql`SELECT 1 FROM payouts WHERE status = 'in_flight' AND batch_id = ${batchId} LIMIT 1`,
      ),
    ).length > 0;
  await until('every payout created', created);
  await until('every payout settled', async () => !(await inFlight()));
  const payS = (performance.now() - t) / 1000;
  // where the time went: when the last payout was created, sent to the provider and settled, after confirmation
  const phases = rowsOf<{ created: number; sent: number; settled: number }>(
    await database.db.execute(
      sql`SELECT extract(epoch FROM max(created_at)) * 1000 AS created, extract(epoch FROM max(submitted_at)) * 1000 AS sent,
            extract(epoch FROM max(updated_at)) * 1000 AS settled FROM payouts WHERE batch_id = ${batchId}`,
    ),
  )[0];
  const after = (ms: number) => `+${((Number(ms) - confirmedAt) / 1000).toFixed(1)} s`;
  // the activity log reads the outbox after the fact (features/activity/money.ts): when it has recorded every
  // event the batch wrote, and how many records that was
  const recorded = async () =>
    rowsOf<{ behind: boolean }>(
      await database.db.execute(
        sql`SELECT (SELECT max(id) FROM money_events) > (SELECT last_event_id FROM activity_cursor) AS behind`,
      ),
    )[0].behind === false;
  await until('every money event recorded in the activity log', recorded);
  const activityS = (performance.now() - t) / 1000;
  const records = Number(
    rowsOf<{ n: number | string }>(
      await database.db.execute(sql`SELECT count(*) AS n FROM activity_log
          WHERE user_name = 'Obol' AND created_at >= to_timestamp(${confirmedAt / 1000})`),
    )[0].n,
  );
  await driver.close();
  for (const p of procs.splice(0)) await p.kill();
  const balanced = (await trialBalance(database.db)).balanced;

  // baseline: bare conditional debits on 16 connections, each on a row of its own
  const admin = new pg.Pool({ connectionString: scratch.url, max: 16 });
  // pool.end() resolves once its clients are told to close, before their connections have: the scratch
  // database's DROP ... WITH (FORCE) just after could terminate one still closing, and an idle client's error
  // on a pool with no 'error' listener is thrown (the unhandled error that dumped a pg client, one run in three)
  admin.on('error', () => undefined);
  await admin.query('CREATE TABLE bench_debits (id int PRIMARY KEY, balance bigint NOT NULL)');
  await admin.query('INSERT INTO bench_debits SELECT g, 1000000000 FROM generate_series(1, 16) g');
  const per = Math.ceil(N / 16);
  t = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async (_, c) => {
      const client = await admin.connect();
      try {
        for (let i = 0; i < per; i++)
          await client.query('UPDATE bench_debits SET balance = balance - 1 WHERE id = $1 AND balance >= 1', [c + 1]);
      } finally {
        client.release();
      }
    }),
  );
  const bareS = (performance.now() - t) / 1000;

  // baseline of staging: the same rows as bare INSERTs (unnest, 1,000 a statement) into a plain table with the
  // columns staging writes, no validation, no index (as bench:batches' baseline)
  await admin.query(`CREATE TABLE bench_rows (batch_id text, row_number int, beneficiary_name text, obol_id text,
    merchant_transaction_id text, brand text, reference text, amount_text text, amount bigint, errors jsonb, status text,
    missing int)`);
  t = performance.now();
  for (let start = 0; start < N; start += 1000) {
    const idx = Array.from({ length: Math.min(1000, N - start) }, (_, k) => start + k);
    await admin.query(
      `INSERT INTO bench_rows SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[],
        $7::text[], $8::text[], $9::bigint[], $10::jsonb[], $11::text[], $12::int[])`,
      [
        batchId,
        idx.map((i) => i + 2),
        idx.map((i) => `Payee ${i}`),
        idx.map((i) => `${i % 50 === 7 ? 2 : 1}${String(i).padStart(8, '0')}`),
        idx.map((i) => `BENCH-${i}`),
        idx.map(() => 'Acme Brand'),
        idx.map((i) => `Invoice ${i}`),
        idx.map((i) => String(100 + (i % 900))),
        idx.map((i) => 100 + (i % 900)),
        idx.map(() => '{}'),
        idx.map(() => 'Pending'),
        idx.map(() => 0),
      ],
    );
  }
  const bareInsertS = (performance.now() - t) / 1000;
  await admin.end();

  const ours = N / payS;
  const bare = (per * 16) / bareS;
  console.log(`\nPostgreSQL: a batch of ${N.toLocaleString('en')} payouts through the API and the simulator`);
  const at = (ms: number) => `+${((Number(ms) - uploadAt) / 1000).toFixed(2)} s`;
  console.log(
    `  staging through the API (upload to Pending) ${(N / stageS).toFixed(0).padStart(7)} rows/s (${stageS.toFixed(2)} s)   ${((100 * bareInsertS) / stageS).toFixed(0)}% of bare (goal >= 25%)`,
  );
  console.log(
    `  baseline: bare INSERT of the rows (unnest) ${(N / bareInsertS).toFixed(0).padStart(7)} rows/s (${bareInsertS.toFixed(2)} s)`,
  );
  console.log(
    `  the upload's batch and job written ${at(staging.answered)}, the job started ${at(staging.started)}, the batch Pending ${at(staging.pending)}`,
  );
  console.log(
    `  confirmation to every payout settled      ${ours.toFixed(0).padStart(7)} payouts/s (${payS.toFixed(1)} s)   ${((100 * ours) / bare).toFixed(0)}% of bare`,
  );
  console.log(
    `  baseline: bare conditional debits, 16 conn ${bare.toFixed(0).padStart(7)} debits/s (${bareS.toFixed(1)} s)`,
  );
  console.log(
    `  the last payout created ${after(phases.created)}, sent to the provider ${after(phases.sent)}, settled ${after(phases.settled)}`,
  );
  console.log(
    `  the activity log caught up +${activityS.toFixed(1)} s after confirmation (${records.toLocaleString('en')} records of the batch's money events)`,
  );
  console.log(`  books balanced after: ${balanced}`);
} finally {
  for (const p of procs) await p.kill().catch(() => undefined);
  await scratch.drop();
}
