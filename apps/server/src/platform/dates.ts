/**
 * Calendar days in a time zone. Date filters are days as the user's browser sees them: a user in
 * Europe/Berlin asking for 2026-11-23 means 2026-11-22T23:00Z up to 2026-11-23T23:00Z.
 */

/** An instant in UTC (month 1-12); unlike Date.UTC, years 0 to 99 are those years, not 1900 to 1999. */
function utcMs(y: number, m: number, d: number, h = 0, min = 0, sec = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d);
  return t.setUTCHours(h, min, sec, 0);
}

/** One formatter per time zone: making one costs far more than using it (every dated list asks). */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // IANA names are a few hundred: the map stays small (a bad name throws above and is never kept)
    if (formatters.size < 1_000) formatters.set(tz, f);
  }
  return f;
}

/** The offset of `tz` from UTC at instant `at`, in milliseconds (positive east of Greenwich). */
export function tzOffsetMs(at: Date, tz: string): number {
  const parts = formatterOf(tz).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = utcMs(get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The first instant whose ISO string PostgreSQL reads: it refuses year 0000. */
export const EARLIEST = new Date(utcMs(1, 1, 1));

/** The instant a calendar day (YYYY-MM-DD) starts in `tz`, not before EARLIEST. */
export function dayStart(day: string, tz: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const naive = utcMs(y, m, d);
  // two passes settle days whose offset differs from the one at naive midnight (DST changes)
  let t = naive - tzOffsetMs(new Date(naive), tz);
  t = naive - tzOffsetMs(new Date(t), tz);
  // 0001-01-01 east of Greenwich starts in year 0, which no timestamp in the database can be before
  return new Date(Math.max(t, EARLIEST.getTime()));
}

/** The day after `day` (YYYY-MM-DD). */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(utcMs(y, m, d + 1)).toISOString().slice(0, 10);
}

/** Today in `tz`, YYYY-MM-DD. */
export function today(tz: string, now = new Date()): string {
  return new Date(now.getTime() + tzOffsetMs(now, tz)).toISOString().slice(0, 10);
}

/** [from, to) of an inclusive day range in `tz`. */
export function dayRange(start: string, end: string, tz: string): { from: Date; to: Date } {
  return { from: dayStart(start, tz), to: dayStart(nextDay(end), tz) };
}
