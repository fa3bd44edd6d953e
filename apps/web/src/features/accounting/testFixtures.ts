/** Rows and answers of the accounting calls, for the tests of this feature. */
import type { AccountingTransaction, CompanyAccount, CompanyRow, RuleRow } from '@obol/contract';

export const company = (id: number, over: Partial<CompanyRow> = {}): CompanyRow => ({
  id,
  name: `Company ${id}`,
  email: `c${id}@corp.test`,
  api_key: '********',
  status: 1,
  consent: 'Approved',
  accounts: 2,
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

export const account = (id: string, over: Partial<CompanyAccount> = {}): CompanyAccount => ({
  id,
  name: `Account ${id}`,
  account_iban: `DE8937040044053201${id.padStart(4, '0')}`,
  account_bic: 'DEUTDEFF',
  balance: 50_000,
  currency: 'EUR',
  ledger_account_id: `L-${id}`,
  ...over,
});

export const ACCOUNTS = [account('1001'), account('1002', { balance: 0 }), account('1003', { balance: 9_000 })];
export const BENEFICIARIES = [
  { id: 'B-1', name: 'Acme Supplies GmbH', account_iban: 'DE89370400440532013000', account_bic: 'COBADEFF' },
  { id: 'B-2', name: 'Globex Ltd', account_iban: 'GB29NWBK60161331926819', account_bic: 'NWBKGB2L' },
];

/** The selectors' calls: one active company with three accounts and two beneficiaries. */
export const choiceHandlers = {
  '/api/company-list': () => ({ body: { companies: [{ name: 'Company 1', value: 1 }] } }),
  '/api/company-accounts': () => ({ body: { accounts: ACCOUNTS } }),
  '/api/company-beneficiaries': () => ({ body: { beneficiaries: BENEFICIARIES, accounts: ACCOUNTS } }),
};

export const rule = (id: number, over: Partial<RuleRow> = {}): RuleRow => ({
  id,
  rule_name: `Rule ${id}`,
  company_name: 'Company 1',
  company_email: 'c1@corp.test',
  company_id: 1,
  account_id: '1001',
  beneficiary_id: 'B-1',
  beneficiary_name: 'Acme Supplies GmbH',
  status: 1,
  transfer_type: 'external_transfer',
  rule_type: 'Amount',
  amount: '2500',
  interval: '00:00',
  interval_type: 'weekly',
  interval_day: 'Monday',
  reference: 'Rent',
  account_type: false,
  last_period: null,
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

export const transaction = (id: number, over: Partial<AccountingTransaction> = {}): AccountingTransaction => ({
  id,
  rule_id: 1,
  rule_name: 'Rule 1',
  rule_type: 'Amount',
  company_name: 'Company 1',
  beneficiary_name: 'Acme Supplies GmbH',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFF',
  amount: 2500,
  currency: 'EUR',
  transfer_by: 'Scheduler',
  account_id: '1001',
  status: 'COMPLETED',
  reason: null,
  transfer_type: 'external_transfer',
  description: 'Rent November',
  created_at: '2026-11-20T10:00:00.000Z',
  ...over,
});
