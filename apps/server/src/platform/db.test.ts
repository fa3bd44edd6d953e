import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { withTestDatabase } from '../test/database.ts';
import { anyOf, rowsOf, type Database } from './db.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

describe('anyOf', () => {
  it('matches a list of any length as one parameter, texts as given, and an empty list matches nothing', async () => {
    const words = ["q'uote", 'back\\slash', '"dq", {b}', 'NULL', '', 'é 💸'];
    const many = Array.from({ length: 5_000 }, (_, i) => `k${i}`);
    const rows = rowsOf<{ w: string }>(
      await database.db.execute(
        sql`SELECT w FROM unnest(${sql.param([...words, 'other'])}::text[]) AS t(w)
          WHERE ${anyOf(sql`w`, [...words, ...many], 'text')}`,
      ),
    );
    expect(rows.map((r) => r.w).sort()).toEqual([...words].sort());
    const ids = rowsOf<{ n: number | string }>(
      await database.db.execute(
        sql`SELECT n FROM generate_series(1, 10) AS g(n)
          WHERE ${anyOf(sql`n`, [2, 3, 9_007_199_254_740_991], 'bigint')}`,
      ),
    );
    expect(ids.map((r) => Number(r.n))).toEqual([2, 3]);
    const none = await database.db.execute(
      sql`SELECT 1 FROM generate_series(1, 3) AS g(n) WHERE ${anyOf(sql`n`, [], 'bigint')}`,
    );
    expect(rowsOf(none)).toEqual([]);
  });
});
