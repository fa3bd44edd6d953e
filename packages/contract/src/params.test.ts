import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { integerFields, notWholeNumbers } from './integer-fields.ts';
import { OPERATIONS } from './operations.ts';
import { pageField, perPageField, wholeNumber } from './params.ts';

const firstMessage = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues[0]?.message;

describe('wholeNumber', () => {
  const id = wholeNumber('id', 1, 2_147_483_647);
  it('takes numbers and strings of digits', () => {
    expect(id.parse(7)).toBe(7);
    expect(id.parse('42')).toBe(42);
    expect(wholeNumber('n', -5, 5).parse('-3')).toBe(-3);
    expect(wholeNumber('n', 0, 5).parse('0')).toBe(0);
  });
  it('refuses booleans, arrays, null, empty, padded, zero-led and non-numeric text', () => {
    for (const bad of [
      true,
      false,
      [5],
      [],
      null,
      '',
      'abc',
      '1e3',
      {},
      ' 42',
      '42 ',
      ' 42 ',
      '042',
      '00',
      '+42',
      '-0',
      '42.0',
      '0x2a',
      '4_2',
      '\u0664\u0662',
    ]) {
      expect(firstMessage(id.safeParse(bad)), JSON.stringify(bad)).toBe('id must be a number');
    }
  });
  it('refuses fractions and values out of range with the field named', () => {
    expect(firstMessage(id.safeParse(1.5))).toBe('id must be a whole number');
    expect(firstMessage(id.safeParse(0))).toBe('id must be at least 1');
    expect(firstMessage(id.safeParse('-3'))).toBe('id must be at least 1');
    expect(firstMessage(id.safeParse('99999999999'))).toBe('id must be at most 2147483647');
    expect(firstMessage(id.safeParse(1e20))).toBe('id must be at most 2147483647');
  });
});

describe('paging fields', () => {
  const paging = z.object({ per_page: perPageField(), page: pageField() });
  it('default to the first page of 10', () => {
    expect(paging.parse({})).toEqual({ per_page: 10, page: 1 });
  });
  it('refuse page 0 and a huge per_page', () => {
    expect(firstMessage(paging.safeParse({ page: 0 }))).toBe('page must be at least 1');
    expect(firstMessage(paging.safeParse({ per_page: 5000 }))).toBe('per_page must be at most 100');
    expect(firstMessage(paging.safeParse({ page: true }))).toBe('page must be a number');
  });
});

describe('the id and integer rule across the operation table', () => {
  const fields = integerFields(OPERATIONS);
  it('finds the id and integer fields', () => {
    expect(fields.length).toBeGreaterThan(80);
    const names = new Set(fields.map((f) => `${f.op} ${f.field}`));
    for (const known of [
      '/api/unschedule-report id',
      '/api/schedule-report auth_id',
      '/api/fee-chart months',
      '/api/invoice merchant_id',
      '/api/delete-passkey id',
      '/api/payin-rewards id',
      '/api/users page',
      '/api/create-payout amount',
      '/api/upload-transactions behalf_of_id',
    ])
      expect(names, known).toContain(known);
  });
  it('refuses booleans, arrays, padded, zero-led and signed text on every one, and never reads null or "" as a number', () => {
    const wrong: string[] = [];
    for (const { op, field, schema, n } of fields) {
      for (const bad of notWholeNumbers(n))
        if (schema.safeParse(bad).success) wrong.push(`${op} ${field} took ${JSON.stringify(bad)}`);
      // null and '' are refused, or mean "none" (an optional filter, no parent): never a number
      for (const none of [null, '']) {
        const r = schema.safeParse(none);
        if (r.success && typeof r.data === 'number')
          wrong.push(`${op} ${field} read ${JSON.stringify(none)} as ${r.data}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
