/**
 * IBAN (ISO 13616, mod 97) and BIC (ISO 9362) checks, shared by the transfer form and the server: a mistyped
 * IBAN is refused before any code is sent, with a message that says what is wrong.
 */

/** The lengths of the countries' IBANs (SEPA countries; any other country: 15 to 34 characters). */
export const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
};

const IBAN_MSG = {
  characters: 'IBAN may contain only letters, digits and spaces',
  start: 'IBAN must start with a country code and two check digits',
  checksum: 'IBAN is not valid: check the digits',
  bic: 'BIC must be 8 or 11 letters and digits (bank, country, location, branch)',
} as const;

/** The IBAN as it is kept and compared: no spaces, upper case. */
export const normalIban = (raw: string) => raw.replace(/\s+/g, '').toUpperCase();
export const normalBic = (raw: string) => raw.replace(/\s+/g, '').toUpperCase();

/** Why an IBAN is not valid, or null when it is (an empty one is the caller's 'This field is required'). */
export function ibanError(raw: string): string | null {
  const iban = normalIban(raw);
  if (!/^[A-Z0-9]+$/.test(iban)) return IBAN_MSG.characters;
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return IBAN_MSG.start;
  const len = IBAN_LENGTHS[iban.slice(0, 2)];
  if (len && iban.length !== len) return `IBAN must be ${len} characters for ${iban.slice(0, 2)}`;
  if (!len && (iban.length < 15 || iban.length > 34)) return 'IBAN must be 15 to 34 characters';
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const digits = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1 ? null : IBAN_MSG.checksum;
}

/** Why a BIC is not valid (4 letters bank, 2 letters country, 2 location, optional 3 branch), or null. */
export function bicError(raw: string): string | null {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(normalBic(raw)) ? null : IBAN_MSG.bic;
}
