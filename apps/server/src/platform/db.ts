import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, types, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;
/** The transaction handle given to `db.transaction(async (tx) => ...)`. Use it for every query inside. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction: repositories take this. */
export type Executor = Db | Tx;

export type DbKind = 'pglite' | 'postgres';

/** Turns drizzle's `sql` into text and parameters (no connection needed): one for every module. */
export const pgDialect = new PgDialect();

export interface Database {
  kind: DbKind;
  db: Db;
  /** the PGlite instance when embedded */
  pglite?: PGlite;
  /** the pool when on a PostgreSQL server */
  pool?: pg.Pool;
  /** the connection URL when on a PostgreSQL server */
  url?: string;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

// int8 (bigint) and numeric come back as strings from node-postgres; we keep cents within 2^53
// and convert in this one place.
pg.types.setTypeParser(20, (v) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new Error(`bigint ${v} is beyond the safe integer range`);
  return n;
});

export interface OpenOptions {
  /** postgres:// URL; unset means PGlite */
  url?: string;
  /** PGlite data folder; unset means in memory */
  dataDir?: string;
  poolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    const db = drizzlePg(pool, { schema });
    return { kind: 'postgres', db, pool, url: opts.url, close: () => pool.end() };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm backs the 'contains' searches; PostgreSQL servers have it in their contrib package
  const pglite = await PGlite.create({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), extensions: { pg_trgm } });
  const db = drizzlePglite(readsAsText(pglite) as unknown as PGlite, { schema }) as unknown as Db;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

/**
 * The types drizzle's PGlite driver reads as PostgreSQL writes them, not parsed: timestamps, intervals, dates and
 * their arrays, and numeric[]. It passes parsers saying so with every query, and PGlite then copies its whole parser
 * map (an entry for every type and array type, ~145 KB) to merge them in, for every statement: ~0.2 ms and garbage
 * that the young generation's collections then pay for (issue 21, the PGlite list's tail).
 */
export const AS_TEXT: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];
type Parser = PGlite['parsers'][number];
const asText: Parser = (value: string) => value;

/**
 * Makes these types read as text on the instance itself, and gives drizzle a client that leaves its parsers out
 * where they say only that (any other parsers are passed on as they are). Who talks to the instance directly
 * (prepared statements, staging's COPY) reads these types as text too; pg-boss is given their parsers back
 * (`withParsedDates`).
 */
function readsAsText(pglite: PGlite) {
  const parsed: Record<number, Parser> = {};
  for (const oid of AS_TEXT) {
    parsed[oid] = pglite.parsers[oid]!;
    pglite.parsers[oid] = asText;
  }
  parsedDates.set(pglite, parsed);
  const lean = (options?: QueryOptions) =>
    options?.parsers && Object.keys(options.parsers).every((oid) => AS_TEXT.includes(Number(oid)))
      ? { ...options, parsers: undefined }
      : options;
  const inTransaction = (tx: Transaction) => ({
    [ON_PGLITE]: { pglite, tx } satisfies OnPglite,
    query: (text: string, params?: unknown[], options?: QueryOptions) => tx.query(text, params, lean(options)),
    exec: tx.exec.bind(tx),
    rollback: tx.rollback.bind(tx),
    get closed() {
      return tx.closed;
    },
  });
  return {
    [ON_PGLITE]: { pglite } satisfies OnPglite,
    query: (text: string, params?: unknown[], options?: QueryOptions) => pglite.query(text, params, lean(options)),
    exec: pglite.exec.bind(pglite),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      pglite.transaction((tx) => fn(inTransaction(tx) as unknown as Transaction)),
  };
}

const parsedDates = new WeakMap<PGlite, Record<number, Parser>>();

/** On drizzle's PGlite client (readsAsText): its instance, and the transaction it runs in, if any (executeNamed). */
const ON_PGLITE = Symbol('pglite');
type OnPglite = { pglite: PGlite; tx?: Transaction };

/**
 * The instance as pg-boss expects a connection to read: timestamps as Dates (node-postgres's way), with the parsers
 * `readsAsText` took off the instance passed back with each of its statements.
 */
export function withParsedDates(pglite: PGlite): PGlite {
  const parsers = parsedDates.get(pglite) ?? {};
  return {
    query: (text: string, params?: unknown[], options?: QueryOptions) =>
      pglite.query(text, params, { ...options, parsers: { ...parsers, ...options?.parsers } }),
    exec: (text: string, options?: QueryOptions) =>
      pglite.exec(text, { ...options, parsers: { ...parsers, ...options?.parsers } }),
  } as unknown as PGlite;
}

/** Applies the committed SQL migrations; on PostgreSQL under an advisory lock so several processes may start at once. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => undefined);
    client.release();
  }
}

export async function ping(database: Database): Promise<boolean> {
  try {
    await database.db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** A value of a prepared statement: a text, an integer, NULL, or an array of texts, integers and NULLs. */
export type StatementValue = string | number | null | readonly (string | number | null)[];

const isScalar = (v: unknown) => v === null || typeof v === 'string' || Number.isSafeInteger(v);
/** whether sqlLiteral can write the value (executeNamed plans other statements each time on PGlite) */
const isStatementValue = (v: unknown): v is StatementValue => isScalar(v) || (Array.isArray(v) && v.every(isScalar));

/**
 * A text as a string literal of a statement's text: E'' with its quotes and backslashes doubled, so it reads the same
 * whatever standard_conforming_strings says. The one quoting of values written into statements (sqlLiteral below, the
 * exports' inlined queries).
 */
export const quoteText = (s: string) => `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * A value written into a statement's text as a literal, for PGlite's EXECUTE, which takes no bind parameters: a text
 * by `quoteText`, an integer as its digits, NULL as NULL, an array as its array literal (a text element in double
 * quotes, its quotes and backslashes escaped; an integer as its digits; NULL as NULL) within such a text. A NUL cannot
 * be stored in a text: it is refused as PostgreSQL refuses it bound (SQLSTATE 22021), never written.
 */
export function sqlLiteral(value: StatementValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return integer(value);
  const element = (e: string | number | null) =>
    e === null ? 'NULL' : typeof e === 'number' ? integer(e) : `"${e.replace(/[\\"]/g, '\\$&')}"`;
  const text = typeof value === 'string' ? value : `{${value.map(element).join(',')}}`;
  if (text.includes('\0'))
    throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  return quoteText(text);
}

function integer(value: number) {
  if (!Number.isSafeInteger(value)) throw new Error(`${value} is not an integer`);
  return String(value);
}

/** Where a prepared statement runs inside a transaction: the transaction's own connection. */
export type InTransaction = { pglite: Transaction } | { client: pg.PoolClient };

/**
 * A statement planned once per connection and then only executed: for statements run often whose planning costs
 * more than their run (the session check of every request: ~0.5 ms of ~0.8 on PostgreSQL, ~0.6 of ~0.9 on PGlite;
 * staging's look-up of each chunk).
 * - PostgreSQL: a named statement; node-postgres parses it once on each connection (it keeps the names per
 *   connection, so a new or replaced connection parses it again, and a failed parse is not remembered).
 * - PGlite (one connection): PREPARE once per instance, then EXECUTE (one simple-protocol message: a query with
 *   parameters is five, parse, describe, bind, execute and sync). EXECUTE takes no bind parameters, so the values
 *   are written into it as literals (`sqlLiteral`), each coerced to its parameter's type as a bound one would be.
 *   A statement gone (DISCARD, a new session) is prepared again.
 * `types` are the parameters' SQL types, `text` refers to them as $1, $2... Given `on`, it runs on that
 * transaction's connection; on PGlite a statement so run must always be (it is prepared inside the transaction,
 * where PGlite's own lock is held; PREPARE is not undone by a rollback), and one found gone there fails the
 * transaction, to be prepared again by the next call.
 */
export function preparedStatement<Row>(name: string, types: readonly string[], text: string) {
  return async (database: Database, values: readonly StatementValue[], on?: InTransaction): Promise<Row[]> => {
    if (values.length !== types.length) throw new Error(`${name} takes ${types.length} values`);
    if (!database.pglite) {
      const client = on && 'client' in on ? on.client : database.pool!;
      return (await client.query<Row & pg.QueryResultRow>({ name, text, values: [...values] })).rows;
    }
    const runner: Runner = on && 'pglite' in on ? on.pglite : database.pglite;
    return executeOnPglite<Row>(database.pglite, runner, name, `(${types.join(', ')})`, text, values, !!on);
  };
}

/** The statements prepared on each PGlite instance, by name: their text and their PREPARE. */
const preparedOn = new WeakMap<PGlite, Map<string, { text: string; done: Promise<unknown> }>>();

function prepareOnPglite(pglite: PGlite, runner: Runner, name: string, types: string, text: string) {
  let mine = preparedOn.get(pglite);
  if (!mine) preparedOn.set(pglite, (mine = new Map()));
  const known = mine.get(name);
  if (known) {
    if (known.text !== text) throw new Error(`the prepared statement ${name} was given another text`);
    return known.done;
  }
  const done: Promise<unknown> = runner.exec(`PREPARE ${name}${types} AS ${text}`).catch((err: unknown) => {
    // duplicate_prepared_statement: prepared already (by a call that met it gone at the same time)
    if ((err as { code?: string }).code === '42P05') return;
    if (mine.get(name)?.done === done) mine.delete(name);
    throw err;
  });
  mine.set(name, { text, done });
  return done;
}

/**
 * PGlite's half of preparedStatement and executeNamed: PREPARE once per instance (`types`: the parameters' types in
 * parentheses, or empty to have PostgreSQL infer them from the text), then EXECUTE with the values as literals.
 */
async function executeOnPglite<Row>(
  pglite: PGlite,
  runner: Runner,
  name: string,
  types: string,
  text: string,
  values: readonly StatementValue[],
  inTransaction: boolean,
): Promise<Row[]> {
  const execute = `EXECUTE ${name}${values.length ? `(${values.map(sqlLiteral).join(', ')})` : ''}`;
  const run = async () => ((await runner.exec(execute))[0]?.rows ?? []) as Row[];
  const preparing = prepareOnPglite(pglite, runner, name, types, text);
  await preparing;
  try {
    return await run();
  } catch (err) {
    // invalid_sql_statement_name: the statement is gone; prepare it again, once (in a transaction, by the next call)
    if ((err as { code?: string }).code !== '26000') throw err;
    const mine = preparedOn.get(pglite);
    if (mine?.get(name)?.done === preparing) mine.delete(name);
    if (inTransaction) throw err;
    await prepareOnPglite(pglite, runner, name, types, text);
    return await run();
  }
}

type Runner = Pick<PGlite, 'exec'> | Pick<Transaction, 'exec'>;

/**
 * Runs a raw statement as the named prepared statement `name`, on the executor's connection (inside the caller's
 * transaction when given one), planned once and then only executed. For the ledger's statements, run for every
 * entry, whose planning cost about as much as their run (issue 21). The statement's text must be the same on every
 * call, only its parameters varying (node-postgres refuses a name given another text, and so does PGlite's half).
 * - PostgreSQL: parsed and planned once per pool connection (node-postgres keeps the names per connection), then
 *   only bound and executed.
 * - PGlite: inside a transaction, PREPARE (the parameters' types inferred from the text) and EXECUTE with the values
 *   as literals, as preparedStatement does. Outside a transaction, or with a value `sqlLiteral` cannot write (a
 *   fraction, a boolean, a date), it is planned each time as by `execute`: a PREPARE queued outside a transaction
 *   could wait for one that waits for it.
 */
export async function executeNamed<T>(executor: Executor, name: string, query: SQL): Promise<T[]> {
  const q = pgDialect.sqlToQuery(query);
  const session = executor._.session as unknown as { client?: { [ON_PGLITE]?: OnPglite } };
  const on = session.client?.[ON_PGLITE];
  if (on?.tx && q.params.every(isStatementValue))
    return executeOnPglite<T>(on.pglite, on.tx, name, '', q.sql, q.params as StatementValue[], true);
  const prepared = executor._.session.prepareQuery(q, undefined, name, false);
  return rowsOf<T>(await prepared.execute());
}

/**
 * `column = ANY($1::type[])`: a list of any length as one parameter, for the lists of a batch (a webhook's 500 event
 * ids and payout keys, a provider call's 1,000 payout ids). drizzle's `inArray` makes a parameter of each value:
 * building such a statement took the server more time than the database took to run it (drizzle's
 * `buildQueryFromSourceParams`, ~4% of the server's time through a batch of 20,000 payouts), and PostgreSQL then
 * parses and plans a thousand parameters. An empty list matches nothing, as `inArray`'s does. Short lists of known
 * size (roles, statuses) keep `inArray`.
 */
export const anyOf = (column: Column | SQL, values: readonly (string | number)[], type: 'text' | 'bigint') =>
  sql`${column} = ANY(${sql.param(values)}::${sql.raw(type)}[])`;

/** Rows of a raw `db.execute` on either driver. */
export function rowsOf<T>(result: unknown): T[] {
  const r = result as { rows?: T[] } | T[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/** A unique violation (SQLSTATE 23505), of the named constraint or index when given, on either driver. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '23505') return !constraint || e.constraint === constraint || String(e).includes(constraint);
  }
  return false;
}

/** Escapes LIKE's wildcards (and its escape character) so a search matches what was typed, literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
