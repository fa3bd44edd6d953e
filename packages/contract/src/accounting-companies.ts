import { z } from 'zod';
import { ACCOUNTING_MSG } from './accounting-common.ts';
import { id, searchField, text100 } from './accounting-params.ts';
import { email } from './auth.ts';
import { MSG } from './messages.ts';
import { timestamp } from './operation.ts';
import { pageField, perPageField } from './params.ts';

// ---- companies ----

export const companiesRequest = z.object({ per_page: perPageField(), page: pageField(), search: searchField });

const companyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** never the key: asterisks until revealed with the password */
  api_key: z.string(),
  /** 1 active, 0 inactive */
  status: z.number().int(),
  /** the account holder's approval of the account access */
  consent: z.enum(['Pending', 'Approved']),
  accounts: z.number().int(),
  created_at: timestamp,
});
export type CompanyRow = z.output<typeof companyRow>;
export const companiesResponse = z.object({
  companies: z.array(companyRow),
  total: z.number().int(),
  all_companies: z.number().int(),
  active_company: z.number().int(),
  in_active_company: z.number().int(),
});
export type CompaniesResponse = z.output<typeof companiesResponse>;

export const registerCompanyRequest = z.object({
  name: text100,
  email,
  api_key: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(200, 'api_key is too long'),
});

export const statusRequest = z.object({
  id: id(),
  status: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'status must be 0 or 1' })
    .transform(Number),
});

export const companyKeyRequest = z.object({
  id: id(),
  current_password: z.string({ error: MSG.requiredShort }).min(1, MSG.requiredShort).max(128),
});
export const companyKeyResponse = z.object({
  user_verified: z.literal(1),
  api_key: z.string(),
  message: z.array(z.string()),
});

const companyOption = z.object({ name: z.string(), value: z.number().int() });
export const companyListResponse = z.object({ companies: z.array(companyOption) });

const companyAccount = z.object({
  /** the provider's account id */
  id: z.string(),
  name: z.string(),
  account_iban: z.string(),
  account_bic: z.string(),
  /** cents, from the ledger */
  balance: z.number().int(),
  currency: z.string(),
  /** the ledger account's id */
  ledger_account_id: z.string(),
});
export type CompanyAccount = z.output<typeof companyAccount>;
export const beneficiary = z.object({
  id: z.string(),
  name: z.string(),
  account_iban: z.string(),
  account_bic: z.string(),
});
export type Beneficiary = z.output<typeof beneficiary>;

export const companyIdRequest = z.object({ companyId: id('companyId') });
export const companyAccountsResponse = z.object({ accounts: z.array(companyAccount) });
export const companyBeneficiariesResponse = z.object({
  beneficiaries: z.array(beneficiary),
  accounts: z.array(companyAccount),
});

export const consentRequest = z.object({
  token: z.string({ error: ACCOUNTING_MSG.consentInvalid }).trim().min(1, ACCOUNTING_MSG.consentInvalid).max(200),
});
export const consentDetailsResponse = z.object({
  company_name: z.string(),
  email: z.string(),
  approved: z.boolean(),
  accounts: z.array(z.object({ name: z.string(), account_iban: z.string(), currency: z.string() })),
});
export type ConsentDetails = z.output<typeof consentDetailsResponse>;
