import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import argon2 from 'argon2';
import { generateSecret, generateSync, verifySync } from 'otplib';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A keyed hash for short secrets (one-time codes): a leaked table cannot be brute-forced without the key. */
export const keyedHash = (key: Buffer, s: string) => createHmac('sha256', key).update(s).digest('hex');

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export function safeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

// A real argon2id hash of a random string, verified against when the account does not exist,
// so a wrong e-mail costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword(randomToken());
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Authenticated encryption (AES-256-GCM) of secrets at rest. Output: base64url(iv|tag|ciphertext). */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const buf = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
  decipher.setAuthTag(buf.subarray(12, 28));
  return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
}

// ---- TOTP (RFC 6238, SHA-1, 6 digits, 30 s), for authenticator apps: otplib (constant-time compare) ----

/** A new secret for an authenticator app: 20 random bytes, base32 (what the otpauth:// URI carries). */
export const newTotpSecret = () => generateSecret();

/** The code an authenticator app shows for this secret at a 30-second time step. */
export const totpAt = (secretB32: string, step: number): string =>
  generateSync({ secret: secretB32, epoch: step * 30 });

export const totpStep = (ms = Date.now()) => Math.floor(ms / 30_000);

/**
 * The time step the code matches within one step of drift either way, or null (the caller refuses a step it already
 * took, so a code is used once).
 */
export function verifyTotp(secretB32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const r = verifySync({ secret: secretB32, token: code, epoch: Math.floor(now / 1000), epochTolerance: 30 });
    return r.valid ? totpStep(now) + r.delta : null;
  } catch {
    // a secret that is not base32: nothing matches
    return null;
  }
}
