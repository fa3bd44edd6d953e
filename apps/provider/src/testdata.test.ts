import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './app.ts';
import { signWebhook, verifyWebhookSignature } from './signature.ts';
import { bicError, closedAccount, findWallet, ibanError, payoutOutcome } from './testdata.ts';

describe('wallets (test data)', () => {
  it('classes of id: 1 Acme Brand, 2 Globex Outlet, 3 no brand, others unknown', () => {
    expect(findWallet('123456789')?.brand).toBe('Acme Brand');
    expect(findWallet('223456789')?.brand).toBe('Globex Outlet');
    expect(findWallet('323456789')?.brand).toBeNull();
    for (const id of ['423456789', '023456789', '923456789', '12345678', '1234567890', 'abcdefghi', '', '12345678a'])
      expect(findWallet(id), id).toBeNull();
  });

  it('derive names and date of birth deterministically', () => {
    const w = findWallet('100000042')!;
    expect(findWallet('100000042')).toEqual(w);
    expect(w.first_name).toMatch(/^[A-Z][a-z]+$/);
    expect(w.last_name).toMatch(/^[A-Z][a-z]+$/);
    expect(w.date_of_birth).toMatch(/^(19[6-9]\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d)$/);
    expect(findWallet('100000043')).not.toEqual(w);
  });

  it('decide payout outcomes', () => {
    const base = { obol_id: '100000001', brand: 'Acme Brand', amount: 100 };
    expect(payoutOutcome(base)).toEqual({ status: 'Completed' });
    expect(payoutOutcome({ ...base, brand: 'ACME brand' })).toEqual({ status: 'Completed' });
    expect(payoutOutcome({ ...base, brand: 'Globex Outlet' })).toEqual({
      status: 'Failed',
      message: 'Brand does not match',
    });
    expect(payoutOutcome({ ...base, obol_id: '200000001', brand: 'Acme Brand' }).message).toBe('Brand does not match');
    expect(payoutOutcome({ ...base, obol_id: '300000001', brand: 'Whatever' })).toEqual({ status: 'Completed' });
    expect(payoutOutcome({ ...base, obol_id: '500000001' })).toEqual({ status: 'Failed', message: 'Invalid Obol Id' });
    expect(payoutOutcome({ ...base, amount: 66_600 })).toEqual({ status: 'Failed', message: 'Declined by provider' });
    expect(payoutOutcome({ ...base, amount: 66_601 })).toEqual({ status: 'Completed' });
  });
});

describe('IBAN and BIC', () => {
  it.each([
    'DE89370400440532013000',
    'DE89 3704 0044 0532 0130 00',
    'de89370400440532013000',
    'FR1420041010050500013M02606',
    'NL91ABNA0417164300',
    'ES9121000418450200051332',
    'IT60X0542811101000000123456',
    'GB82WEST12345698765432',
    'BE68539007547034',
    'AT611904300234573201',
    'IE29AIBK93115212345678',
    'LT121000011101001000',
    'NO9386011117947',
    'CH9300762011623852957',
    'DE94370400440532010000',
  ])('accept %s', (iban) => expect(ibanError(iban)).toBeNull());

  it.each([
    ['DE89370400440532013001', /checksum/],
    ['DE88370400440532013000', /checksum/],
    ['GB82WEST12345698765433', /checksum/],
    ['DE8937040044053201300', /length/],
    ['NL91ABNA04171643001', /length/],
    ['FR142004101005050001302606', /length/],
    ['XX12345678901', /length/],
    ['1234', /country code/],
    ['', /required/],
    ['DEAB370400440532013000', /country code/],
    ['DE89-3704-0044-0532-0130-00', /letters, digits/],
  ])('refuse %s', (iban, why) => expect(ibanError(iban)).toMatch(why));

  it('BIC: 8 or 11 characters, bank, country, location, branch', () => {
    for (const ok of ['DEUTDEFF', 'DEUTDEFF500', 'NWBKGB2L', 'ABNANL2A', 'deutdeff'])
      expect(bicError(ok), ok).toBeNull();
    for (const bad of ['DEUT', 'DEUTDEF', 'DEUTDEFF5', 'DEUTDEFF5000', '1EUTDEFF', 'DEUT1EFF', 'DEUTDE-F', ''])
      expect(bicError(bad), bad).toMatch(/BIC/);
  });

  it('an account part ending in 0000 is a closed account', () => {
    expect(closedAccount('DE94370400440532010000')).toBe(true);
    expect(closedAccount('DE94 3704 0044 0532 0100 00')).toBe(true);
    expect(closedAccount('DE89370400440532013000')).toBe(false);
  });
});

describe('webhook signature', () => {
  it('is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    // the expected value comes from: printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec
    expect(signWebhook('whsec', '{"a":1}', 1700000000)).toBe(
      't=1700000000,v1=8ad37ba156048ae0e0a5533c75cdf26fee88b07f93cb57ee4c80adb053012032',
    );
  });

  it('verifies a good signature and refuses a tampered body, another secret, an old or malformed header', () => {
    const body = '{"event_id":"e1","amount":100}';
    const now = Date.now();
    const t = Math.floor(now / 1000);
    const header = signWebhook('s3cret', body, t);
    expect(verifyWebhookSignature('s3cret', header, body, 300, now)).toBe(true);
    expect(verifyWebhookSignature('s3cret', header, body.replace('100', '101'), 300, now)).toBe(false);
    expect(verifyWebhookSignature('other', header, body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', signWebhook('s3cret', body, t - 301), body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', signWebhook('s3cret', body, t - 299), body, 300, now)).toBe(true);
    expect(verifyWebhookSignature('s3cret', undefined, body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', '', body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', `t=${t}`, body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', header.replace(/v1=../, 'v1=zz'), body, 300, now)).toBe(false);
    expect(verifyWebhookSignature('s3cret', header.replace(`t=${t}`, `t=${t + 1}`), body, 300, now)).toBe(false);
  });
});

describe('webhook retry backoff', () => {
  it('doubles from 0.5 s and is capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs)).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});
