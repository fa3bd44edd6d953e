import { describe, expect, it } from 'vitest';
import { trimRow, validateRow, type RawRow } from './batch-rows.ts';
import { MSG } from './messages.ts';
import { PAYMENT_MSG } from './payments.ts';
import { TEXT_MSG } from './text.ts';

const row = (over: Partial<RawRow> = {}): RawRow => ({
  beneficiary_name: 'Ana Novak',
  obol_id: '100000001',
  merchant_transaction_id: 'INV-1',
  brand: 'Acme Brand',
  reference: 'Invoice 1',
  amount: '1500',
  ...over,
});
const ctx = { brands: new Set(['acme brand']), duplicateInFile: false, duplicateOfPayout: false };

describe('the rules of a staged row', () => {
  it('takes a good row, with its amount in cents', () => {
    expect(validateRow(row(), ctx)).toEqual({
      values: row(),
      amount: 1500,
      errors: {},
      missing: false,
      status: 'Pending',
    });
  });

  it('keeps an error per field', () => {
    const v = validateRow(
      row({ beneficiary_name: '', obol_id: '12345', reference: 'x'.repeat(51), amount: '12.5' }),
      ctx,
    );
    expect(v.errors).toEqual({
      beneficiary_name: MSG.required,
      obol_id: PAYMENT_MSG.invalidObolId,
      reference: PAYMENT_MSG.max50,
      amount: PAYMENT_MSG.amountWhole,
    });
    expect(v).toMatchObject({ missing: true, status: 'Failed', amount: null });
  });

  it.each([
    ['0', PAYMENT_MSG.amountPositive],
    ['-3', PAYMENT_MSG.amountPositive],
    ['abc', PAYMENT_MSG.amountWhole],
    ['12345678901', PAYMENT_MSG.max10],
    ['9999999999', PAYMENT_MSG.amountTooLarge],
  ])('refuses the amount %s', (amount, message) => {
    expect(validateRow(row({ amount }), ctx).errors).toEqual({ amount: message });
  });

  it("refuses a direction override in the beneficiary's name (a name, shown in lists and files)", () => {
    const r = validateRow(row({ beneficiary_name: 'Ana \u202eKavon' }), ctx);
    expect(r.errors).toEqual({ beneficiary_name: TEXT_MSG.notAllowedHere });
    expect(r.status).toBe('Failed');
    expect(validateRow(row({ beneficiary_name: '\u05d3\u05e0\u05d4\u200f' }), ctx).errors).toEqual({});
  });

  it('takes an amount in cents as the digits alone (the id and integer rule)', () => {
    for (const amount of ['1500.00', '01500', '+1500', '15e2'])
      expect(validateRow(row({ amount }), ctx).errors.amount, amount).toBe(PAYMENT_MSG.amountWhole);
  });

  it('with a context: the brand must exist and the merchant transaction id be free', () => {
    expect(validateRow(row({ brand: 'Other' }), ctx).errors).toEqual({ brand: PAYMENT_MSG.brandMissing });
    expect(validateRow(row(), { ...ctx, duplicateInFile: true }).errors).toEqual({
      merchant_transaction_id: PAYMENT_MSG.duplicateMtidInFile,
    });
    expect(validateRow(row(), { ...ctx, duplicateOfPayout: true }).errors).toEqual({
      merchant_transaction_id: PAYMENT_MSG.duplicateMtid,
    });
  });

  it('without one (the row editor): what only the server knows is left to it', () => {
    expect(validateRow(row({ brand: 'Other' })).status).toBe('Pending');
  });

  it('trims an edited row, an amount may be a number', () => {
    expect(trimRow({ ...row({ beneficiary_name: '  Ana Novak  ' }), amount: 1500 })).toEqual(row());
  });
});
