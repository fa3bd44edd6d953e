import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { MIGRATIONS_DIR, ping, rowsOf, type Database } from './db.ts';

// The numbers operators watch (docs/operations.md). The request histogram is this process's; every other
// metric is read from the database at each scrape, so any process answers for the whole service.

/** Ages of a payout still in flight (Processing or Pending), from its submission (or creation) */
const AGE_BUCKETS = [
  { label: 'lt_1m', below: 60 },
  { label: '1m_10m', below: 600 },
  { label: '10m_1h', below: 3600 },
  { label: 'gt_1h', below: null },
] as const;

/** Upper bounds (seconds) of the settlement lag histogram: submission to the provider's final event */
const LAG_BUCKETS = [0.5, 1, 5, 15, 60, 300, 900, 3600, 21600, 86400];

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

export interface Metrics {
  registry: Registry;
  /** the Prometheus text of every metric */
  render(): Promise<string>;
}

/** The registry of one app: the request histogram (fed by an onResponse hook) and the database-read metrics. */
export function createMetrics(app: FastifyInstance, database: Database): Metrics {
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

  const read = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(query));

  new Gauge({
    name: 'obol_payouts_in_flight',
    help: 'Payouts sent and not yet settled (Processing or Pending), by age since submission',
    labelNames: ['age'] as const,
    registers: [registry],
    async collect() {
      const cases = AGE_BUCKETS.map((b, i) => {
        const from = i === 0 ? 0 : (AGE_BUCKETS[i - 1].below ?? 0);
        const below = b.below === null ? sql`` : sql` AND age < ${b.below}::int`;
        return sql`count(*) FILTER (WHERE age >= ${from}::int${below})::int AS ${sql.identifier(b.label)}`;
      });
      const [row] = await read<Record<string, number>>(sql`
        SELECT ${sql.join(cases, sql`, `)}
        FROM (SELECT extract(epoch FROM now() - coalesce(submitted_at, created_at)) AS age
              FROM payouts WHERE status IN ('Processing', 'Pending')) p`);
      for (const b of AGE_BUCKETS) this.set({ age: b.label }, Number(row?.[b.label] ?? 0));
    },
  });

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

  new Gauge({
    name: 'obol_webhook_deliveries',
    help: "Merchants' webhook deliveries kept (30 days after they end), by status: Pending (retrying), Succeeded, Failed",
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await read<{ status: string; n: number }>(sql`
        SELECT s.status, count(d.id)::int AS n FROM unnest(ARRAY['Pending', 'Succeeded', 'Failed']) AS s(status)
        LEFT JOIN webhook_deliveries d ON d.status = s.status GROUP BY s.status`);
      for (const r of rows) this.set({ status: r.status }, Number(r.n));
    },
  });
  new Counter({
    name: 'obol_webhook_attempts_total',
    help: "Tries to deliver merchants' webhooks still in the log, by result: success (a 2xx) or failure",
    labelNames: ['result'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const [row] = await read<{ ok: number; failed: number }>(sql`
        SELECT count(*) FILTER (WHERE response_status BETWEEN 200 AND 299)::int AS ok,
               count(*) FILTER (WHERE response_status IS NULL OR response_status NOT BETWEEN 200 AND 299)::int AS failed
        FROM webhook_attempts`);
      this.inc({ result: 'success' }, Number(row?.ok ?? 0));
      this.inc({ result: 'failure' }, Number(row?.failed ?? 0));
    },
  });

  /** settlement lag, from every settled payout: a histogram rendered from one query */
  async function settlementLag(): Promise<string> {
    const buckets = LAG_BUCKETS.map(
      (le, i) => sql`count(*) FILTER (WHERE lag <= ${le}::float8)::bigint AS ${sql.identifier(`b${i}`)}`,
    );
    const [row] = await read<Record<string, number | string>>(sql`
      SELECT ${sql.join(buckets, sql`, `)}, count(*)::bigint AS n, coalesce(sum(lag), 0)::float8 AS total
      FROM (SELECT extract(epoch FROM settled_at - submitted_at)::float8 AS lag FROM payouts
            WHERE settled_at IS NOT NULL AND submitted_at IS NOT NULL) s`);
    const name = 'obol_settlement_lag_seconds';
    const lines = [
      `# HELP ${name} Time from a payout's submission to the provider's final event, over every settled payout`,
      `# TYPE ${name} histogram`,
      ...LAG_BUCKETS.map((le, i) => `${name}_bucket{le="${le}"} ${Number(row?.[`b${i}`] ?? 0)}`),
      `${name}_bucket{le="+Inf"} ${Number(row?.n ?? 0)}`,
      `${name}_sum ${Number(row?.total ?? 0)}`,
      `${name}_count ${Number(row?.n ?? 0)}`,
    ];
    return lines.join('\n') + '\n';
  }

  return {
    registry,
    async render() {
      return (await registry.metrics()) + (await settlementLag());
    },
  };
}
