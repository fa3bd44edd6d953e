import pg from 'pg';
import { openDatabase } from '../apps/server/src/platform/db.ts';

/** A scratch database on the PostgreSQL server at `url`, created for one bench run and dropped after it. */
export async function scratchPostgres(url: string, poolSize: number) {
  const name = `obol_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = await openDatabase({ url: u.toString(), poolSize });
  return {
    database,
    url: u.toString(),
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
