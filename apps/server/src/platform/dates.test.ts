import { describe, expect, it } from 'vitest';
import { dayRange, dayStart, EARLIEST, nextDay, today } from './dates.ts';

describe('calendar days in a time zone', () => {
  it('start at local midnight, across summer time', () => {
    expect(dayStart('2026-11-23', 'Europe/Berlin').toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(dayStart('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(dayStart('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayRange('2026-03-29', '2026-03-29', 'Europe/Berlin').to.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(dayStart('2026-01-01', 'Asia/Kathmandu').toISOString()).toBe('2025-12-31T18:15:00.000Z');
  });

  // Date.UTC reads years 0 to 99 as 1900 to 1999: 0099-12-31 was followed by 2000-01-01
  it('are the years written, also below 100', () => {
    expect(nextDay('0099-12-31')).toBe('0100-01-01');
    expect(nextDay('0001-01-01')).toBe('0001-01-02');
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(dayStart('0050-06-01', 'UTC').toISOString()).toBe('0050-06-01T00:00:00.000Z');
    expect(dayStart('0099-12-31', 'America/New_York').getUTCFullYear()).toBe(99);
  });

  it('never start before year 1, which PostgreSQL can read', () => {
    expect(EARLIEST.toISOString()).toBe('0001-01-01T00:00:00.000Z');
    for (const tz of ['Asia/Kathmandu', 'Pacific/Kiritimati', 'UTC'])
      expect(dayStart('0001-01-01', tz).toISOString(), tz).toBe('0001-01-01T00:00:00.000Z');
  });

  it('know today in the zone', () => {
    const now = new Date('2026-03-01T23:30:00Z');
    expect(today('UTC', now)).toBe('2026-03-01');
    expect(today('Europe/Berlin', now)).toBe('2026-03-02');
    expect(today('America/Los_Angeles', now)).toBe('2026-03-01');
  });
});
