import { ACCOUNTING_MSG, type accountingOps, type CompaniesResponse, type ParsedInputOf } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { decryptSecret, encryptSecret, randomToken, sha256 } from '../../platform/crypto.ts';
import { escapeLike, isUniqueViolation, rowsOf, type Executor } from '../../platform/db.ts';
import { ApiError, conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { ProviderRejected, ProviderUnavailable } from '../../platform/provider.ts';
import { confirmPassword } from '../auth/passwords.ts';
import { companies } from './tables.ts';

type Register = ParsedInputOf<typeof accountingOps.registerCompany>;
export type CompanyDb = typeof companies.$inferSelect;

/** How long the consent link mailed at registration is valid. */
export const CONSENT_TTL_MS = 7 * 24 * 3_600_000;
const MASK = '********';

/** The company's accounts and beneficiaries as the provider has them (a bad key: 422 on `api_key`). */
export async function atProvider(deps: Deps, apiKey: string) {
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
        sql`${companyRowSql} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC
          LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`,
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
