import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db.ts';
import type { Mailer } from './mail.ts';
import type { Jobs } from './jobs.ts';
import type { ProviderClient } from './provider.ts';
import type { FileStore } from './files.ts';

/** What features are built from: handed to every feature's routes and services. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  jobs: Jobs;
  provider: ProviderClient;
  /** generated files: exports and reports */
  files: FileStore;
}
