import { sql } from 'drizzle-orm';
import { Counter, Gauge } from 'prom-client';
import type { MetricsSource } from '../../platform/metrics.ts';

/** Merchants' webhook deliveries and attempts (docs/operations.md), read at each scrape: handed in by app.ts. */
export const webhookMetrics: MetricsSource = {
  register(registry, read) {
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
                 count(*) FILTER (
                   WHERE response_status IS NULL OR response_status NOT BETWEEN 200 AND 299
                 )::int AS failed
          FROM webhook_attempts`);
        this.inc({ result: 'success' }, Number(row?.ok ?? 0));
        this.inc({ result: 'failure' }, Number(row?.failed ?? 0));
      },
    });
  },
};
