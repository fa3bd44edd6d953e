import {
  normaliseRange,
  VOLUME_DEFAULT_DAYS,
  volumeGroupOf,
  type PayoutStatus,
  type PayoutVolume,
  type VolumeDay,
  type VolumeGroup,
} from '@obol/contract';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { nextDay, today } from '../../platform/dates.ts';
import type { Scope } from '../../platform/scope.ts';
import { payoutWhere, volumeQuery, type PayoutFilters } from './query.ts';
import { wordOf } from '../engine/status.ts';

/** The day `n` days before `day` (YYYY-MM-DD). */
function daysBefore(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

const zero = () => ({ count: 0, amount: 0 });
const emptyDay = (day: string): VolumeDay => ({ day, completed: zero(), pending: zero(), failed: zero() });

/**
 * The payout-volume chart: the payout list's own WHERE (scope and filters, so the figures are exactly the list's),
 * grouped by calendar day in the caller's time zone and by status. With no dates it covers the last 30 days.
 * Amounts are summed in the database as integer cents.
 */
export async function payoutVolume(db: Executor, scope: Scope, f: PayoutFilters): Promise<PayoutVolume> {
  const asked = normaliseRange(f.start_date, f.end_date);
  const end = asked.end_date ?? today(f.tz);
  const start = asked.start_date ?? daysBefore(end, VOLUME_DEFAULT_DAYS - 1);
  const where = payoutWhere(scope, { ...f, start_date: start, end_date: end });
  const res = await db.execute(volumeQuery(where, f.tz));

  const days = new Map<string, VolumeDay>();
  for (let d = start; d <= end; d = nextDay(d)) days.set(d, emptyDay(d));
  const totals: Record<VolumeGroup, { count: number; amount: number }> = {
    completed: zero(),
    pending: zero(),
    failed: zero(),
  };
  for (const r of rowsOf<{ day: string; status: string; count: number | string; amount: number | string }>(res)) {
    const g = volumeGroupOf(wordOf('payout', r.status) as PayoutStatus);
    const day = days.get(r.day);
    const count = Number(r.count);
    const amount = Number(r.amount);
    if (day) {
      day[g].count += count;
      day[g].amount += amount;
    }
    totals[g].count += count;
    totals[g].amount += amount;
  }
  return { start_date: start, end_date: end, tz: f.tz, days: [...days.values()], totals };
}
