import { createHash } from 'node:crypto';

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
  return mod97(iban.slice(4) + iban.slice(0, 4)) === 1 ? null : 'IBAN checksum is not valid';
}

/** the ISO 7064 mod-97 remainder of digits and letters (A = 10 ... Z = 35) */
function mod97(s: string): number {
  let rem = 0;
  for (const ch of s) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

/** An IBAN of a country and account part (BBAN), with its mod-97 check digits: makeIban('NL', 'ABNA0417164300'). */
export function makeIban(country: string, bban: string): string {
  const c = country.toUpperCase();
  const b = bban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}$/.test(c) || !/^[A-Z0-9]+$/.test(b)) throw new Error(`cannot make an IBAN of ${country} ${bban}`);
  return `${c}${String(98 - mod97(`${b}${c}00`)).padStart(2, '0')}${b}`;
}

export function bicError(raw: string): string | null {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(raw.trim().toUpperCase())
    ? null
    : 'BIC must be 8 or 11 characters (bank, country, location, branch)';
}

/** A transfer to an IBAN whose account part ends in 0000 fails: the account is closed. */
export const closedAccount = (iban: string) => iban.replace(/\s+/g, '').toUpperCase().endsWith('0000');

// ---- companies (the accounting module): bank accounts and saved beneficiaries by company API key ----
/** A company API key: `ck_` and 16 to 64 letters or digits; any other key is unknown. */
export const COMPANY_KEY_PATTERN = /^ck_[A-Za-z0-9]{16,64}$/;
/** The documented demo company keys. */
export const DEMO_COMPANY_KEYS = ['ck_acme0000000000000001', 'ck_globex000000000000002'] as const;
export const INVALID_COMPANY_KEY = 'Invalid company API key';
export const isCompanyKey = (key: string) => COMPANY_KEY_PATTERN.test(key);

export interface CompanyAccount {
  id: string;
  name: 'Operating account' | 'Reserve account' | 'Payroll account';
  iban: string;
  bic: string;
  currency: 'EUR';
  /** cents */
  opening_balance: number;
}
export interface CompanyBeneficiary {
  id: string;
  name: string;
  iban: string;
  bic: string;
}

const ACCOUNT_NAMES = ['Operating account', 'Reserve account', 'Payroll account'] as const;
export const COMPANY_BANK_CODE = '10010010';
export const COMPANY_BIC = 'PBNKDEFFXXX';
export const MIN_OPENING_BALANCE = 500_000;
export const MAX_OPENING_BALANCE = 5_000_000;

/**
 * The company's bank accounts, derived from sha256(key): 2 or 3 of them, German IBANs of bank code 10010010
 * whose account number never ends in 0000, opening balances 500_000 to 5_000_000 cents. Null for an unknown key.
 */
export function companyAccounts(key: string): CompanyAccount[] | null {
  if (!isCompanyKey(key)) return null;
  const h = createHash('sha256').update(key).digest('hex');
  const count = 2 + (parseInt(h.slice(0, 8), 16) % 2);
  return ACCOUNT_NAMES.slice(0, count).map((name, i) => {
    // after the 8 hex of the id (and count): per account 12 hex (48 bits) of account number, 6 of balance
    const at = 8 + i * 18;
    let account = parseInt(h.slice(at, at + 12), 16) % 10_000_000_000;
    if (account % 10_000 === 0) account += i + 1; // never a closed account
    const span = MAX_OPENING_BALANCE - MIN_OPENING_BALANCE + 1;
    return {
      id: `CA-${h.slice(0, 8)}-${i + 1}`,
      name,
      iban: makeIban('DE', `${COMPANY_BANK_CODE}${String(account).padStart(10, '0')}`),
      bic: COMPANY_BIC,
      currency: 'EUR',
      opening_balance: MIN_OPENING_BALANCE + (parseInt(h.slice(at + 12, at + 18), 16) % span),
    };
  });
}

/** The same saved beneficiaries for every company; BEN-3's account is closed (a transfer to it fails). */
const BENEFICIARIES: readonly CompanyBeneficiary[] = [
  { id: 'BEN-1', name: 'Northwind Supplies GmbH', iban: makeIban('DE', '370400440123456789'), bic: 'COBADEFFXXX' },
  { id: 'BEN-2', name: 'Contoso Logistics BV', iban: makeIban('NL', 'ABNA0123456789'), bic: 'ABNANL2AXXX' },
  { id: 'BEN-3', name: 'Closed Account Ltd', iban: makeIban('DE', '370400449876540000'), bic: 'COBADEFFXXX' },
];

/** The company's saved beneficiaries (the same three for every company). Null for an unknown key. */
export function companyBeneficiaries(key: string): CompanyBeneficiary[] | null {
  return isCompanyKey(key) ? BENEFICIARIES.map((b) => ({ ...b })) : null;
}
