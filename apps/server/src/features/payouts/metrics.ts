import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { MetricsSource } from '../../platform/metrics.ts';

// The payouts' metrics (docs/operations.md), read from the payouts table at each scrape: handed to the platform's
// registry by app.ts.

/** Ages of a payout still in flight (Processing or Pending), from its submission (or creation) */
const AGE_BUCKETS = [
  { label: 'lt_1m', below: 60 },
  { label: '1m_10m', below: 600 },
  { label: '10m_1h', below: 3600 },
  { label: 'gt_1h', below: null },
] as const;

/** Upper bounds (seconds) of the settlement lag histogram: submission to the provider's final event */
const LAG_BUCKETS = [0.5, 1, 5, 15, 60, 300, 900, 3600, 21600, 86400];

export const payoutMetrics: MetricsSource = {
  register(registry, read) {
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
                FROM payouts WHERE status IN ('in_flight', 'pending')) p`);
        for (const b of AGE_BUCKETS) this.set({ age: b.label }, Number(row?.[b.label] ?? 0));
      },
    });
  },

  /** settlement lag, from every settled payout: a histogram rendered from one query */
  async render(read) {
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
  },
};
