import { describe, expect, it } from 'vitest';
import { newTotpSecret, totpAt, totpStep, verifyTotp } from './crypto.ts';

// RFC 6238 appendix B, SHA-1: the secret "12345678901234567890", codes cut to 6 digits
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP for authenticator apps', () => {
  it('gives the RFC 6238 codes', () => {
    expect(totpAt(RFC_SECRET, totpStep(59_000))).toBe('287082');
    expect(totpAt(RFC_SECRET, totpStep(1_111_111_109_000))).toBe('081804');
    expect(totpAt(RFC_SECRET, totpStep(2_000_000_000_000))).toBe('279037');
  });

  it('takes a code of this step or one step either side, and says which step it was', () => {
    const now = 1_795_000_015_000;
    const step = totpStep(now);
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(verifyTotp(secret, totpAt(secret, step), now)).toBe(step);
    expect(verifyTotp(secret, totpAt(secret, step - 1), now)).toBe(step - 1);
    expect(verifyTotp(secret, totpAt(secret, step + 1), now)).toBe(step + 1);
    expect(verifyTotp(secret, totpAt(secret, step - 2), now)).toBeNull();
    expect(verifyTotp(secret, totpAt(secret, step + 2), now)).toBeNull();
  });

  it('refuses what is not a six-digit code, and a secret that is not base32', () => {
    const secret = newTotpSecret();
    const code = totpAt(secret, totpStep());
    for (const bad of ['', '12345', '1234567', 'abcdef', ` ${code}`]) expect(verifyTotp(secret, bad)).toBeNull();
    expect(verifyTotp('not base32!', '123456')).toBeNull();
  });
});
