import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { payoutScope } from '../transactions/query.ts';

/**
 * The fees of the last `months` months (UTC), per merchant for staff and per holder (the merchant and its brands)
 * otherwise: a manual payout's own fee in the month it completed; an uploaded batch's fee less what it returned, in
 * the month of its first completed payout (so a batch is counted once).
 */
export async function feeChart(db: Executor, scope: Scope, months: number) {
  const now = new Date();
  const labels = Array.from({ length: months }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
  const from = `${labels[0]}-01T00:00:00Z`;
  const by = scope.kind === 'all' ? sql`m.name` : sql`hb.name`;
  const rows = rowsOf<{ month: string; name: string; fee: number | string }>(
    await db.execute(sql`
      WITH done AS (
        SELECT p.batch_id, p.merchant_id, p.behalf_of_id, p.fee, p.updated_at FROM payouts p
        WHERE p.status = 'completed' AND ${payoutScope(scope)} AND p.updated_at >= ${from}::timestamptz
      ),
      lines AS (
        SELECT d.merchant_id, d.behalf_of_id, d.updated_at AS at, CASE WHEN d.fee > 0 THEN d.fee ELSE 0 END AS fee
        FROM done d JOIN batches b ON b.batch_id = d.batch_id WHERE b.payout_type <> 'Batch Payout'
        UNION ALL
        SELECT b.merchant_id, b.behalf_of_id, min(d.updated_at), greatest(max(b.fee - b.fee_returned), 0)
        FROM done d JOIN batches b ON b.batch_id = d.batch_id WHERE b.payout_type = 'Batch Payout'
        GROUP BY b.batch_id, b.merchant_id, b.behalf_of_id
      )
      SELECT to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, ${by} AS name, sum(l.fee) AS fee
      FROM lines l JOIN users m ON m.id = l.merchant_id JOIN users hb ON hb.id = l.behalf_of_id
      GROUP BY 1, 2 ORDER BY 2, 1`),
  );
  const series = new Map<string, number[]>();
  for (const r of rows) {
    const i = labels.indexOf(r.month);
    if (i < 0) continue;
    if (!series.has(r.name))
      series.set(
        r.name,
        labels.map(() => 0),
      );
    series.get(r.name)![i] += Number(r.fee);
  }
  return { months: labels, series: [...series].map(([name, fees]) => ({ name, fees })) };
}
