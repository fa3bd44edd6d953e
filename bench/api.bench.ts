/**
 * The API under load: an authenticated trivial route (POST /api/auth-permission: the session check, the caller's
 * permissions) and the payout list's first page (POST /api/payout-transactions), each beside two bare node:http
 * servers in the same run, measured with autocannon:
 * - "bare node:http + the same SQL": the same database work written by hand on the driver (the session looked up
 *   by its token's hash with the user and permissions, in one prepared statement as the API's; for the list also
 *   the same statement of the page and its bounded count), answered with
 *   JSON.stringify. The API's share of this rate is the figure with a
 *   goal (>= 80%): what the framework, the input and answer checks, the query builder and the hooks cost.
 * - "bare node:http + the fastest SQL" (the payout list only): the same page and total as fast as they can be written
 *   by hand: the session check, then one prepared statement that walks the (updated_at, id) index for the page's
 *   keys, joins each row's names once, counts up to EXACT_TOTAL_UP_TO + 1 rows and answers the planner's estimate
 *   above that, and makes the answer's JSON itself. The API's share of this rate says what the list costs beyond
 *   its data (goal >= 50%).
 * - "bare node:http, same-sized JSON": no database at all, a constant body of the same size; the ceiling of the
 *   machine's HTTP, for reference.
 * Each server is warmed by the same load (BENCH_WARM_SECONDS, default 5) before it is measured.
 * Prints requests/s, p50/p95/p99 latency and the shares.
 *
 * The servers (the Fastify app on the seeded demo database, signed in as the demo admin the way the test
 * harness does it, and the bare server) run in a child process so that autocannon does not share their event
 * loop. PGlite in memory; on PostgreSQL when DATABASE_URL is set (a scratch database, dropped after).
 *
 *   npm run bench:api          (or: node bench/api.bench.ts [seconds per run] [connections])
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sha256 } from '../apps/server/src/platform/crypto.ts';
import { pageQuery } from '../apps/server/src/features/transactions/query.ts';
import type { Database } from '../apps/server/src/platform/db.ts';
import { preparedStatement } from '../apps/server/src/platform/statements.ts';
import { holderAccounts } from '../apps/server/src/features/ledger/accounts.ts';
import { userIdByEmail } from '../apps/server/src/seed.ts';
import { EXACT_TOTAL_UP_TO } from '@obol/contract';

const SECONDS = Number(process.argv[2] ?? 5);
const CONNECTIONS = Number(process.argv[3] ?? 10);
/** load on each server before it is measured (BENCH_WARM_SECONDS) */
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 5);
const ADMIN = 'admin@obol.example';
/** payouts seeded for the list (in batches of 1,000 of the demo merchant), besides the demo data */
const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 10_000);
const PER_BATCH = 1_000;

interface Target {
  name: string;
  path: string;
  body: string;
  /** the API's answer, sized for the bare server's twin */
  bytes: number;
}
interface Ready {
  api: string;
  bare: string;
  bareSql: string;
  bareFast: string;
  engine: string;
  token: string;
  targets: Target[];
}

// ---------- the child: both servers ----------
async function serve() {
  if (process.env.DATABASE_URL) {
    process.env.OBOL_TEST_DB = 'postgres';
    process.env.TEST_DATABASE_URL = process.env.DATABASE_URL;
  }
  const { startTestApp } = await import('../apps/server/src/test/harness.ts');
  const t = await startTestApp({}, { listen: true });
  // answers as production holds them (stripped to their schema), not as the tests do (strict: every field walked)
  t.app.answerMode = 'strip';
  await seedPayouts(t.database);
  const token = await t.signIn(ADMIN);
  const targets: Target[] = [
    { name: 'auth-permission', path: '/api/auth-permission', body: '{}', bytes: 0 },
    { name: 'payout list p1', path: '/api/payout-transactions', body: '{"page":1,"per_page":10}', bytes: 0 },
  ];
  for (const target of targets) {
    const res = await fetch(`${t.address}${target.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: target.body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${target.path}: ${res.status} ${text}`);
    target.bytes = Buffer.byteLength(text);
  }
  // the bare twin: the same method and path, a JSON body of the same size, no database, no framework
  const answers = new Map(
    targets.map((target) => [
      target.path,
      JSON.stringify({ data: 'x'.repeat(Math.max(0, target.bytes - '{"data":""}'.length)) }),
    ]),
  );
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = answers.get(req.url ?? '') ?? '{}';
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  const bareSql = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void bareAnswer(t.database, req.url ?? '', req.headers.authorization ?? '').then(
        ([status, body]) => {
          res.writeHead(status, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
  });
  const bareFast = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void fastestList(t.database, req.headers.authorization ?? '').then(
        ([status, body]) => {
          res.writeHead(status, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
  });
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  };
  const ready: Ready = {
    api: t.address!,
    bare: await listen(bare),
    bareSql: await listen(bareSql),
    bareFast: await listen(bareFast),
    engine: t.database.kind,
    token,
    targets,
  };
  process.send!(ready);
  process.on('message', (m) => {
    if (m !== 'stop') return;
    bare.close();
    bareSql.close();
    bareFast.close();
    t.close().then(
      () => process.exit(0),
      (err: unknown) => fail('closing the servers', err),
    );
  });
}

/** ends the process with one line saying what failed (never an unhandled error dumping its objects) */
function fail(what: string, err: unknown): never {
  console.error(`bench:api: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

/**
 * the session, its user able to act and the role's permissions, by the token's hash: one statement, by hand, and
 * prepared as the API's is (planned once per connection: preparedStatement)
 */
const SESSION_SQL = `
  SELECT s.id, s.expires_at, u.id AS user_id, u.name, u.email, r.name AS role, u.parent_id,
    (SELECT coalesce(array_agg(p.name ORDER BY p.position), '{}') FROM role_permissions rp
      JOIN permissions p ON p.id = rp.permission_id WHERE rp.role_id = u.role_id) AS permissions
  FROM sessions s JOIN users u ON u.id = s.user_id JOIN roles r ON r.id = u.role_id
  WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.idle_expires_at > now() AND s.expires_at > now()
    AND u.deleted_at IS NULL AND u.is_active`;
const sessionCheck = preparedStatement<Record<string, unknown>>('bench_bare_session', ['text'], SESSION_SQL);
/**
 * the staff list's first page of 10 with its count up to 10,001 rows: the same statement the API runs, and as the
 * API runs it (a list without filters, pageOf): prepared on PostgreSQL, planned each time on PGlite
 */
const PAGE = new PgDialect().sqlToQuery(pageQuery(sql`true`, 'DESC', 10, 0, null, false, true));
const preparedPage = preparedStatement<Record<string, unknown>>('bench_bare_page', [], PAGE.sql);
async function bareSqlPage(database: Database): Promise<Record<string, unknown>[]> {
  if (database.pglite) return (await database.pglite.query<Record<string, unknown>>(PAGE.sql, PAGE.params)).rows;
  return preparedPage(database, []);
}

/** what a hand-written server does for the two routes: the session check, then the route's own SQL */
async function bareAnswer(database: Database, url: string, authorization: string): Promise<[number, string]> {
  const [session] = await sessionCheck(database, [sha256(authorization.slice(7))]);
  if (!session) return [401, '{"error":["Unauthenticated"]}'];
  if (url === '/api/auth-permission')
    return [
      200,
      JSON.stringify({
        status: true,
        data: { permission: session.permissions },
        session: { idle_timeout_seconds: 900, expires_at: new Date(session.expires_at as string).toISOString() },
      }),
    ];
  const rows = await bareSqlPage(database);
  return [200, JSON.stringify({ transactions: { data: rows, total: rows[0]?.counted ?? 0 }, next_cursor: null })];
}

/**
 * The staff list's first page of 10 and its total, written as fast as they can be by hand, in one prepared statement:
 * the page's keys by a walk of payouts_updated_idx, each row's names joined once, a count that stops after
 * EXACT_TOTAL_UP_TO + 1 rows and, above that, the planner's estimate (pg_class.reltuples), the answer's JSON made by
 * the database.
 */
const FASTEST_LIST = preparedStatement<{ body: string }>(
  'bench_fastest_list',
  [],
  `WITH page AS (
    SELECT p.id, p.beneficiary_name, p.brand, hb.name AS behalf_of, hu.name AS uploaded_by, ha.name AS account_used,
      p.merchant_transaction_id, p.provider_id AS intergiro_trx_id, p.reference, p.obol_id AS account_id, p.batch_id,
      p.currency, p.amount, p.fee, p.status,
      to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
    FROM payouts p JOIN users hb ON hb.id = p.behalf_of_id JOIN users hu ON hu.id = p.created_by
      JOIN accounts ha ON ha.id = p.account_id
    ORDER BY p.updated_at DESC NULLS LAST, p.id DESC NULLS LAST LIMIT 10),
  counted AS (SELECT count(*)::int AS n FROM (SELECT 1 FROM payouts LIMIT ${EXACT_TOTAL_UP_TO + 1}) c)
  SELECT json_build_object('transactions', json_build_object(
      'data', coalesce((SELECT json_agg(page ORDER BY page.updated_at DESC, page.id DESC) FROM page), '[]'),
      'total', CASE WHEN n > ${EXACT_TOTAL_UP_TO}
        THEN greatest(n, (SELECT reltuples::int FROM pg_class WHERE oid = 'payouts'::regclass)) ELSE n END,
      'total_estimated', n > ${EXACT_TOTAL_UP_TO}))::text AS body
  FROM counted`,
);

async function fastestList(database: Database, authorization: string): Promise<[number, string]> {
  const [session] = await sessionCheck(database, [sha256(authorization.slice(7))]);
  if (!session) return [401, '{"error":["Unauthenticated"]}'];
  const [{ body }] = await FASTEST_LIST(database, []);
  return [200, body];
}

/** PAYOUTS payouts of the demo merchant over a year, every status, in Completed batches (as bench/transactions does) */
async function seedPayouts(database: Database) {
  const db = database.db;
  const merchant = (await userIdByEmail(db, 'merchant@obol.example'))!;
  const account = (await holderAccounts(db, merchant)).payout!.id;
  const [m, a] = [merchant, account].map((n) => sql.raw(String(n)));
  const batches = Math.ceil(PAYOUTS / PER_BATCH);
  await db.execute(sql`
    INSERT INTO batches (batch_id, merchant_id, behalf_of_id, account_id, uploaded_by, payout_type, file_name, status,
      total_rows, amount, fee, fee_bps, executed_at, created_at, updated_at)
    SELECT 'AB' || k, ${m}, ${m}, ${a}, ${m}, 'Batch Payout', 'api-bench-' || k || '.csv', 'Completed',
      ${sql.raw(String(PER_BATCH))}, 0, 500, 150, now() - make_interval(secs => k * 31500), now() - make_interval(secs => k * 31500),
      now() - make_interval(secs => k * 31500)
    FROM generate_series(0, ${sql.raw(String(batches - 1))}) k`);
  await db.execute(sql`
    INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type, merchant_transaction_id,
      beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key, provider_id,
      failure_message, created_at, updated_at)
    SELECT ${m}, ${m}, ${a}, ${m}, 'AB' || (i / ${sql.raw(String(PER_BATCH))}), 'batch', 'AMT' || i, 'Beneficiary ' || i,
      'Acme Payouts', '2' || lpad(i::text, 8, '0'), 'INV-' || i, 100 + i % 900, 0, 150,
      CASE i % 20 WHEN 0 THEN 'failed' WHEN 1 THEN 'pending' WHEN 2 THEN 'in_flight' ELSE 'completed' END,
      'api-bench:' || i, 'APRV' || i, CASE WHEN i % 40 = 0 THEN 'Wallet is closed' END,
      now() - make_interval(secs => i * 31.5), now() - make_interval(secs => i * 31.5)
    FROM generate_series(0, ${sql.raw(String(PAYOUTS - 1))}) i`);
  await db.execute(sql`VACUUM ANALYZE`);
}

// ---------- the parent: autocannon ----------
interface Figures {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, target: Target, token?: string, seconds = SECONDS): Promise<Figures> {
  // every response's time, for exact percentiles (autocannon's summary has no p95)
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}${target.path}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: target.body,
        connections: CONNECTIONS,
        duration: seconds,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN;
  return { rps: r.requests.average, p50: at(50), p95: at(95), p99: at(99), non2xx: r.non2xx, errors: r.errors };
}

async function main() {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  });
  child.on('error', (err) => console.error(`bench:api: the servers' process: ${err.message}`));
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`the servers' process ended (${code}) before it was ready`)));
  });
  try {
    console.log(
      `\nAPI (${ready.engine}, demo data and ${PAYOUTS.toLocaleString('en')} payouts, signed in as ${ADMIN}) vs bare node:http, ${CONNECTIONS} connections, ${SECONDS} s each`,
    );
    const row = (name: string, f: Figures) =>
      `  ${name.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p95 ${f.p95.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms${f.non2xx || f.errors ? `  (${f.non2xx} non-2xx, ${f.errors} errors)` : ''}`;
    for (const target of ready.targets) {
      // warm each server the same way, then measure each once: the code of every path (V8 and the PGlite
      // WebAssembly tier up) takes seconds of load to be compiled, and the API's path is the longest, so a
      // short warm-up of the API alone measured its first seconds beside a twin running on code it had warmed
      const list = target.path === '/api/payout-transactions';
      for (const [url, token] of [
        [ready.api, ready.token],
        [ready.bareSql, ready.token],
        ...(list ? ([[ready.bareFast, ready.token]] as const) : []),
        [ready.bare, undefined],
      ] as const)
        await load(url, target, token, WARM_SECONDS);
      const api = await load(ready.api, target, ready.token);
      const bareSql = await load(ready.bareSql, target, ready.token);
      const bareFast = list ? await load(ready.bareFast, target, ready.token) : null;
      const bare = await load(ready.bare, target);
      console.log(`\n${target.name} (${target.path}, ${target.bytes} bytes)`);
      console.log(row('API', api));
      console.log(row('bare node:http + the same SQL', bareSql));
      if (bareFast) console.log(row('bare node:http + the fastest SQL', bareFast));
      console.log(row('bare node:http, same-sized JSON', bare));
      const share = (b: Figures) => `${((100 * api.rps) / b.rps).toFixed(0)}%`;
      const p95 = (b: Figures) => `${(api.p95 / Math.max(b.p95, 0.001)).toFixed(1)}x`;
      console.log(`  API / bare + SQL: ${share(bareSql)} of the rate (goal >= 80%), p95 ${p95(bareSql)}`);
      if (bareFast)
        console.log(`  API / bare + fastest SQL: ${share(bareFast)} of the rate (goal >= 50%), p95 ${p95(bareFast)}`);
      console.log(`  API / bare, no database: ${share(bare)} of the rate, p95 ${p95(bare)}`);
    }
  } finally {
    // the servers' process may have ended already (a failure it reported): nothing to stop then
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.connected) child.send('stop');
      else child.kill();
      await exited;
    }
  }
}

if (process.argv[2] === 'serve') await serve().catch((err: unknown) => fail('starting the servers', err));
else await main().catch((err: unknown) => fail('the run', err));
