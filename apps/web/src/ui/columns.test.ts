import { describe, expect, it } from 'vitest';
import { FIT_WIDTH, hiddenByDefault, type Column } from './columns.ts';

const col = (id: string, extra: Partial<Column<unknown>> = {}): Column<unknown> => ({
  id,
  label: id,
  cell: () => id,
  ...extra,
});

describe('the default columns of a list', () => {
  it('keeps every column while they fit, and the ones marked hidden hidden', () => {
    const cols = [col('name', { pinned: true }), col('city', { hidden: true }), col('note', { priority: 3 })];
    expect(hiddenByDefault(cols, 130)).toEqual(['city']);
  });

  it('hides priority 3 columns from the last one on until the rest and the action fit 1366 px', () => {
    const cols = [
      col('name', { pinned: true, width: 400 }),
      col('a', { priority: 3, width: 200 }),
      col('b', { width: 200 }),
      col('c', { priority: 3, width: 200 }),
      col('d', { priority: 3, width: 200 }),
    ];
    // 1200 + 130 > FIT_WIDTH: d then c go (800 + 130 fits)
    expect(FIT_WIDTH).toBeGreaterThanOrEqual(800 + 130);
    expect(FIT_WIDTH).toBeLessThan(1000 + 130);
    expect(hiddenByDefault(cols, 130)).toEqual(['d', 'c']);
    // a wider action leaves room for less
    expect(hiddenByDefault(cols, 400)).toEqual(['d', 'c', 'a']);
  });

  it('never hides a key column or a priority 1 or 2 one, even when they do not fit', () => {
    const cols = [col('name', { pinned: true, width: 900, priority: 3 }), col('b', { width: 400 })];
    expect(hiddenByDefault(cols, 130)).toEqual([]);
  });
});
