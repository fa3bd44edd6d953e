/**
 * Money arithmetic shared by the browser and the server. Amounts are integer cents; fee percentages have at
 * most two decimals and are held exactly as basis points (1.25 % = 125). No floating point anywhere.
 */

/** The largest amount a single payout or movement may carry: 10 million euro. */
export const MAX_AMOUNT_CENTS = 1_000_000_000;
/** 100 % in basis points. */
export const MAX_FEE_BPS = 10_000;

/**
 * '1.5' | '1.50' | '12' | 1.5 -> basis points (150), or null when not a percentage with at most two decimals in
 * 0..100.
 */
export function parseFeePercent(input: string | number): number | null {
  const s = typeof input === 'number' ? numberToPlainString(input) : input.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps <= MAX_FEE_BPS ? bps : null;
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n) || n < 0) return 'x';
  // shortest round-trip representation; 1.1 -> '1.1', 1e-7 -> not a fee
  const s = String(n);
  return /e/i.test(s) ? 'x' : s;
}

/** 125 -> '1.25', 100 -> '1.00' */
export function formatFeePercent(bps: number): string {
  return `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}`;
}

/** merchant fee = ceiling(amount x fee / 100) in cents, for a fee in basis points. Integer arithmetic only. */
export function feeCents(amountCents: number, feeBps: number): number {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError('amount must be whole cents >= 0');
  if (!Number.isSafeInteger(feeBps) || feeBps < 0 || feeBps > MAX_FEE_BPS) throw new RangeError('fee out of range');
  const num = BigInt(amountCents) * BigInt(feeBps);
  const q = num / 10_000n;
  return Number(num % 10_000n === 0n ? q : q + 1n);
}

/** total payable = amount + fee */
export function totalPayableCents(amountCents: number, feeBps: number): number {
  return amountCents + feeCents(amountCents, feeBps);
}

/** 123456 -> '1,234.56' (no currency sign); negative amounts keep their sign. */
export function formatCents(cents: number): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${euros}.${String(abs % 100).padStart(2, '0')}`;
}

export const formatEuro = (cents: number) => `€${formatCents(cents)}`;
