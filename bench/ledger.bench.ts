/**
 * Ledger throughput: journal entries (two postings each, one non-overdraft debit) per second through
 * postEntry, beside a bare INSERT of the same rows into a plain table in the same run, and the ratio (issue 21:
 * goal >= 0.5x on both engines, >= 2,000 entries/s on PostgreSQL). Every entry credits the same bank account,
 * so on PostgreSQL all of them queue on that one row's lock (held until each transaction commits); the bare
 * INSERT has no such row. Then the same entries through postEntries, BATCH per call (the path for settling
 * many payouts at once). PGlite always; PostgreSQL too when DATABASE_URL is set (a scratch database is created
 * there and dropped).
 *
 *   npm run bench            (or: node bench/ledger.bench.ts [entries])
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, runMigrations, type Database } from '../apps/server/src/platform/db.ts';
import { scratchPostgres } from './scratch.ts';
import { postEntry } from '../apps/server/src/features/ledger/service.ts';
import { postEntries } from '../apps/server/src/features/ledger/batch.ts';
import { accounts } from '../apps/server/src/features/ledger/tables.ts';

const N = Number(process.argv[2] ?? 3000);
const CONCURRENCY = 16;
const BATCH = 100;

async function bench(label: string, database: Database) {
  await runMigrations(database);
  const db = database.db;
  const [bank, ...customers] = await db
    .insert(accounts)
    .values([
      {
        accountId: `BANK-${randomUUID()}`,
        accountReference: 'bench',
        kind: 'provider',
        name: 'bank',
        allowOverdraft: true,
        // as the platform's provider account: its credits go to shard rows (ledger/tables.ts)
        shardCredits: true,
      },
      ...Array.from({ length: 64 }, (_, i) => ({
        accountId: `C-${randomUUID()}`,
        accountReference: 'bench',
        kind: 'payout',
        name: `c${i}`,
        allowOverdraft: false,
      })),
    ])
    .returning();
  // fund every customer, then each entry debits a customer (guarded) and credits the bank
  for (const c of customers) {
    await db.transaction((tx) =>
      postEntry(tx, {
        idempotencyKey: randomUUID(),
        kind: 'fund',
        postings: [
          { accountId: bank.id, amount: -1e9 },
          { accountId: c.id, amount: 1e9 },
        ],
      }),
    );
  }
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: database.kind === 'postgres' ? CONCURRENCY : 1 }, async () => {
      while (next < N) {
        const i = next++;
        const c = customers[i % customers.length];
        await db.transaction((tx) =>
          postEntry(tx, {
            idempotencyKey: `bench:${i}`,
            kind: 'bench',
            postings: [
              { accountId: c.id, amount: -(100 + (i % 50)) },
              { accountId: bank.id, amount: 100 + (i % 50) },
            ],
          }),
        );
      }
    }),
  );
  const ledgerSeconds = (performance.now() - t0) / 1000;

  // baseline: the same number of entries and postings as bare INSERTs, one transaction per entry
  await db.execute(
    sql`CREATE TABLE bench_entries (id bigserial primary key, k text unique, kind text, created_at timestamptz default now())`,
  );
  await db.execute(
    sql`CREATE TABLE bench_postings (id bigserial primary key, entry_id bigint, account_id int, amount bigint)`,
  );
  next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: database.kind === 'postgres' ? CONCURRENCY : 1 }, async () => {
      while (next < N) {
        const i = next++;
        const c = customers[i % customers.length];
        await db.transaction(async (tx) => {
          const r = await tx.execute(
            sql`INSERT INTO bench_entries (k, kind) VALUES (${`b:${i}`}, 'bench') RETURNING id`,
          );
          const id = rowsOf<{ id: number }>(r)[0].id;
          await tx.execute(
            sql`INSERT INTO bench_postings (entry_id, account_id, amount) VALUES (${id}, ${c.id}, ${-(100 + (i % 50))}), (${id}, ${bank.id}, ${100 + (i % 50)})`,
          );
        });
      }
    }),
  );
  const bareSeconds = (performance.now() - t1) / 1000;

  // the same entries, BATCH per postEntries call (one statement each)
  next = 0;
  const t2 = performance.now();
  await Promise.all(
    Array.from({ length: database.kind === 'postgres' ? CONCURRENCY : 1 }, async () => {
      while (next < N) {
        const from = next;
        next = Math.min(N, next + BATCH);
        await db.transaction((tx) =>
          postEntries(
            tx,
            Array.from({ length: next - from }, (_, j) => {
              const i = from + j;
              const c = customers[i % customers.length];
              return {
                idempotencyKey: `batch:${i}`,
                kind: 'bench',
                postings: [
                  { accountId: c.id, amount: -(100 + (i % 50)) },
                  { accountId: bank.id, amount: 100 + (i % 50) },
                ],
              };
            }),
          ),
        );
      }
    }),
  );
  const batchSeconds = (performance.now() - t2) / 1000;
  const row = (name: string, s: number) =>
    `  ${name.padEnd(44)} ${(N / s).toFixed(0).padStart(8)} entries/s  ${((2 * N) / s).toFixed(0).padStart(8)} postings/s  (${s.toFixed(2)} s)`;
  console.log(
    `\n${label}: ${N} entries of 2 postings${database.kind === 'postgres' ? `, ${CONCURRENCY} connections` : ', one connection'}`,
  );
  console.log(row('ledger postEntry (guarded debit, idempotent)', ledgerSeconds));
  console.log(row('baseline: bare INSERT of the same rows', bareSeconds));
  console.log(row(`ledger postEntries, ${BATCH} entries per call`, batchSeconds));
  const ratio = bareSeconds / ledgerSeconds;
  const goal = database.kind === 'postgres' ? ' and >= 2,000 entries/s' : '';
  console.log(`  postEntry / baseline: ${ratio.toFixed(2)}x of the bare rate (goal >= 0.5x${goal})`);
  console.log(`  postEntries / baseline: ${(bareSeconds / batchSeconds).toFixed(2)}x of the bare rate`);
}

const pglite = await openDatabase({});
await bench('PGlite (in memory)', pglite);
await pglite.close();
if (process.env.DATABASE_URL) {
  const { database, drop } = await scratchPostgres(process.env.DATABASE_URL, CONCURRENCY);
  try {
    await bench('PostgreSQL', database);
  } finally {
    await drop();
  }
} else {
  console.log('\n(PostgreSQL skipped: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to include it)');
}
