import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '../test/database.ts';
import { sql } from 'drizzle-orm';
import { executeNamed, preparedStatement, rowsOf, type Database } from './db.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

const echo = preparedStatement<{ word: string; at: Date }>(
  'obol_test_echo',
  ['text', 'timestamptz'],
  'SELECT $1::text AS word, $2::timestamptz AS at',
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

  it('binds any value on PostgreSQL; on PGlite refuses one that is not plain (never quotes it)', async () => {
    const odd = "x'); SELECT 1; --";
    const at = '2026-11-26T10:00:00Z';
    if (database.pglite) await expect(echo(database, [odd, at])).rejects.toThrow(/not plain/);
    else expect((await echo(database, [odd, at]))[0].word).toBe(odd);
    await expect(echo(database, ['x'])).rejects.toThrow(/takes 2 values/);
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
      if (database.pglite) return { out, prepared: [] };
      const prepared = rowsOf<{ name: string; calls: number | string }>(
        await tx.execute(
          sql`SELECT name, generic_plans + custom_plans AS calls FROM pg_prepared_statements WHERE name = 'obol_test_twice'`,
        ),
      );
      return { out, prepared };
    });
    expect(answers.out).toEqual([2, 4, 6]);
    if (!database.pglite) expect(answers.prepared).toEqual([{ name: 'obol_test_twice', calls: expect.anything() }]);
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
});
