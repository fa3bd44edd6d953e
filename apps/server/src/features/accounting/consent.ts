import { ACCOUNTING_MSG, type ConsentDetails } from '@obol/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { decryptSecret, sha256 } from '../../platform/crypto.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import { openCompanyAccount, platformAccountId } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { atProvider, type CompanyDb } from './companies.ts';
import { companies, companyAccounts, companyBeneficiaries } from './tables.ts';

/* The account holder's consent to Obol's access to a company's accounts (/consent-approve). */

async function companyByToken(db: Executor, token: string): Promise<CompanyDb> {
  const [row] = await db
    .select()
    .from(companies)
    .where(eq(companies.consentTokenHash, sha256(token)));
  // an approved company's link keeps saying so; a pending one's ends with its validity
  if (!row || (row.consent === 'Pending' && (!row.consentExpiresAt || row.consentExpiresAt < new Date())))
    throw notFound(ACCOUNTING_MSG.consentInvalid);
  return row;
}

export async function consentDetails(deps: Deps, token: string): Promise<ConsentDetails> {
  const row = await companyByToken(deps.db, token);
  const approved = row.consent === 'Approved';
  const listed = approved
    ? await deps.db
        .select({ name: companyAccounts.name, iban: companyAccounts.iban, currency: companyAccounts.currency })
        .from(companyAccounts)
        .where(eq(companyAccounts.companyId, row.id))
        .orderBy(asc(companyAccounts.id))
    : (await atProvider(deps, decryptSecret(deps.config.secretsKey, row.apiKeyEnc))).accounts;
  return {
    company_name: row.name,
    email: row.email,
    approved,
    accounts: listed.map((a) => ({ name: a.name, account_iban: a.iban, currency: a.currency })),
  };
}

/**
 * The holder approves the access: in one transaction the company moves Pending -> Approved and active (a
 * conditional UPDATE: two approvals at once open the accounts once), each bank account gets its ledger account,
 * credited with the balance the provider holds (from the provider account, under a key per account), and the
 * saved beneficiaries are kept.
 */
export async function approveConsent(deps: Deps, token: string) {
  return grantAccess(deps, await companyByToken(deps.db, token));
}

/** The approval itself, for a company found by its consent link (or, in the demo seed, just registered). */
export async function grantAccess(deps: Deps, row: CompanyDb) {
  if (row.consent === 'Approved') return { company: row, message: [ACCOUNTING_MSG.consentApproved] };
  const bank = await atProvider(deps, decryptSecret(deps.config.secretsKey, row.apiKeyEnc));
  return deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(companies)
      .set({ consent: 'Approved', status: 1, consentedAt: new Date() })
      .where(and(eq(companies.id, row.id), eq(companies.consent, 'Pending')))
      .returning();
    if (!claimed) return { company: row, message: [ACCOUNTING_MSG.consentApproved] };
    await openCompanyAccounts(tx, claimed, bank);
    return { company: claimed, message: [ACCOUNTING_MSG.consentApproved] };
  });
}

async function openCompanyAccounts(
  tx: Tx,
  company: CompanyDb,
  bank: Awaited<ReturnType<Deps['provider']['companyAccounts']>>,
) {
  const provider = await platformAccountId(tx, 'provider');
  let n = 0;
  for (const a of bank.accounts) {
    n += 1;
    const ledger = await openCompanyAccount(tx, {
      companyId: company.id,
      n,
      name: `${company.name} ${a.name}`,
      currency: a.currency,
    });
    await tx.insert(companyAccounts).values({
      companyId: company.id,
      providerAccountId: a.id,
      name: a.name,
      iban: a.iban,
      bic: a.bic,
      currency: a.currency,
      ledgerAccountId: ledger.id,
    });
    if (a.opening_balance > 0)
      await postEntry(tx, {
        idempotencyKey: `company-account:${company.id}:${a.id}:open`,
        kind: 'company.opening',
        businessType: 'company',
        businessId: company.id,
        memo: `Balance of ${a.iban} at the provider when the access was approved`,
        postings: [
          { accountId: provider, amount: -a.opening_balance },
          { accountId: ledger.id, amount: a.opening_balance },
        ],
      });
  }
  if (bank.beneficiaries.length)
    await tx.insert(companyBeneficiaries).values(
      bank.beneficiaries.map((b) => ({
        companyId: company.id,
        providerBeneficiaryId: b.id,
        name: b.name,
        iban: b.iban,
        bic: b.bic,
      })),
    );
}
