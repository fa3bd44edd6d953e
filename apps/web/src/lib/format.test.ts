import { afterEach, describe, expect, it } from 'vitest';
import { euro, localDate, localDateTime } from './format.ts';

const tz = process.env.TZ;
afterEach(() => {
  process.env.TZ = tz;
});

describe('formatting', () => {
  it('shows cents in euro', () => {
    expect(euro(123456)).toBe('€1,234.56');
    expect(euro(5)).toBe('€0.05');
    expect(euro(0)).toBe('€0.00');
    expect(euro(100_000_000_00)).toBe('€100,000,000.00');
    expect(euro(-2550)).toBe('-€25.50');
    expect(euro(null)).toBe('-');
    expect(euro(undefined)).toBe('-');
  });

  it('shows UTC times in the browser time zone', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(localDateTime('2026-01-02T03:04:05Z')).toBe('2026-01-02 04:04:05');
    expect(localDateTime('2026-07-02T23:30:00Z')).toBe('2026-07-03 01:30:00');
    expect(localDate('2026-07-02T23:30:00Z')).toBe('2026-07-03');
    process.env.TZ = 'UTC';
    expect(localDateTime('2026-01-02T03:04:05Z')).toBe('2026-01-02 03:04:05');
  });

  it('shows a dash for a missing or broken time', () => {
    expect(localDateTime(null)).toBe('-');
    expect(localDateTime('not a date')).toBe('-');
    expect(localDate(undefined)).toBe('-');
  });
});
