/**
 * The complexity budget (issue 51): what each piece of performance machinery buys, measured with and without it in
 * the same run, the two in turn (a call or a round of each, alternately) so that the machine's drift and pauses
 * fall on both alike. Machinery that buys less than 10% of the figure it was built for goes; what stays says its
 * figure in its module's opening comment. Measured and removed (2026-11-29): the lists' early start beside their
 * session check (docs/decisions/023-session-check-and-early-list-start.md).
 * - statements planned once (platform/statements.ts; `plans.keep`): a trivial route (its time is the session check)
 *   and postEntry (the ledger's statements), planned once or each time;
 * - credit shards (ledger/tables.ts): postEntry on 16 connections, each entry crediting one account, sharded or not;
 * - the staging reader's thread (batches/stage-reader.ts; `readerThread.on`): staging a CSV, its rate and the
 *   longest the event loop was held meanwhile (on PGlite, the longest a request waited).
 *
 *   npm run bench:budget [-- rows]     (rows staged, default 50,000; DATABASE_URL=postgres://... adds PostgreSQL;
 *                                       BENCH_PARTS=session,ledger,staging picks parts)
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { openDatabase, runMigrations, type Database } from '../apps/server/src/platform/db.ts';
import { plans } from '../apps/server/src/platform/statements.ts';
import { seedDemo, syncReferenceData } from '../apps/server/src/seed.ts';
import { startTestApp } from '../apps/server/src/test/harness.ts';
import { postEntry } from '../apps/server/src/features/ledger/service.ts';
import { accounts } from '../apps/server/src/features/ledger/tables.ts';
import { batches } from '../apps/server/src/features/batches/tables.ts';
import { uploadKey } from '../apps/server/src/features/batches/service.ts';
import { stageBatch } from '../apps/server/src/features/batches/stage.ts';
import {
  closeStagingReaders,
  readerThread,
  warmStagingReader,
} from '../apps/server/src/features/batches/stage-reader.ts';
import { benchDeps, fundedMerchant } from './fixtures.ts';
import { scratchPostgres } from './scratch.ts';

const ROWS = Number(process.argv[2] ?? 50_000);
const PASSWORD = 'Bench@pass1';
const CONNECTIONS = 16;
/** which parts to run (BENCH_PARTS=session,ledger,staging: all by default) */
const PARTS = (process.env.BENCH_PARTS ?? 'session,ledger,staging').split(',');

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * p)];
const ms = (x: number) => `${x.toFixed(2).padStart(8)} ms`;
const share = (without: number, withIt: number) => `${(((without - withIt) / without) * 100).toFixed(0)}%`;
/** a rate with the machinery against without it, as a signed percentage */
const gain = (withIt: number, without: number) => {
  const g = ((withIt - without) / without) * 100;
  return `${g >= 0 ? '+' : ''}${g.toFixed(0)}% with it`;
};
async function timed(fn: () => Promise<unknown>) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
/** `with` and `without` in turn, `rounds` of each, after `warm` of each: each one's times */
async function inTurn(rounds: number, warm: number, withIt: () => Promise<unknown>, without: () => Promise<unknown>) {
  for (let i = 0; i < warm; i++) await Promise.all([withIt(), without()]);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await timed(withIt));
    b.push(await timed(without));
  }
  return [a, b];
}
function latencies(title: string, [a, b]: number[][]) {
  console.log(`  ${title} (${a.length} each, in turn)      p50         p95`);
  console.log(`    with     ${ms(quantile(a, 0.5))} ${ms(quantile(a, 0.95))}`);
  console.log(`    without  ${ms(quantile(b, 0.5))} ${ms(quantile(b, 0.95))}`);
  const [p50a, p50b] = [quantile(a, 0.5), quantile(b, 0.5)];
  console.log(`    it saves ${share(p50b, p50a)} of the p50 (${(p50b - p50a).toFixed(2)} ms a call)`);
}

/** Statements planned once, as the session check of every request sees them. */
async function sessionCheck(database: Database) {
  const t = await startTestApp({}, { database });
  t.app.answerMode = 'strip';
  try {
    const token = await t.signIn('admin@obol.example', PASSWORD);
    const planned = (keep: boolean) => async () => {
      plans.keep = keep;
      try {
        const r = await t.post('/api/auth-permission', {}, token);
        if (r.status !== 200) throw new Error(`auth-permission: ${r.status}`);
      } finally {
        plans.keep = true;
      }
    };
    latencies(
      'statements planned once: a trivial route (its session check)',
      await inTurn(2000, 100, planned(true), planned(false)),
    );
  } finally {
    await t.close();
  }
}

/** postEntry: statements planned once or each time, and one account's credits sharded or on its row. */
async function ledger(database: Database) {
  const db = database.db;
  const account = (name: string, shardCredits: boolean) => ({
    accountId: `${name}-${randomUUID()}`,
    accountReference: 'bench',
    kind: 'provider',
    name,
    allowOverdraft: true,
    shardCredits,
  });
  const [sharded, plain] = await db
    .insert(accounts)
    .values([account('sharded', true), account('plain', false)])
    .returning();
  const customers = await db
    .insert(accounts)
    .values(
      Array.from({ length: 64 }, (_, i) => ({ ...account(`c${i}`, false), kind: 'payout', allowOverdraft: false })),
    )
    .returning();
  for (const c of customers)
    await db.transaction((tx) =>
      postEntry(tx, {
        idempotencyKey: randomUUID(),
        kind: 'fund',
        postings: [
          { accountId: plain.id, amount: -1e9 },
          { accountId: c.id, amount: 1e9 },
        ],
      }),
    );
  const connections = database.kind === 'postgres' ? CONNECTIONS : 1;
  let key = 0;
  /** `n` entries on `connections`, each from a customer to `to`: entries a second */
  const entries = async (n: number, to: number) => {
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next++ < n) {
          const i = key++;
          const c = customers[i % customers.length];
          await db.transaction((tx) =>
            postEntry(tx, {
              idempotencyKey: `budget:${i}`,
              kind: 'bench',
              postings: [
                { accountId: c.id, amount: -(100 + (i % 50)) },
                { accountId: to, amount: 100 + (i % 50) },
              ],
            }),
          );
        }
      }),
    );
    return n / ((performance.now() - t) / 1000);
  };
  const rounds = async (title: string, a: () => Promise<number>, b: () => Promise<number>) => {
    await a();
    await b();
    const [ra, rb] = [[], []] as number[][];
    for (let i = 0; i < 5; i++) {
      ra.push(await a());
      rb.push(await b());
    }
    const [x, y] = [quantile(ra, 0.5), quantile(rb, 0.5)];
    console.log(`  ${title} (${connections} connection${connections > 1 ? 's' : ''}, 5 rounds each, in turn; medians)`);
    console.log(`    with ${x.toFixed(0)} entries/s, without ${y.toFixed(0)}/s: ${gain(x, y)}`);
  };
  const n = database.kind === 'postgres' ? 600 : 400;
  await rounds(
    'credit shards: postEntry crediting one account',
    () => entries(n, sharded.id),
    () => entries(n, plain.id),
  );
  const planning = (keep: boolean) => async () => {
    plans.keep = keep;
    try {
      return await entries(n, sharded.id);
    } finally {
      plans.keep = true;
    }
  };
  await rounds('statements planned once: postEntry', planning(true), planning(false));
}

/** Staging a CSV with the reader on its own thread or on the job's. */
async function staging(database: Database) {
  warmStagingReader();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'obol-budget-'));
  const deps = await benchDeps(database, dataDir);
  const jobs = deps.jobs;
  const { merchantId, account } = await fundedMerchant(database.db);
  const csv = path.join(dataDir, 'rows.csv');
  const out = createWriteStream(csv);
  out.write('beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\n');
  for (let i = 0; i < ROWS; i++)
    if (
      !out.write(
        `Beneficiary ${i},1${String(i).padStart(8, '0')},BUDGET-${i},Acme Brand,Invoice ${i},${100 + (i % 900)}\n`,
      )
    )
      await new Promise<void>((r) => out.once('drain', () => r()));
  await new Promise<void>((r) => out.end(() => r()));
  let seq = 0;
  const stage = (thread: boolean) => async () => {
    const id = `BUDGET${seq++}X${Date.now().toString(36).toUpperCase()}`;
    const stored = await deps.files.create(uploadKey(id, 'csv'));
    await pipeline(createReadStream(csv), stored.stream);
    await stored.commit();
    await database.db.insert(batches).values({
      batchId: id,
      merchantId,
      behalfOfId: merchantId,
      accountId: account.id,
      uploadedBy: merchantId,
      payoutType: 'Batch Payout',
      fileName: 'rows.csv',
      fileFormat: 'csv',
      status: 'Processing',
      totalRows: ROWS,
      feeBps: 150,
    });
    readerThread.on = thread;
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const t = performance.now();
    try {
      await stageBatch(deps, id);
    } finally {
      readerThread.on = true;
      loop.disable();
    }
    return { rate: ROWS / ((performance.now() - t) / 1000), held: loop.max / 1e6 };
  };
  const [a, b] = [[], []] as { rate: number; held: number }[][];
  for (let i = 0; i < 3; i++) {
    a.push(await stage(true)());
    b.push(await stage(false)());
  }
  const median = (xs: number[]) => quantile(xs, 0.5);
  const show = (xs: { rate: number; held: number }[]) => {
    const [rate, held] = [median(xs.map((x) => x.rate)), median(xs.map((x) => x.held))];
    return `${rate.toFixed(0)} rows/s, event loop held at most ${held.toFixed(0)} ms`;
  };
  console.log(`  the staging reader's thread: ${ROWS.toLocaleString('en')} rows (3 each, in turn; medians)`);
  console.log(`    with     ${show(a)}`);
  console.log(`    without  ${show(b)}`);
  await jobs.stop();
  await closeStagingReaders();
  rmSync(dataDir, { recursive: true, force: true });
}

async function bench(label: string, database: Database) {
  await runMigrations(database);
  await syncReferenceData(database.db);
  await seedDemo(database.db, PASSWORD);
  console.log(`\n${label}`);
  if (PARTS.includes('session')) await sessionCheck(database);
  if (PARTS.includes('ledger')) await ledger(database);
  if (PARTS.includes('staging')) await staging(database);
}

const pglite = await openDatabase({});
try {
  await bench('PGlite (in memory)', pglite);
} finally {
  await pglite.close();
}
if (process.env.DATABASE_URL) {
  const { database, drop } = await scratchPostgres(process.env.DATABASE_URL, 20);
  try {
    await bench('PostgreSQL', database);
  } finally {
    await drop();
  }
} else console.log('\n(PostgreSQL skipped: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to include it)');
