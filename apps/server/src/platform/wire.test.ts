import { describe, expect, it } from 'vitest';
import { isWire } from './http.ts';

// heldToSchema takes an answer that isWire says is JSON already as its own wire form: that must hold exactly
describe('isWire', () => {
  const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

  it('is true of plain JSON values, which JSON gives back equal', () => {
    const plain = [
      null,
      'text \u{1F600} \ud800',
      0,
      -1.5,
      true,
      [],
      {},
      { a: [1, 'b', { c: null, d: [false] }], '1': 'key order', e: '' },
    ];
    for (const v of plain) {
      expect(isWire(v), JSON.stringify(v)).toBe(true);
      expect(viaJson(v)).toStrictEqual(v);
    }
  });

  it('is false of anything JSON changes', () => {
    class Row {
      a = 1;
    }
    const changed: unknown[] = [
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      new Date(0),
      { at: new Date(0) },
      { a: undefined },
      [undefined],
      [1, , 3], // eslint-disable-line no-sparse-arrays
      { f: () => 1 },
      { n: 10n },
      new Row(),
      Object.assign(Object.create(null) as object, { a: 1 }),
      new Map([['a', 1]]),
      { nested: [{ deep: Number.NaN }] },
      JSON.parse('{"__proto__": {"x": 1}}') as unknown,
      { toJSON: () => 'other' },
    ];
    for (const v of changed) expect(isWire(v)).toBe(false);
  });
});
