import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCalendarDate } from './listFilters.ts';
import { completedListRequest, payoutExportRequest, payoutListRequest } from './transactions.ts';
import { TRX_MSG } from './transactionStatus.ts';

describe('dates', () => {
  it('are real calendar dates written YYYY-MM-DD', () => {
    for (const good of ['2026-02-28', '2024-02-29', '2000-02-29', '2026-12-31', '0001-01-01', '9999-12-31'])
      expect(isCalendarDate(good), good).toBe(true);
    for (const bad of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-01-32',
      '0000-00-00',
      '0000-01-01',
      '2026-1-1',
      '26-01-01',
      '2026/01/01',
      '2026-01-01T00:00:00Z',
      '+275760-09-13',
      '\uff12\uff10\uff12\uff16-01-01',
      '\u0662\u0660\u0662\u0666-\u0660\u0661-\u0660\u0661',
    ])
      expect(isCalendarDate(bad), bad).toBe(false);
  });

  it('agree with the calendar of Date on every day of years 1 to 9999', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const s = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const date = new Date(0);
          date.setUTCFullYear(y, m - 1, d);
          const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
          expect(isCalendarDate(s), s).toBe(real);
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('are refused in every date filter with the field named and the date message', () => {
    for (const schema of [payoutListRequest, payoutExportRequest, completedListRequest]) {
      for (const bad of ['2026-02-30', '2026-13-01', '0000-00-00', 20260101, null]) {
        const r = schema.safeParse({ start_date: '2026-01-01', end_date: bad });
        expect(r.success, JSON.stringify(bad)).toBe(false);
        expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['end_date', TRX_MSG.dateInvalid]]);
      }
      expect(schema.safeParse({ start_date: ' 2024-02-29 ', end_date: '' }).success).toBe(true);
    }
  });
});

describe('time zones', () => {
  it('are IANA names; anything else is refused naming tz', () => {
    expect(payoutListRequest.parse({}).tz).toBe('UTC');
    expect(payoutListRequest.parse({ tz: 'Europe/Berlin' }).tz).toBe('Europe/Berlin');
    for (const bad of [
      'Mars/Olympus_Mons',
      'UTC+25',
      '',
      '../../etc/localtime',
      'x'.repeat(65),
      5,
      ['UTC'],
      '\ud800',
    ]) {
      const r = payoutListRequest.safeParse({ tz: bad });
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['tz', TRX_MSG.timeZone]]);
    }
  });
});
