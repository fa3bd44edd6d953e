import { ACCOUNTING_MSG, type Beneficiary, type CompanyAccount } from '@obol/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor, Tx } from '../../platform/db.ts';
import { notFound, unprocessable } from '../../platform/errors.ts';
import { accountsByIds } from '../ledger/accounts.ts';
import type { CompanyDb } from './companies.ts';
import { companies, companyAccounts, companyBeneficiaries } from './tables.ts';

/* A company's accounts and beneficiaries: the selectors, and where a transfer or rule goes from and to. */

export async function companyOptions(db: Executor) {
  const rows = await db
    .select({ name: companies.name, value: companies.id })
    .from(companies)
    .where(eq(companies.status, 1))
    .orderBy(asc(companies.name));
  return { companies: rows };
}

/** A company's name, whatever its status; null when there is none. */
export async function companyName(db: Executor, id: number): Promise<string | null> {
  const [row] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, id));
  return row?.name ?? null;
}

/** An active company, or 404 as for none (a deactivated company's money does not move). */
export async function activeCompany(db: Executor, id: number): Promise<CompanyDb> {
  const [row] = await db.select().from(companies).where(eq(companies.id, id));
  if (!row || row.status !== 1) throw notFound(ACCOUNTING_MSG.companyNotFound);
  return row;
}

/**
 * Inside a money transaction: the company, still active, its row held under a share lock until the transaction
 * ends, so a deactivation at the same moment waits for the transfer or run (and the next one sees it inactive).
 */
export async function lockActiveCompany(tx: Tx, id: number): Promise<CompanyDb | undefined> {
  const [row] = await tx
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), eq(companies.status, 1)))
    .for('share');
  return row;
}

export interface CompanyAccountRow {
  id: number;
  companyId: number;
  providerAccountId: string;
  name: string;
  iban: string;
  bic: string;
  currency: string;
  ledgerAccountId: number;
  ledgerCode: string;
  balance: number;
}

export async function accountsOfCompany(db: Executor, companyId: number): Promise<CompanyAccountRow[]> {
  const rows = await db
    .select()
    .from(companyAccounts)
    .where(eq(companyAccounts.companyId, companyId))
    .orderBy(asc(companyAccounts.id));
  const ledger = await accountsByIds(
    db,
    rows.map((r) => r.ledgerAccountId),
  );
  return rows.map((r) => ({
    id: r.id,
    companyId: r.companyId,
    providerAccountId: r.providerAccountId,
    name: r.name,
    iban: r.iban,
    bic: r.bic,
    currency: r.currency,
    ledgerAccountId: r.ledgerAccountId,
    ledgerCode: ledger.get(r.ledgerAccountId)!.accountId,
    balance: Number(ledger.get(r.ledgerAccountId)!.balance),
  }));
}

export const toCompanyAccount = (a: CompanyAccountRow): CompanyAccount => ({
  id: a.providerAccountId,
  name: a.name,
  account_iban: a.iban,
  account_bic: a.bic,
  balance: Number(a.balance),
  currency: a.currency,
  ledger_account_id: a.ledgerCode,
});

export async function beneficiariesOfCompany(db: Executor, companyId: number) {
  return db
    .select()
    .from(companyBeneficiaries)
    .where(eq(companyBeneficiaries.companyId, companyId))
    .orderBy(asc(companyBeneficiaries.id));
}

export const toBeneficiary = (b: typeof companyBeneficiaries.$inferSelect): Beneficiary => ({
  id: b.providerBeneficiaryId,
  name: b.name,
  account_iban: b.iban,
  account_bic: b.bic,
});

/**
 * Where a transfer or rule of an active company goes from and to: its account (by the provider's id), and the
 * beneficiary (external) or the company's other account (internal). Anything else is 404 with the field's message.
 */
export async function resolveTransfer(
  db: Executor,
  input: { company_id: number; account_id: string; beneficiary_id: string; transfer_type: string },
) {
  const company = await activeCompany(db, input.company_id);
  const list = await accountsOfCompany(db, company.id);
  const source = list.find((a) => a.providerAccountId === input.account_id);
  if (!source) throw notFound(ACCOUNTING_MSG.accountNotFound);
  if (input.transfer_type === 'internal_transfer') {
    const target = list.find((a) => a.providerAccountId === input.beneficiary_id);
    if (!target) throw notFound(ACCOUNTING_MSG.beneficiaryNotFound);
    if (target.id === source.id) throw unprocessable(ACCOUNTING_MSG.sameAccount, 'beneficiary_id');
    return {
      company,
      source,
      target,
      beneficiary: null,
      to: { name: `${company.name} ${target.name}`, iban: target.iban, bic: target.bic },
    };
  }
  const [beneficiary] = await db
    .select()
    .from(companyBeneficiaries)
    .where(
      and(
        eq(companyBeneficiaries.companyId, company.id),
        eq(companyBeneficiaries.providerBeneficiaryId, input.beneficiary_id),
      ),
    );
  if (!beneficiary) throw notFound(ACCOUNTING_MSG.beneficiaryNotFound);
  return {
    company,
    source,
    target: null,
    beneficiary,
    to: { name: beneficiary.name, iban: beneficiary.iban, bic: beneficiary.bic },
  };
}
