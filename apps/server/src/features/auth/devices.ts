import { parseCookie, stringifySetCookie } from 'cookie';
import { keyedHash, randomToken, safeEqualHex } from '../../platform/crypto.ts';

/**
 * Device marks: a long-lived cookie set at every completed sign-in, naming the accounts that signed in on this
 * browser. Each mark is a random id with an HMAC (SECRETS_KEY) over the id and the account's e-mail, so it is
 * valid for that account only and cannot be forged. A sign-in step carrying a valid mark for its account is
 * counted against the mark's own delay instead of the account's, which guesses from elsewhere fill
 * (docs/decisions/005). It never replaces the password or the second factor.
 */
export const DEVICE_COOKIE = 'obol_device';
const MAX_MARKS = 5;
const MAX_AGE_SECONDS = 365 * 24 * 3600;

const macOf = (key: Buffer, id: string, email: string) =>
  keyedHash(key, `device|${email.trim().toLowerCase()}|${id}`).slice(0, 32);

interface Mark {
  id: string;
  mac: string;
}

/** The marks the request's Cookie header carries (malformed ones are skipped). */
function marksOf(cookieHeader: string | undefined): Mark[] {
  const raw = cookieHeader ? parseCookie(cookieHeader)[DEVICE_COOKIE] : undefined;
  if (!raw) return [];
  return raw
    .split('~')
    .slice(0, MAX_MARKS)
    .map((m) => /^([A-Za-z0-9_-]{16,64})\.([0-9a-f]{32})$/.exec(m))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ id: m[1], mac: m[2] }));
}

/** The id of the request's valid mark for this account's e-mail, or undefined. */
export function trustedDevice(key: Buffer, cookieHeader: string | undefined, email: string): string | undefined {
  return marksOf(cookieHeader).find((m) => safeEqualHex(m.mac, macOf(key, m.id, email)))?.id;
}

/**
 * The Set-Cookie header after a completed sign-in: this account's mark (kept, or a new one) first, then the
 * other accounts' marks the browser had, at most five. HttpOnly, SameSite=Strict, for /api only; Secure on https.
 */
export function deviceCookie(key: Buffer, cookieHeader: string | undefined, email: string, secure: boolean): string {
  const marks = marksOf(cookieHeader);
  const own = marks.find((m) => safeEqualHex(m.mac, macOf(key, m.id, email)));
  const id = own?.id ?? randomToken(18);
  const value = [{ id, mac: macOf(key, id, email) }, ...marks.filter((m) => m.id !== id)]
    .slice(0, MAX_MARKS)
    .map((m) => `${m.id}.${m.mac}`)
    .join('~');
  return stringifySetCookie({
    name: DEVICE_COOKIE,
    value,
    maxAge: MAX_AGE_SECONDS,
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure,
  });
}
