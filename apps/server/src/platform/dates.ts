/**
 * Calendar days in a time zone. Date filters are days as the user's browser sees them: a user in
 * Europe/Berlin asking for 2026-11-23 means 2026-11-22T23:00Z up to 2026-11-23T23:00Z.
 */

/** The offset of `tz` from UTC at instant `at`, in milliseconds (positive east of Greenwich). */
export function tzOffsetMs(at: Date, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant a calendar day (YYYY-MM-DD) starts in `tz`. */
export function dayStart(day: string, tz: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const naive = Date.UTC(y, m - 1, d);
  // two passes settle days whose offset differs from the one at naive midnight (DST changes)
  let t = naive - tzOffsetMs(new Date(naive), tz);
  t = naive - tzOffsetMs(new Date(t), tz);
  return new Date(t);
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** Today in `tz`, YYYY-MM-DD. */
export function today(tz: string, now = new Date()): string {
  return new Date(now.getTime() + tzOffsetMs(now, tz)).toISOString().slice(0, 10);
}

/** [from, to) of an inclusive day range in `tz`. */
export function dayRange(start: string, end: string, tz: string): { from: Date; to: Date } {
  return { from: dayStart(start, tz), to: dayStart(nextDay(end), tz) };
}
