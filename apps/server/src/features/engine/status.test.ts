import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import {
  STATUS_WORDS,
  STATUSES,
  statusesOf,
  statusFilter,
  statusOfWord,
  wordOf,
  wordSql,
  type Screen,
} from './status.ts';

const screens = Object.keys(STATUS_WORDS) as Screen[];

describe('the one status vocabulary and its screens’ words', () => {
  it('gives each screen one word per status and one status per word, so a filter’s word names one status', () => {
    for (const screen of screens) {
      const statuses = statusesOf(screen);
      expect(
        statuses.every((s) => (STATUSES as readonly string[]).includes(s)),
        screen,
      ).toBe(true);
      const words = statuses.map((s) => wordOf(screen, s));
      expect(new Set(words).size, screen).toBe(words.length);
      for (const s of statuses) expect(statusOfWord(screen, wordOf(screen, s)), `${screen} ${s}`).toBe(s);
    }
  });

  it('keeps the words the screens always showed', () => {
    expect(wordOf('payout', 'in_flight')).toBe('Processing');
    expect(wordOf('payout', 'held')).toBe('Pending approval');
    expect(wordOf('transfer', 'in_flight')).toBe('Pending');
    expect(wordOf('transfer', 'failed')).toBe('Declined');
    expect(wordOf('2d', 'held')).toBe('PENDING_APPROVAL');
    expect(wordOf('payin', 'expired')).toBe('Expired');
    expect(wordOf('reward', null)).toBeNull();
  });

  it('passes through what it does not map: a batch’s or a download’s own word, a filter word no screen has', () => {
    expect(wordOf('batch', 'Completed')).toBe('Completed');
    expect(wordOf('download', 'Initiated')).toBe('Initiated');
    expect(statusFilter('payout', 'Pending')).toBe('pending');
    expect(statusFilter('transfer', 'Pending')).toBe('in_flight');
    expect(statusFilter('payin', 'Lost')).toBe('Lost');
  });

  it('makes the same words in SQL, every status of the screen, an unknown one as it is', () => {
    const q = new PgDialect().sqlToQuery(wordSql('refund', sql`r.status`));
    expect(q.sql).toBe(
      "(CASE r.status WHEN 'in_flight' THEN 'Pending' WHEN 'completed' THEN 'Completed' " +
        "WHEN 'failed' THEN 'Declined' ELSE r.status END)",
    );
    expect(q.params).toEqual([]);
  });
});
