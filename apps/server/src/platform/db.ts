import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql, type Column, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { readsAsText } from './pglite-client.ts';
// No schema is given to drizzle: queries name their tables (the relational `db.query` API is not used), so the
// platform imports no feature's tables (docs/architecture.md).
export type Db = NodePgDatabase;
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
    const db = drizzlePg(pool);
    return { kind: 'postgres', db, pool, url: opts.url, close: () => pool.end() };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm backs the 'contains' searches; PostgreSQL servers have it in their contrib package
  const pglite = await PGlite.create({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), extensions: { pg_trgm } });
  const db = drizzlePglite(readsAsText(pglite) as unknown as PGlite, {}) as unknown as Db;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

/** Applies the committed SQL migrations; on PostgreSQL under an advisory lock, so several processes may start. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const client = await database.pool!.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
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

/**
 * Calls `onNotify` at the commit of every transaction that NOTIFYs `channel`, in any process: a dedicated
 * connection LISTENing on a PostgreSQL server (opened again after it drops), PGlite's own listener when embedded.
 * Answers the function that stops listening.
 */
export async function listen(database: Database, channel: string, onNotify: () => void): Promise<() => Promise<void>> {
  if (database.pglite) return database.pglite.listen(channel, onNotify);
  let client: pg.Client | undefined;
  let stopped = false;
  const retry = () => {
    if (!stopped) setTimeout(() => void connect(), 1000).unref();
  };
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: database.url });
    c.on('notification', onNotify);
    c.on('error', () => {
      c.end().catch(() => undefined);
      retry();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      c.end().catch(() => undefined);
      return retry();
    }
    client = c;
    // what committed while the connection was down is read now
    onNotify();
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}
