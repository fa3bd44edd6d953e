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
      // a pool's end() resolves before its connections have closed: give them a moment to go by themselves, so
      // that FORCE only ends what was really left open (a server process that did not stop)
      for (let i = 0; i < 40; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
