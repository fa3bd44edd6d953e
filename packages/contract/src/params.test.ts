import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageField, perPageField, wholeNumber } from './params.ts';

const firstMessage = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues[0]?.message;

describe('wholeNumber', () => {
  const id = wholeNumber('id', 1, 2_147_483_647);
  it('takes numbers and strings of digits', () => {
    expect(id.parse(7)).toBe(7);
    expect(id.parse(' 42 ')).toBe(42);
  });
  it('refuses booleans, arrays, null, empty and non-numeric text', () => {
    for (const bad of [true, false, [5], null, '', 'abc', '1e3', {}]) {
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
