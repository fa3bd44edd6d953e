/**
 * The simulator's documented test data (docs/provider.md).
 * Wallets: 9-digit ids. '1........' belong to brand 'Acme Brand', '2........' to 'Globex Outlet',
 * '3........' have no registered brand (any brand is accepted); every other id is unknown.
 */
export interface Wallet {
  obol_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  brand: string | null;
}

const FIRST = ['Ana', 'Ben', 'Chloe', 'David', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Luca'];
const LAST = ['Novak', 'Berg', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Horvat', 'Ivanov', 'Jansen'];
const BRANDS: Record<string, string | null> = { '1': 'Acme Brand', '2': 'Globex Outlet', '3': null };

export function findWallet(obolId: string): Wallet | null {
  if (!/^\d{9}$/.test(obolId) || !(obolId[0] in BRANDS)) return null;
  const n = Number(obolId.slice(1));
  const year = 1960 + (n % 40);
  const month = 1 + (n % 12);
  const day = 1 + (n % 28);
  return {
    obol_id: obolId,
    first_name: FIRST[n % FIRST.length],
    last_name: LAST[Math.floor(n / FIRST.length) % LAST.length],
    date_of_birth: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    brand: BRANDS[obolId[0]],
  };
}

/** A payout of exactly this many cents is declined. */
export const DECLINED_AMOUNT = 66_600;

/** The outcome of a payout by the test data. */
export function payoutOutcome(p: { obol_id: string; brand: string; amount: number }): {
  status: 'Completed' | 'Failed';
  message?: string;
} {
  const w = findWallet(p.obol_id);
  if (!w) return { status: 'Failed', message: 'Invalid Obol Id' };
  if (w.brand !== null && w.brand.toLowerCase() !== p.brand.trim().toLowerCase())
    return { status: 'Failed', message: 'Brand does not match' };
  if (p.amount === DECLINED_AMOUNT) return { status: 'Failed', message: 'Declined by provider' };
  return { status: 'Completed' };
}

// ---- IBAN and BIC ----
const IBAN_LENGTHS: Record<string, number> = {
  DE: 22,
  FR: 27,
  NL: 18,
  ES: 24,
  IT: 27,
  GB: 22,
  BE: 16,
  AT: 20,
  IE: 22,
  LT: 20,
};

export function ibanError(raw: string): string | null {
  const iban = raw.replace(/\s+/g, '').toUpperCase();
  if (!iban) return 'IBAN is required';
  if (!/^[A-Z0-9]+$/.test(iban)) return 'IBAN may contain only letters, digits and spaces';
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return 'IBAN must start with a country code and two check digits';
  const len = IBAN_LENGTHS[iban.slice(0, 2)];
  if (len && iban.length !== len) return `IBAN length must be ${len} characters for ${iban.slice(0, 2)}`;
  if (!len && (iban.length < 15 || iban.length > 34)) return 'IBAN length must be 15 to 34 characters';
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1 ? null : 'IBAN checksum is not valid';
}

export function bicError(raw: string): string | null {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(raw.trim().toUpperCase())
    ? null
    : 'BIC must be 8 or 11 characters (bank, country, location, branch)';
}

/** A transfer to an IBAN whose account part ends in 0000 fails: the account is closed. */
export const closedAccount = (iban: string) => iban.replace(/\s+/g, '').toUpperCase().endsWith('0000');
