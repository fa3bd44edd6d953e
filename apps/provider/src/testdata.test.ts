import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './app.ts';
import { signWebhook, verifyWebhookSignature } from './signature.ts';
import {
  DEMO_COMPANY_KEYS,
  bicError,
  closedAccount,
  companyAccounts,
  companyBeneficiaries,
  findWallet,
  ibanError,
  isCompanyKey,
  makeIban,
  payoutOutcome,
} from './testdata.ts';

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

describe('makeIban', () => {
  it('computes the mod-97 check digits of the documented IBANs', () => {
    expect(makeIban('DE', '370400440532013000')).toBe('DE89370400440532013000');
    expect(makeIban('NL', 'ABNA0417164300')).toBe('NL91ABNA0417164300');
    expect(makeIban('GB', 'WEST12345698765432')).toBe('GB82WEST12345698765432');
    expect(makeIban('FR', '20041010050500013M02606')).toBe('FR1420041010050500013M02606');
    expect(makeIban('be', '539007547034')).toBe('BE68539007547034');
    expect(makeIban('NO', '86011117947')).toBe('NO9386011117947'); // check digits above 90
    expect(makeIban('AT', '1904300234573201')).toBe('AT611904300234573201');
    expect(() => makeIban('D', '1')).toThrow();
    expect(() => makeIban('DE', '12-34')).toThrow();
  });
});

describe('companies (test data)', () => {
  it('a company key is ck_ and 16 to 64 letters or digits', () => {
    for (const k of [...DEMO_COMPANY_KEYS, `ck_${'a'.repeat(16)}`, `ck_${'Z9'.repeat(32)}`])
      expect(isCompanyKey(k), k).toBe(true);
    for (const k of ['', 'ck_', 'ck_demo_', 'ck_acme_000000000000001', `ck_${'a'.repeat(15)}`, `ck_${'a'.repeat(65)}`])
      expect(isCompanyKey(k), k).toBe(false);
    for (const k of ['CK_acme0000000000000001', 'sk_acme0000000000000001', ' ck_acme0000000000000001'])
      expect(companyAccounts(k), k).toBeNull();
    expect(companyBeneficiaries('ck_demo_')).toBeNull();
  });

  it('the demo keys: Acme has 3 accounts, Globex 2 (as documented)', () => {
    expect(companyAccounts('ck_acme0000000000000001')).toEqual([
      {
        id: 'CA-b1464d83-1',
        name: 'Operating account',
        iban: 'DE90100100103259376636',
        bic: 'PBNKDEFFXXX',
        currency: 'EUR',
        opening_balance: 3_974_620,
      },
      {
        id: 'CA-b1464d83-2',
        name: 'Reserve account',
        iban: 'DE96100100106066787000',
        bic: 'PBNKDEFFXXX',
        currency: 'EUR',
        opening_balance: 2_408_627,
      },
      {
        id: 'CA-b1464d83-3',
        name: 'Payroll account',
        iban: 'DE83100100102244331708',
        bic: 'PBNKDEFFXXX',
        currency: 'EUR',
        opening_balance: 946_756,
      },
    ]);
    expect(companyAccounts('ck_globex000000000000002')?.map((a) => [a.id, a.name, a.iban, a.opening_balance])).toEqual([
      ['CA-93be4ff0-1', 'Operating account', 'DE93100100103267739922', 918_932],
      ['CA-93be4ff0-2', 'Reserve account', 'DE98100100103926563347', 3_297_163],
    ]);
  });

  it('accounts are deterministic, 2 or 3, with valid open German IBANs of bank 10010010 and whole balances', () => {
    const counts = new Set<number>();
    for (let n = 0; n < 500; n++) {
      const key = `ck_${String(n).padStart(16, 'k')}`;
      const accounts = companyAccounts(key)!;
      expect(companyAccounts(key)).toEqual(accounts);
      counts.add(accounts.length);
      expect([2, 3]).toContain(accounts.length);
      expect(new Set(accounts.map((a) => a.iban)).size).toBe(accounts.length);
      accounts.forEach((a, i) => {
        expect(a.id).toMatch(new RegExp(`^CA-[0-9a-f]{8}-${i + 1}$`));
        expect(a.name).toBe(['Operating account', 'Reserve account', 'Payroll account'][i]);
        expect(a.iban).toMatch(/^DE\d{2}10010010\d{10}$/);
        expect(ibanError(a.iban), a.iban).toBeNull();
        expect(closedAccount(a.iban), a.iban).toBe(false);
        expect(bicError(a.bic)).toBeNull();
        expect(a.currency).toBe('EUR');
        expect(Number.isSafeInteger(a.opening_balance)).toBe(true);
        expect(a.opening_balance).toBeGreaterThanOrEqual(500_000);
        expect(a.opening_balance).toBeLessThanOrEqual(5_000_000);
      });
    }
    expect([...counts].sort()).toEqual([2, 3]);
  });

  it('every company has the same three beneficiaries with valid IBANs; BEN-3 is a closed account', () => {
    const bens = companyBeneficiaries(DEMO_COMPANY_KEYS[0])!;
    expect(companyBeneficiaries(DEMO_COMPANY_KEYS[1])).toEqual(bens);
    expect(bens).toEqual([
      { id: 'BEN-1', name: 'Northwind Supplies GmbH', iban: 'DE82370400440123456789', bic: 'COBADEFFXXX' },
      { id: 'BEN-2', name: 'Contoso Logistics BV', iban: 'NL02ABNA0123456789', bic: 'ABNANL2AXXX' },
      { id: 'BEN-3', name: 'Closed Account Ltd', iban: 'DE68370400449876540000', bic: 'COBADEFFXXX' },
    ]);
    for (const b of bens) {
      expect(ibanError(b.iban), b.iban).toBeNull();
      expect(bicError(b.bic), b.bic).toBeNull();
    }
    expect(bens[1].iban).toHaveLength(18);
    expect(bens.map((b) => closedAccount(b.iban))).toEqual([false, false, true]);
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
