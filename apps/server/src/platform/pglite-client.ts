/**
 * The client drizzle is given on PGlite (`readsAsText`), and the instance as pg-boss reads it (`withParsedDates`):
 * which types are read as text, and where drizzle's transaction runs (for executeNamed, statements.ts).
 */
import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';

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
export function readsAsText(pglite: PGlite) {
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
export const ON_PGLITE = Symbol('pglite');
export type OnPglite = { pglite: PGlite; tx?: Transaction };

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
