import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  feeCents,
  formatCents,
  formatFeePercent,
  MAX_AMOUNT_CENTS,
  MAX_FEE_BPS,
  parseFeePercent,
  totalPayableCents,
} from './money.ts';

/**
 * Reference: the spec's formula on decimal strings, with arbitrary precision: fee in euros =
 * (amount / 100) x (percent / 100), rounded up to the cent. Written independently of feeCents.
 */
function referenceFee(amountCents: number, percent: string): bigint {
  const [intPart, frac = ''] = percent.split('.');
  // percent as a rational p / 10^d
  const d = frac.length;
  const p = BigInt(intPart + frac);
  // euros = amountCents / 100; fee euros = euros * p / (10^d * 100); fee cents = that * 100
  // => fee cents = amountCents * p / (10^d * 100), rounded up
  const numerator = BigInt(amountCents) * p;
  const denominator = 10n ** BigInt(d) * 100n;
  return (numerator + denominator - 1n) / denominator;
}

const percentArb = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 99 }), fc.constantFrom(0, 1, 2))
  .filter(([i, f, d]) => !(i === 100 && f > 0 && d > 0))
  .map(([i, f, d]) => (d === 0 ? String(i) : d === 1 ? `${i}.${f % 10}` : `${i}.${String(f).padStart(2, '0')}`));

describe('fees', () => {
  it('match the arbitrary-precision reference over the whole range of amounts and fees', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_AMOUNT_CENTS }), percentArb, (amount, percent) => {
        const bps = parseFeePercent(percent);
        expect(bps).not.toBeNull();
        expect(BigInt(feeCents(amount, bps!))).toBe(referenceFee(amount, percent));
        expect(totalPayableCents(amount, bps!)).toBe(amount + feeCents(amount, bps!));
      }),
      { numRuns: 20_000 },
    );
  });

  it('round up, never down, and are exact on whole multiples', () => {
    expect(feeCents(1, 1)).toBe(1); // 0.0001 cent rounds up to 1 cent
    expect(feeCents(100, 150)).toBe(2); // 1.5 cents -> 2
    expect(feeCents(10_000, 250)).toBe(250);
    expect(feeCents(0, 500)).toBe(0);
    expect(feeCents(MAX_AMOUNT_CENTS, MAX_FEE_BPS)).toBe(MAX_AMOUNT_CENTS);
  });

  it('never lose a cent at the extremes of the safe range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: MAX_FEE_BPS }),
        (a, bps) => {
          const exact = (BigInt(a) * BigInt(bps) + 9_999n) / 10_000n;
          expect(BigInt(feeCents(a, bps))).toBe(exact);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('refuse fractional cents and out-of-range fees', () => {
    expect(() => feeCents(1.5, 100)).toThrow();
    expect(() => feeCents(-1, 100)).toThrow();
    expect(() => feeCents(100, 10_001)).toThrow();
  });
});

describe('fee percentages are stored exactly', () => {
  it('parse to basis points and format back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_FEE_BPS }), (bps) => {
        expect(parseFeePercent(formatFeePercent(bps))).toBe(bps);
      }),
    );
    expect(parseFeePercent('1.25')).toBe(125);
    expect(parseFeePercent(1.1)).toBe(110);
    expect(parseFeePercent(0.07)).toBe(7);
    expect(parseFeePercent('1.255')).toBeNull();
    expect(parseFeePercent('100.01')).toBeNull();
    expect(parseFeePercent('-1')).toBeNull();
    expect(parseFeePercent('abc')).toBeNull();
  });
  it('format cents for display', () => {
    expect(formatCents(123456)).toBe('1,234.56');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(-250)).toBe('-2.50');
  });
});
