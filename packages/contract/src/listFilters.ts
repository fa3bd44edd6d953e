import { z } from 'zod';
import { wholeNumber } from './params.ts';

/** Messages of the filter fields of the lists (text, dates, amounts, the time zone). */
export const FILTER_MSG = {
  amountMin: 'Amount must be 0 or more',
  amountWhole: 'Amount must be a whole number of cents',
  dateInvalid: 'Date must be a valid date (YYYY-MM-DD)',
  dateFuture: 'Date must not be after today',
  timeZone: 'tz must be a valid IANA time zone',
} as const;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * true for a real calendar date written YYYY-MM-DD, in years 0001 to 9999 of the Gregorian calendar:
 * not 2026-02-30, 2026-13-01 or 0000-00-00 (PostgreSQL refuses those, and Date.parse rolls 2026-02-30 over to
 * March). Plain arithmetic, so no Date quirk (two-digit years read as 19xx) can let one through.
 */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1]);
}

/** A single date gives start = end; a reversed range is reordered so start is the earlier. */
export function normaliseRange(start?: string, end?: string): { start_date?: string; end_date?: string } {
  const a = start || end;
  const b = end || start;
  if (!a || !b) return {};
  return a <= b ? { start_date: a, end_date: b } : { start_date: b, end_date: a };
}

/** A text filter: trimmed, at most `max` characters; '' (the default) means no filter. */
export const textFilter = (name: string, max = 100) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .optional()
    .default('');

/** A calendar date, YYYY-MM-DD; '' means none. */
export const dateFilter = z
  .string({ error: FILTER_MSG.dateInvalid })
  .trim()
  .refine((s) => s === '' || isCalendarDate(s), FILTER_MSG.dateInvalid)
  .optional()
  .default('');

const cents = wholeNumber('amount', 0, Number.MAX_SAFE_INTEGER, {
  invalid: FILTER_MSG.amountWhole,
  min: FILTER_MSG.amountMin,
  max: FILTER_MSG.amountWhole,
  whole: FILTER_MSG.amountWhole,
});

/** Cents, 0 or more, by the whole-number rule of every integer field (params.ts); '' or nothing: no filter. */
export const centsFilter = z
  .union([z.number(), z.string()], { error: FILTER_MSG.amountWhole })
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return null;
    const read = cents.safeParse(v);
    if (read.success) return read.data;
    for (const issue of read.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

/** Time zone names found valid (checking one costs a formatter; every list request names one). */
const knownTimeZones = new Set<string>();
function isTimeZone(s: string): boolean {
  if (knownTimeZones.has(s)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: s });
  } catch {
    return false;
  }
  // valid names are a few hundred (and their spellings in other cases): the set stays small
  if (knownTimeZones.size < 1_000) knownTimeZones.add(s);
  return true;
}

/** The browser's IANA time zone: date filters are calendar days there. */
export const timeZoneFilter = z
  .string({ error: FILTER_MSG.timeZone })
  .trim()
  .max(64, { error: FILTER_MSG.timeZone, abort: true })
  .optional()
  .default('UTC')
  .refine(isTimeZone, FILTER_MSG.timeZone);

/** A date range of calendar days in the browser's time zone. */
export const dateRangeFilters = { start_date: dateFilter, end_date: dateFilter, tz: timeZoneFilter };
