import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPayoutRequest, requiredText } from './payments.ts';
import {
  findUnsafeText,
  isSafeName,
  isSafeText,
  safeText,
  TEXT_MSG,
  unsafeNameIssue,
  unsafeTextIssue,
} from './text.ts';

/** The rule written out by code unit, independently of the regular expressions. */
function referenceSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x1f && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
    if (c >= 0x7f && c <= 0x9f) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

describe('the text rule', () => {
  it('refuses every control character but tab, line feed and carriage return', () => {
    for (let c = 0; c <= 0xa0; c++) {
      const s = `a${String.fromCharCode(c)}b`;
      const allowed = c === 0x09 || c === 0x0a || c === 0x0d || (c >= 0x20 && c <= 0x7e) || c === 0xa0;
      expect(isSafeText(s), `U+${c.toString(16)}`).toBe(allowed);
    }
    expect(unsafeTextIssue('a\u0000b')).toBe('control character U+0000');
    expect(unsafeTextIssue('\u009f')).toBe('control character U+009F');
    expect(unsafeTextIssue('line one\r\nline two\tend')).toBeNull();
  });

  it('refuses unpaired surrogates and keeps paired ones (emoji, astral characters)', () => {
    for (const bad of ['\ud800', '\udfff', 'a\ud83d', '\ude0da', '\udc00\ud800', '\ud83d\ude0d\ud83d'])
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    expect(unsafeTextIssue('Jane \ud83d')).toBe('unpaired surrogate U+D83D');
    for (const good of [
      '\ud83d\ude0d',
      '\ud841\udf0e',
      '\ud83c\uddfa\ud83c\uddf8',
      'Åsa Ørsted',
      '\u202etest',
      '\ufeff',
    ])
      expect(isSafeText(good), JSON.stringify(good)).toBe(true);
  });

  it('agrees with a reference written by code unit on any string', () => {
    const units = fc.oneof(
      fc.integer({ min: 0, max: 0xa0 }),
      fc.integer({ min: 0xd7f0, max: 0xe010 }),
      fc.integer({ min: 0, max: 0xffff }),
    );
    fc.assert(
      fc.property(fc.array(units, { maxLength: 12 }), (codes) => {
        const s = String.fromCharCode(...codes);
        expect(isSafeText(s)).toBe(referenceSafe(s));
      }),
      { numRuns: 20_000 },
    );
  });

  it('is a zod helper for forms', () => {
    expect(safeText().safeParse('Jane Doe').success).toBe(true);
    const r = safeText().safeParse('Jane\u0000');
    expect(r.error?.issues[0].message).toBe(TEXT_MSG.notAllowedHere);
    expect(safeText('name is bad').safeParse('\ud800').error?.issues[0].message).toBe('name is bad');
  });
});

describe('findUnsafeText', () => {
  it('names each field, at any depth of objects and arrays, as fromZod names fields', () => {
    const found = findUnsafeText({
      beneficiary_name: 'Jane\u0000',
      ok: 'fine',
      id: [1, 'x', 'y\ud800'],
      nested: { deeper: { note: '\u0007' } },
      n: 5,
      nothing: null,
    });
    expect(found.map((f) => [f.field, f.message])).toEqual([
      ['beneficiary_name', 'beneficiary_name contains characters that are not allowed'],
      ['id.2', 'id.2 contains characters that are not allowed'],
      ['nested.deeper.note', 'nested.deeper.note contains characters that are not allowed'],
    ]);
    expect(found[1].issue).toBe('unpaired surrogate U+D800');
  });

  it('refuses a key that holds such characters without echoing it', () => {
    const found = findUnsafeText({ a: { 'x\u0000y': 1 } });
    expect(found).toEqual([{ field: 'a', message: TEXT_MSG.fieldName, issue: 'control character U+0000' }]);
    expect(findUnsafeText({ '\ud800': 1 })[0].field).toBe('_');
  });

  it('checks a bare string, and finds nothing in clean input', () => {
    expect(findUnsafeText('\u0000')[0]).toMatchObject({ field: '_', message: TEXT_MSG.notAllowed('The input') });
    expect(findUnsafeText({ a: ['b', { c: 'd\te' }], n: 1, t: true })).toEqual([]);
    expect(findUnsafeText(undefined)).toEqual([]);
  });

  it('walks any nesting without overflowing the stack, and stops after the limit', () => {
    const depth = 100_000;
    const deep = JSON.parse('['.repeat(depth) + '"\\u0000"' + ']'.repeat(depth)) as unknown;
    const [f] = findUnsafeText(deep);
    expect(f.field).toBe('0.0.0.0.0.0.0.0.0.0...');
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, '\u0000']));
    expect(findUnsafeText(many)).toHaveLength(20);
    expect(findUnsafeText(many, 3).map((x) => x.field)).toEqual(['f0', 'f1', 'f2']);
  });
});

describe('the name variant', () => {
  const OVERRIDES = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  it('refuses direction overrides and isolates, and whatever the text rule refuses', () => {
    for (const c of OVERRIDES) {
      const name = `Invoice${String.fromCharCode(c)}fdp.exe`;
      expect(unsafeNameIssue(name)).toBe(`bidirectional control U+${c.toString(16).toUpperCase()}`);
      expect(isSafeName(name)).toBe(false);
      // elsewhere (a search, a message) they are text like any other
      expect(isSafeText(name)).toBe(true);
    }
    expect(unsafeNameIssue('a\u0000b')).toBe('control character U+0000');
  });
  it('keeps right-to-left names, with the plain direction marks', () => {
    for (const name of [
      '\u05d3\u05e0\u05d4 \u05db\u05d4\u05df',
      '\u0645\u062d\u0645\u062f\u200f 2',
      'Shop\u200e (IL)',
      '\u061c\u0661\u0662',
      'Zoë',
    ])
      expect(isSafeName(name), name).toBe(true);
  });
  it('applies to every field named `name` or `..._name`, in arrays too, and nowhere else', () => {
    const bad = 'a\u202eb';
    const found = findUnsafeText({
      name: bad,
      first_name: bad,
      rows: [{ beneficiary_name: bad, reference: bad }],
      file_name: [bad],
      search: bad,
      renamed: bad,
      username: bad,
    });
    expect(found.map((f) => f.field)).toEqual(['name', 'first_name', 'rows.0.beneficiary_name', 'file_name.0']);
    expect(found[0]).toEqual({
      field: 'name',
      message: TEXT_MSG.notAllowed('name'),
      issue: 'bidirectional control U+202E',
    });
  });
});

describe('the forms of the contract', () => {
  it('refuse such text in the manual payout form, under the field', () => {
    const r = createPayoutRequest.safeParse({
      idempotency_key: 'k-12345678',
      account_reference: 'ACC-1',
      merchant_transaction_id: 'M1',
      beneficiary_name: 'Jane\u0000',
      obol_id: '100000001',
      brand: 'Acme Brand',
      reference: 'r\ud800',
      amount: 100,
      code: '123456',
    });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['beneficiary_name', TEXT_MSG.notAllowedHere],
      ['reference', TEXT_MSG.notAllowedHere],
    ]);
    expect(requiredText().safeParse(' Jane Doe ').data).toBe('Jane Doe');
  });
});
