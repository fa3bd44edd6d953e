import path from 'node:path';
import type { Config } from './config.ts';
import { openDatabase, runMigrations, type Database } from './db.ts';

/** Opens the configured database (PGlite under DATA_DIR unless DATABASE_URL is set) and migrates it. */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'pglite') },
  );
  await runMigrations(database);
  return database;
}
