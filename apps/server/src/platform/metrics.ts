import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MIGRATIONS_DIR, ping, rowsOf, type Database } from './db.ts';

// The numbers operators watch (docs/operations.md). The request histogram is this process's; every other
// metric is read from the database at each scrape, so any process answers for the whole service.

const MIGRATION_COUNT = (
  JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

/** Whether every committed migration ran on this database. */
export async function migrationsApplied(database: Database): Promise<boolean> {
  try {
    const [row] = rowsOf<{ n: number }>(
      await database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`),
    );
    return Number(row?.n ?? 0) >= MIGRATION_COUNT;
  } catch {
    return false;
  }
}

export async function readiness(database: Database) {
  const dbUp = await ping(database);
  const migrations = dbUp && (await migrationsApplied(database));
  return { status: dbUp && migrations ? ('ready' as const) : ('unavailable' as const), migrations, database: dbUp };
}

/** The bearer token of the request equals METRICS_TOKEN, compared in constant time (of their hashes). */
export function holdsMetricsToken(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '';
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(given), h(token));
}

/** Rows of a query, read at a scrape. */
export type ReadRows = <T>(query: SQL) => Promise<T[]>;

/**
 * A feature's metrics, read from its own tables: handed to createMetrics by app.ts, as the platform imports no
 * feature and names no feature's table.
 */
export interface MetricsSource {
  /** registers its gauges and counters, each reading with `read` at a scrape */
  register(registry: Registry, read: ReadRows): void;
  /** text added after the registry's (a histogram rendered from one query) */
  render?(read: ReadRows): Promise<string>;
}

export interface Metrics {
  registry: Registry;
  /** the Prometheus text of every metric */
  render(): Promise<string>;
}

/**
 * The registry of one app: the request histogram (fed by an onResponse hook), the job queue's metrics and the
 * features' (`sources`), read from the database.
 */
export function createMetrics(app: FastifyInstance, database: Database, sources: MetricsSource[] = []): Metrics {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (req, reply, done) => {
    // the route's pattern, never the raw URL (ids would make a series each); unmatched paths share one label
    const route = req.routeOptions.url ?? 'unmatched';
    requests.observe({ route, method: req.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  const read: ReadRows = async <T>(query: SQL) => rowsOf<T>(await database.db.execute(query));

  const jobCounts = (states: string) =>
    read<{ name: string; n: number }>(sql`
      SELECT name, count(*)::int AS n FROM pgboss.job WHERE state::text IN (${sql.raw(states)}) GROUP BY name`);

  new Gauge({
    name: 'obol_jobs_queued',
    help: 'Jobs waiting to run (created or waiting for a retry), by job name',
    labelNames: ['name'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await jobCounts(`'created', 'retry'`)) this.set({ name: r.name }, Number(r.n));
    },
  });

  new Counter({
    name: 'obol_jobs_failed_total',
    help: 'Jobs that failed for good (retries spent) and are still kept by the queue, by job name',
    labelNames: ['name'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await jobCounts(`'failed'`)) this.inc({ name: r.name }, Number(r.n));
    },
  });

  for (const source of sources) source.register(registry, read);

  return {
    registry,
    async render() {
      const extra = await Promise.all(sources.map((source) => source.render?.(read) ?? ''));
      return (await registry.metrics()) + extra.join('');
    },
  };
}
