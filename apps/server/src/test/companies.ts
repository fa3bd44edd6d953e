import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { companies } from '../features/accounting/tables.ts';
import type { TestApp } from './harness.ts';

/** A company's accounts as the 2D screens list them (balances in cents). */
export interface CompanyAccount {
  id: string;
  balance: number;
  account_iban: string;
  ledger_account_id: string;
}

/** The accounts of a company, as its 2D admin (`as`) lists them. */
export const companyAccounts = async (t: TestApp, as: string, companyId: number) =>
  (await t.post('/api/company-accounts', { companyId }, as)).body.accounts as CompanyAccount[];

/**
 * A company registered by a 2D admin (`as`) with its key at the simulator (docs/provider.md lists the demo keys)
 * and approved by its account holder through the mailed consent link: active, its accounts opened.
 */
export async function approvedCompany(t: TestApp, as: string, c: { name: string; email: string; api_key: string }) {
  const r = await t.post('/api/register-company', c, as);
  expect(r.status, r.text).toBe(201);
  const token = /token=([\w-]+)/.exec(t.lastMailTo(c.email)!.text)![1];
  expect((await t.post('/api/consent-approve', { token })).status).toBe(200);
  const [row] = await t.deps.db.select().from(companies).where(eq(companies.email, c.email));
  return { id: row.id, accounts: await companyAccounts(t, as, row.id) };
}
