import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase, runMigrations, type Database } from '../../platform/db.ts';
import { GENESIS, verifyChain } from './chain.ts';
import { activityLog } from '../../platform/tables.ts';

let database: Database | undefined;
const dirs: string[] = [];
afterAll(async () => {
  await database?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The committed migrations up to (not including) the one that adds the chain, in a folder of their own. */
function migrationsBeforeChain(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'obol-migrations-'));
  dirs.push(dir);
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const file = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(file, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith('_activity_log_chain'));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(file, JSON.stringify(journal));
  return dir;
}

describe('the migration that adds the chain (PGlite)', () => {
  it('chains the records written before it, in id order, and the chain goes on from there', async () => {
    database = await openDatabase({});
    const db = database.db;
    await migrate(db as never, { migrationsFolder: migrationsBeforeChain() });
    // records of the old log: nulls, jsonb with keys in any order, times to the microsecond, ids not in time order
    await db.execute(sql`
      INSERT INTO activity_log (id, user_id, user_name, user_email, action, target_type, target_id, before, after,
                                outcome, status_code, detail, ip, request_id, created_at)
      VALUES (5, 1, 'Ada Admin', 'admin@obol.example', 'auth.login', NULL, NULL, NULL, NULL,
              'success', 200, 'second factor: email', '10.0.0.1', 'r1', '2026-11-01T10:00:00.123456Z'),
             (9, NULL, NULL, 'ghost@obol.example', 'auth.login', NULL, NULL, NULL, NULL,
              'failure', 401, NULL, '10.0.0.2', 'r2', '2026-10-01T10:00:00Z'),
             (7, 1, 'Ada Admin', 'admin@obol.example', 'fee.update', 'merchant', '3', '{"z": 1, "a": [1, 2]}',
              '{"a": [1, 2], "z": 2.50}', 'success', 200, NULL, '10.0.0.1', 'r3', '2026-11-02T10:00:00Z')`);
    await runMigrations(database);

    const rows = await db.select().from(activityLog).orderBy(asc(activityLog.seq));
    expect(rows.map((r) => [r.id, r.seq])).toEqual([
      [5, 1],
      [7, 2],
      [9, 3],
    ]);
    expect(rows[0].prevHash).toBe(GENESIS);
    expect(rows[1].prevHash).toBe(rows[0].hash);
    expect(await verifyChain(db)).toEqual({ intact: true, checked: 3, head: { seq: 3, hash: rows[2].hash } });

    // a new record joins the chain after them
    await db.insert(activityLog).values({ id: 10, action: 'auth.logout', outcome: 'success', statusCode: 200 });
    const [last] = await db
      .select()
      .from(activityLog)
      .orderBy(sql`seq DESC`)
      .limit(1);
    expect(last).toMatchObject({ id: 10, seq: 4, prevHash: rows[2].hash });
    expect(await verifyChain(db)).toMatchObject({ intact: true, checked: 4 });
  });
});
