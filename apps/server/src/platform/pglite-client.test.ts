import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { withTestDatabase } from '../test/database.ts';
import { pgDialect, rowsOf, type Database } from './db.ts';
import { AS_TEXT, withParsedDates } from './pglite-client.ts';

let database: Database;
withTestDatabase(async (made) => {
  database = made;
});

describe('reading dates and times', () => {
  const typed = sql`SELECT '2026-11-26 10:00:00.123456+00'::timestamptz AS at,
    '2026-11-26 10:00:00'::timestamp AS local, '2026-11-26'::date AS day, '1 day 02:00:00'::interval AS span,
    ARRAY[1.50, 2]::numeric[] AS amounts,
    ARRAY['2026-11-26 10:00:00+00'::timestamptz] AS ats, ARRAY['2026-11-26'::date] AS days, 7::int AS n`;

  it('gives drizzle the texts PostgreSQL writes for timestamps, dates, intervals and their arrays, on both engines', async () => {
    const [row] = rowsOf<Record<string, unknown>>(await database.db.execute(typed));
    for (const key of ['at', 'local', 'day', 'span', 'amounts', 'ats', 'days']) expect(typeof row[key]).toBe('string');
    expect(new Date(row.at as string).toISOString()).toBe('2026-11-26T10:00:00.123Z');
    expect(row).toMatchObject({ local: '2026-11-26 10:00:00', day: '2026-11-26', span: '1 day 02:00:00' });
    expect(row).toMatchObject({ amounts: '{1.50,2}', days: '{2026-11-26}', n: 7 });
    // and inside a transaction
    const [inTx] = await database.db.transaction(async (tx) =>
      rowsOf<Record<string, unknown>>(await tx.execute(typed)),
    );
    expect(inTx).toEqual(row);
  });

  it("PGlite: drizzle's statements reach it with no parsers to merge (the instance reads those types as text)", async () => {
    const pglite = database.pglite;
    if (!pglite) return;
    const asDrizzleAsks = Object.fromEntries(AS_TEXT.map((oid) => [oid, (v: string) => v]));
    const expected = (await pglite.query(pgDialectText(typed), [], { parsers: asDrizzleAsks })).rows[0];
    const query = vi.spyOn(pglite, 'query');
    try {
      const [row] = rowsOf<Record<string, unknown>>(await database.db.execute(typed));
      await database.db.transaction((tx) => tx.execute(typed));
      expect(row).toEqual(expected);
      expect(query).toHaveBeenCalled();
      for (const [, , options] of query.mock.calls) expect(options?.parsers).toBeUndefined();
    } finally {
      query.mockRestore();
    }
    // pg-boss reads through withParsedDates: timestamps as Dates, as node-postgres gives them
    const boss = withParsedDates(pglite);
    const [queried] = (
      await boss.query<{ at: Date; n: number }>('SELECT $1::timestamptz AS at, 7 AS n', ['2026-11-26T10:00:00Z'])
    ).rows;
    expect(queried.at).toBeInstanceOf(Date);
    expect(queried).toEqual({ at: new Date('2026-11-26T10:00:00Z'), n: 7 });
    const [[execed]] = (await boss.exec("SELECT '2026-11-26 10:00:00+00'::timestamptz AS at")).map((r) => r.rows);
    expect(execed.at).toEqual(new Date('2026-11-26T10:00:00Z'));
  });
});

const pgDialectText = (query: ReturnType<typeof sql>) => pgDialect.sqlToQuery(query).sql;
