import {
  ACCOUNTING_MSG,
  type accountingOps,
  type Beneficiary,
  type CompaniesResponse,
  type CompanyAccount,
  type ConsentDetails,
  type ParsedInputOf,
} from '@obol/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { decryptSecret, encryptSecret, randomToken, sha256 } from '../../platform/crypto.ts';
import { escapeLike, isUniqueViolation, rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { ApiError, conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { ProviderRejected, ProviderUnavailable } from '../../platform/provider.ts';
import { confirmPassword } from '../auth/passwords.ts';
import { accountsByIds, openCompanyAccount, platformAccountId } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { companies, companyAccounts, companyBeneficiaries } from './tables.ts';

type Register = ParsedInputOf<typeof accountingOps.registerCompany>;
export type CompanyDb = typeof companies.$inferSelect;

/** How long the consent link mailed at registration is valid. */
export const CONSENT_TTL_MS = 7 * 24 * 3_600_000;
const MASK = '********';

/** The company's accounts and beneficiaries as the provider has them (a bad key: 422 on `api_key`). */
async function atProvider(deps: Deps, apiKey: string) {
  try {
    return await deps.provider.companyAccounts(apiKey);
  } catch (err) {
    if (err instanceof ProviderRejected && err.status === 422)
      throw unprocessable(ACCOUNTING_MSG.invalidCompanyKey, 'api_key');
    if (err instanceof ProviderUnavailable) throw new ApiError(503, ['The bank is not reachable; try again shortly']);
    throw err;
  }
}

/**
 * Registers a company: its key is checked at the provider, kept encrypted (its hash keeps one registration per
 * key, in the database), and the company is inactive until the holder of its accounts approves the access from
 * the consent link mailed to the company's address.
 */
export async function registerCompany(deps: Deps, auth: AuthContext, input: Register) {
  await atProvider(deps, input.api_key);
  const token = randomToken();
  let row: CompanyDb;
  try {
    [row] = await deps.db
      .insert(companies)
      .values({
        name: input.name,
        email: input.email,
        apiKeyEnc: encryptSecret(deps.config.secretsKey, input.api_key),
        apiKeyHash: sha256(input.api_key),
        consentTokenHash: sha256(token),
        consentExpiresAt: new Date(Date.now() + CONSENT_TTL_MS),
        createdBy: auth.user.id,
      })
      .returning();
  } catch (err) {
    if (isUniqueViolation(err, 'companies_api_key_hash_key')) throw conflict(ACCOUNTING_MSG.companyExists);
    throw err;
  }
  await deps.mailer.send({
    to: row.email,
    subject: `Approve Obol's access to the accounts of ${row.name}`,
    template: 'company-consent',
    text:
      `Hello,\n\n${auth.user.name} registered ${row.name} in Obol's accounting module. Obol asks to see the balances ` +
      `of its bank accounts and to send the transfers you approve there.\n\nApprove the access here (valid 7 days):\n` +
      `${deps.config.publicUrl}/consent-approve?token=${token}\n\nIf you did not expect this, ignore this mail.\n`,
  });
  return { company: row, message: [ACCOUNTING_MSG.companyRegistered] };
}

const companyRowSql = sql`SELECT c.id, c.name, c.email, c.status, c.consent, c.created_at,
    (SELECT count(*) FROM company_accounts a WHERE a.company_id = c.id) AS accounts
  FROM companies c`;

export async function listCompanies(
  db: Executor,
  q: { search: string; page: number; per_page: number },
): Promise<CompaniesResponse> {
  const like = `%${escapeLike(q.search)}%`;
  const where = q.search ? sql`(c.name ILIKE ${like} OR c.email ILIKE ${like})` : sql`true`;
  const [rows, [counts]] = await Promise.all([
    db
      .execute(
        sql`${companyRowSql} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`,
      )
      .then((r) =>
        rowsOf<{
          id: number;
          name: string;
          email: string;
          status: number;
          consent: 'Pending' | 'Approved';
          created_at: string | Date;
          accounts: number | string;
        }>(r),
      ),
    db
      .execute(
        sql`SELECT count(*) FILTER (WHERE ${where}) AS total, count(*) AS all_companies,
          count(*) FILTER (WHERE c.status = 1) AS active FROM companies c`,
      )
      .then((r) => rowsOf<{ total: string | number; all_companies: string | number; active: string | number }>(r)),
  ]);
  return {
    companies: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      email: r.email,
      api_key: MASK,
      status: Number(r.status),
      consent: r.consent,
      accounts: Number(r.accounts),
      created_at: new Date(r.created_at).toISOString(),
    })),
    total: Number(counts.total),
    all_companies: Number(counts.all_companies),
    active_company: Number(counts.active),
    in_active_company: Number(counts.all_companies) - Number(counts.active),
  };
}

/** Activates (only after the holder's consent, which the table's check also holds) or deactivates a company. */
export async function setCompanyStatus(db: Executor, id: number, status: number) {
  const [row] = await db
    .update(companies)
    .set({ status })
    .where(and(eq(companies.id, id), status === 1 ? eq(companies.consent, 'Approved') : sql`true`))
    .returning();
  if (row) return { company: row, message: [status === 1 ? ACCOUNTING_MSG.activated : ACCOUNTING_MSG.deactivated] };
  const [exists] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
  if (!exists) throw notFound(ACCOUNTING_MSG.companyNotFound);
  throw unprocessable(ACCOUNTING_MSG.consentPending, 'status');
}

/** The company's key in plain text, after the caller's password (the reveal limit counts first). */
export async function revealCompanyKey(
  deps: Deps,
  auth: AuthContext,
  input: { id: number; current_password: string },
  ip: string,
) {
  await throttle(deps, 'apiKeyReveal', auth.user.id);
  await confirmPassword(deps, auth, input.current_password, ip, 'current_password');
  const [row] = await deps.db.select().from(companies).where(eq(companies.id, input.id));
  if (!row) throw notFound(ACCOUNTING_MSG.companyNotFound);
  return {
    company: row,
    answer: {
      user_verified: 1 as const,
      api_key: decryptSecret(deps.config.secretsKey, row.apiKeyEnc),
      message: ['Key decrypted'],
    },
  };
}

// ---- the account holder's consent ----

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
  const row = await companyByToken(deps.db, token);
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

// ---- the selectors ----

export async function companyOptions(db: Executor) {
  const rows = await db
    .select({ name: companies.name, value: companies.id })
    .from(companies)
    .where(eq(companies.status, 1))
    .orderBy(asc(companies.name));
  return { companies: rows };
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
