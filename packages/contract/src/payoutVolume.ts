import { z } from 'zod';
import { normaliseRange } from './listFilters.ts';
import type { PayoutStatus } from './transactionStatus.ts';

/**
 * The payout-volume chart above the payout list: per calendar day (in the browser's time zone) the count and the
 * amount of payouts in each status group, over the list's own filters. The request is the list's filters
 * (payoutVolumeRequest in transactions.ts); its date range covers at most VOLUME_MAX_DAYS and defaults to the
 * last VOLUME_DEFAULT_DAYS days up to today.
 */
const VOLUME_MAX_DAYS = 92;
export const VOLUME_DEFAULT_DAYS = 30;
const VOLUME_MSG = { tooLong: `The chart covers at most ${VOLUME_MAX_DAYS} days` } as const;

/** The status groups of the chart, in stacking order (bottom first). */
export const VOLUME_GROUPS = ['completed', 'pending', 'failed'] as const;
export type VolumeGroup = (typeof VOLUME_GROUPS)[number];
export const VOLUME_GROUP_LABELS: Record<VolumeGroup, string> = {
  completed: 'Completed',
  pending: 'Pending or processing',
  failed: 'Failed',
};
/** The chart's group of a payout status. */
export const volumeGroupOf = (s: PayoutStatus): VolumeGroup =>
  s === 'Completed' ? 'completed' : s === 'Failed' ? 'failed' : 'pending';

/** Days from a to b inclusive (YYYY-MM-DD, a <= b). */
function daysBetween(a: string, b: string): number {
  const ms = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((ms(b) - ms(a)) / 86_400_000) + 1;
}

/** The range check of the chart's request: at most VOLUME_MAX_DAYS, reported on start_date. */
export function checkVolumeRange(v: { start_date: string; end_date: string }, ctx: z.RefinementCtx) {
  const r = normaliseRange(v.start_date, v.end_date);
  if (r.start_date && r.end_date && daysBetween(r.start_date, r.end_date) > VOLUME_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['start_date'], message: VOLUME_MSG.tooLong });
}

/** A count of payouts and their summed amount in cents. */
const figure = z.object({ count: z.number().int(), amount: z.number().int() });
export type VolumeFigure = z.output<typeof figure>;
const groups = z.object({ completed: figure, pending: figure, failed: figure });

export const payoutVolumeResponse = z.object({
  /** the range the figures cover (the default range when none was asked), in the time zone `tz` */
  start_date: z.string(),
  end_date: z.string(),
  tz: z.string(),
  /** every day of the range, oldest first, days without payouts at zero */
  days: z.array(groups.extend({ day: z.string() })),
  /** the whole range */
  totals: groups,
});
export type PayoutVolume = z.output<typeof payoutVolumeResponse>;
export type VolumeDay = PayoutVolume['days'][number];
