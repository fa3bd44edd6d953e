import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { withTestDatabase } from '../test/database.ts';
import { rowsOf, type Database } from './db.ts';
import { executeNamed, preparedStatement, type InTransaction } from './statements.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

const echo = preparedStatement<{ word: string; at: Date }>(
  'obol_test_echo',
  ['text', 'timestamptz'],
  'SELECT $1::text AS word, $2::timestamptz AS at',
);

const lists = preparedStatement<{ words: string[]; n: number; none: string[]; count: number }>(
  'obol_test_lists',
  ['text[]', 'integer', 'text[]'],
  'SELECT $1::text[] AS words, $2::int AS n, $3::text[] AS none, cardinality($1::text[]) AS count',
);

describe('preparedStatement', () => {
  it('answers the values given, call after call and on several connections at once', async () => {
    const at = '2026-11-26T10:00:00.000Z';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => echo(database, [`a${i}f`, at]).then((rows) => rows[0])),
    );
    expect(answers.map((r) => r.word)).toEqual(Array.from({ length: 12 }, (_, i) => `a${i}f`));
    for (const r of answers) expect(new Date(r.at).toISOString()).toBe(at);
  });

  it('answers any text, integer or text array as given: bound on PostgreSQL, a literal on PGlite', async () => {
    const at = '2026-11-26T10:00:00Z';
    const odd = [
      "x'); SELECT 1; --",
      "\\'); SELECT 1; --",
      "back\\slash \\' and a quote",
      '"quoted", {braced}, NULL',
      'NULL',
      '',
      ' spaced ',
      'line\nbreak\ttab',
      'é ünïcödé 💸 $$ $1',
    ];
    for (const word of odd) expect((await echo(database, [word, at]))[0].word).toBe(word);
    const [row] = await lists(database, [odd, 42, []]);
    expect(row).toEqual({ words: odd, n: 42, none: [], count: odd.length });
    await expect(echo(database, ['x'])).rejects.toThrow(/takes 2 values/);
  });

  it('refuses a NUL as PostgreSQL refuses it bound (22021), and a number that is not an integer', async () => {
    const at = '2026-11-26T10:00:00Z';
    await expect(echo(database, ['a\0b', at])).rejects.toMatchObject({ code: '22021' });
    await expect(lists(database, [['a', 'b\0'], 1, []])).rejects.toMatchObject({ code: '22021' });
    if (database.pglite) await expect(lists(database, [['a'], 1.5, []])).rejects.toThrow(/not an integer/);
  });

  it('runs inside a transaction on its connection, its writes undone with it', async () => {
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS obol_test_prepared (n int)`);
    const insert = preparedStatement<{ n: number }>(
      'obol_test_prepared_insert',
      ['integer'],
      'INSERT INTO obol_test_prepared VALUES ($1) RETURNING n',
    );
    const attempt = async (n: number, undo: boolean) => {
      const work = async (on: InTransaction) => {
        const [row] = await insert(database, [n], on);
        expect(row.n).toBe(n);
        if (undo) throw new Error('undo');
      };
      if (database.pglite) return database.pglite.transaction((tx) => work({ pglite: tx }));
      const client = await database.pool!.connect();
      try {
        await client.query('BEGIN');
        await work({ client });
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    };
    await attempt(1, false);
    await expect(attempt(2, true)).rejects.toThrow('undo');
    await attempt(3, false);
    expect(rowsOf(await database.db.execute(sql`SELECT n FROM obol_test_prepared ORDER BY n`))).toEqual([
      { n: 1 },
      { n: 3 },
    ]);
  });

  it('prepares again a statement the database no longer has', async () => {
    await echo(database, ['before', '2026-11-26T10:00:00Z']);
    if (database.pglite) await database.pglite.exec('DEALLOCATE ALL');
    else return; // node-postgres keeps its own record per connection; nothing deallocates behind its back
    // several calls meet it gone at once: one prepares it, all answer
    const rows = await Promise.all(['a', 'b', 'c'].map((w) => echo(database, [w, '2026-11-26T10:00:00Z'])));
    expect(rows.map(([r]) => r.word)).toEqual(['a', 'b', 'c']);
  });
});

describe('executeNamed', () => {
  const twice = (n: number) => sql`SELECT ${n}::int * 2 AS doubled`;

  it("runs in the caller's transaction, as a statement prepared once on PostgreSQL, with each call's values", async () => {
    const answers = await database.db.transaction(async (tx) => {
      const out: number[] = [];
      for (const n of [1, 2, 3])
        out.push((await executeNamed<{ doubled: number }>(tx, 'obol_test_twice', twice(n)))[0].doubled);
      const prepared = rowsOf<{ name: string; calls: number | string }>(
        await tx.execute(
          sql`SELECT name, generic_plans + custom_plans AS calls FROM pg_prepared_statements
            WHERE name = 'obol_test_twice'`,
        ),
      );
      return { out, prepared };
    });
    expect(answers.out).toEqual([2, 4, 6]);
    // prepared on both engines (on PGlite by PREPARE inside the transaction)
    expect(answers.prepared).toEqual([{ name: 'obol_test_twice', calls: expect.anything() }]);
    // and its writes roll back with the transaction
    await database.db.execute(sql`CREATE TABLE IF NOT EXISTS obol_test_named (n int)`);
    await expect(
      database.db.transaction(async (tx) => {
        await executeNamed(tx, 'obol_test_named_insert', sql`INSERT INTO obol_test_named VALUES (${7}::int)`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(rowsOf(await database.db.execute(sql`SELECT n FROM obol_test_named`))).toEqual([]);
  });

  it('takes texts, integers, NULLs and arrays of them, and plans each time a value it cannot write (PGlite)', async () => {
    const odd = 'q\'uote \\ "dq" {b} NULL';
    const echoed = (values: { t: string | null; n: number | null; texts: (string | null)[]; ns: number[] }) =>
      database.db.transaction((tx) =>
        executeNamed<{ t: string | null; n: number | null; texts: (string | null)[]; ns: number[] }>(
          tx,
          'obol_test_values',
          sql`SELECT ${values.t}::text AS t, ${values.n}::int AS n, ${sql.param(values.texts)}::text[] AS texts,
            ${sql.param(values.ns)}::int[] AS ns`,
        ),
      );
    expect(await echoed({ t: odd, n: -7, texts: [odd, null, ''], ns: [1, -2, 3] })).toEqual([
      { t: odd, n: -7, texts: [odd, null, ''], ns: [1, -2, 3] },
    ]);
    expect(await echoed({ t: null, n: null, texts: [], ns: [] })).toEqual([{ t: null, n: null, texts: [], ns: [] }]);
    // a boolean is not written as a literal: that call is planned as any other, with the same answer
    const flag = await database.db.transaction((tx) =>
      executeNamed<{ b: boolean }>(tx, 'obol_test_flag', sql`SELECT ${true}::boolean AS b`),
    );
    expect(flag).toEqual([{ b: true }]);
    await expect(
      database.db.transaction((tx) => executeNamed(tx, 'obol_test_values', sql`SELECT 1 AS other`)),
    ).rejects.toThrow();
  });
});
