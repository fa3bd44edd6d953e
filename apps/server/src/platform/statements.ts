/**
 * Statements planned once and then only executed (preparedStatement, executeNamed), on PostgreSQL as node-postgres's
 * named statements, on PGlite as PREPARE and EXECUTE with the values written as literals (sqlLiteral).
 *
 * What it buys (`npm run bench:budget`, with and without in turn, 2026-11-29, a loaded machine): the session check of
 * every request, a trivial route's p50 61% lower on PGlite (0.73 ms against 1.87) and 15% on PostgreSQL (1.11 against
 * 1.30); postEntry's rate +58% on PGlite (4 runs of 5; one run +85%, one -3%) and +3-30% on PostgreSQL (median +7%:
 * there it is one name given to node-postgres, no code of its own).
 */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import { pgDialect, rowsOf, type Database, type Executor } from './db.ts';
import { ON_PGLITE, type OnPglite } from './pglite-client.ts';

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

/**
 * Benches only (bench/budget.bench.ts measures what keeping plans buys): false plans every statement each time, as
 * a plain query would. Never changed by the product.
 */
export const plans = { keep: true };

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
      const named = plans.keep ? { name } : {};
      return (await client.query<Row & pg.QueryResultRow>({ ...named, text, values: [...values] })).rows;
    }
    const runner: Runner = on && 'pglite' in on ? on.pglite : database.pglite;
    if (!plans.keep) return (await runner.query<Row>(text, [...values])).rows;
    const typed = types.length ? `(${types.join(', ')})` : '';
    return executeOnPglite<Row>(database.pglite, runner, name, typed, text, values, !!on);
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

type Runner = Pick<PGlite, 'exec' | 'query'> | Pick<Transaction, 'exec' | 'query'>;

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
  if (!plans.keep) return rowsOf<T>(await executor._.session.prepareQuery(q, undefined, undefined, false).execute());
  if (on?.tx && q.params.every(isStatementValue))
    return executeOnPglite<T>(on.pglite, on.tx, name, '', q.sql, q.params as StatementValue[], true);
  const prepared = executor._.session.prepareQuery(q, undefined, name, false);
  return rowsOf<T>(await prepared.execute());
}
