import {
  ACCOUNTING_MSG,
  bpsToPercent,
  WEEKDAYS,
  type accountingOps,
  type IntervalType,
  type ParsedInputOf,
  type RuleRow,
  type RulesResponse,
} from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { escapeLike, rowsOf, type Executor } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { lockedBalance } from '../ledger/accounts.ts';
import { accountsOfCompany, lockActiveCompany, resolveTransfer } from './accounts.ts';
import { ACCOUNTING_KEY_PREFIX, recordAccountingTransaction } from './transfers.ts';
import { accountingRules, accountingTransactions, companies, companyBeneficiaries } from './tables.ts';

type CreateRule = ParsedInputOf<typeof accountingOps.createRule>;
type RuleDb = typeof accountingRules.$inferSelect;

// ---- when a rule is due ----

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const utcDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const lastDayOf = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

/**
 * The latest period of a rule due at or before `now` (UTC): its due date (the period's name, YYYY-MM-DD) and
 * the moment it fell due. Daily: today at the rule's time, or yesterday before that time. Weekly: the last such
 * weekday at 00:00. Monthly: this month's day at 00:00 once reached, otherwise last month's; a month without the
 * day (31 in April) uses its last day.
 */
export function latestDuePeriod(
  rule: { interval: string; intervalType: string; intervalDay: string | null },
  now: Date,
): { period: string; dueAt: Date } {
  const [h, m] = rule.interval.split(':').map(Number);
  const today = utcDay(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const type = rule.intervalType as IntervalType;
  if (type === 'weekly') {
    // Monday 0 ... Sunday 6
    const want = WEEKDAYS.indexOf(rule.intervalDay as (typeof WEEKDAYS)[number]);
    const have = (today.getUTCDay() + 6) % 7;
    const day = new Date(today.getTime() - ((have - want + 7) % 7) * DAY);
    return { period: isoDay(day), dueAt: day };
  }
  if (type === 'monthly') {
    const want = Number(rule.intervalDay);
    const y = now.getUTCFullYear();
    const mo = now.getUTCMonth();
    let day = utcDay(y, mo, Math.min(want, lastDayOf(y, mo)));
    if (day > today) day = utcDay(y, mo - 1, Math.min(want, lastDayOf(y, mo - 1)));
    return { period: isoDay(day), dueAt: day };
  }
  let dueAt = new Date(today.getTime() + (h * 60 + m) * 60_000);
  if (dueAt > now) dueAt = new Date(dueAt.getTime() - DAY);
  return { period: isoDay(dueAt), dueAt };
}

/** A percentage (basis points) of a balance, rounded down to the cent: the money a percentage rule moves. */
export const percentageOf = (balance: number, bps: number) =>
  balance <= 0 ? 0 : Number((BigInt(balance) * BigInt(bps)) / 10_000n);

// ---- the rules ----

export async function createRule(deps: Deps, auth: AuthContext, input: CreateRule) {
  // the company active, the account its own, the beneficiary its own (or its other account)
  const { company, source, target, beneficiary } = await resolveTransfer(deps.db, input);
  const [row] = await deps.db
    .insert(accountingRules)
    .values({
      companyId: company.id,
      ruleName: input.rule_name,
      reference: input.reference,
      accountId: source.id,
      transferType: input.transfer_type,
      beneficiaryId: beneficiary?.id ?? null,
      toAccountId: target?.id ?? null,
      percentage: input.percentage,
      amount: input.amount,
      interval: input.interval,
      intervalType: input.interval_type,
      intervalDay: input.interval_day,
      status: 1,
      createdBy: auth.user.id,
    })
    .returning();
  return { rule: row, message: [ACCOUNTING_MSG.ruleCreated] };
}

export async function setRuleStatus(db: Executor, id: number, status: number) {
  const [row] = await db.update(accountingRules).set({ status }).where(eq(accountingRules.id, id)).returning();
  if (!row) throw notFound(ACCOUNTING_MSG.ruleNotFound);
  return { rule: row, message: [status === 1 ? ACCOUNTING_MSG.ruleActivated : ACCOUNTING_MSG.ruleDeactivated] };
}

/** Deletes a rule for good; the 2D transactions it made keep its name and type. */
export async function deleteRule(db: Executor, id: number) {
  const [row] = await db.delete(accountingRules).where(eq(accountingRules.id, id)).returning();
  if (!row) throw notFound(ACCOUNTING_MSG.ruleNotFound);
  return { rule: row, message: [ACCOUNTING_MSG.ruleDeleted] };
}

interface RuleListDb {
  id: number;
  rule_name: string;
  company_name: string;
  company_email: string;
  company_id: number;
  account_id: string;
  beneficiary_id: string;
  beneficiary_name: string;
  status: number;
  transfer_type: RuleRow['transfer_type'];
  percentage: boolean;
  amount: number | string;
  interval: string;
  interval_type: RuleRow['interval_type'];
  interval_day: string | null;
  reference: string;
  last_period: string | null;
  created_at: string | Date;
}

export async function listRules(
  db: Executor,
  q: { search: string; rule_type: '' | 0 | 1; page: number; per_page: number },
): Promise<RulesResponse> {
  const like = `%${escapeLike(q.search)}%`;
  const terms = [sql`true`];
  if (q.search) terms.push(sql`(r.rule_name ILIKE ${like} OR c.name ILIKE ${like})`);
  if (q.rule_type !== '') terms.push(sql`r.percentage = ${q.rule_type === 1}`);
  const where = sql.join(terms, sql` AND `);
  const [rows, [counts]] = await Promise.all([
    db
      .execute(
        sql`SELECT r.id, r.rule_name, c.name AS company_name, c.email AS company_email, r.company_id,
            src.provider_account_id AS account_id,
            COALESCE(b.provider_beneficiary_id, dst.provider_account_id) AS beneficiary_id,
            COALESCE(b.name, c.name || ' ' || dst.name) AS beneficiary_name,
            r.status, r.transfer_type, r.percentage, r.amount, r.interval, r.interval_type, r.interval_day,
            r.reference, r.last_period, r.created_at
          FROM accounting_rules r
          JOIN companies c ON c.id = r.company_id
          JOIN company_accounts src ON src.id = r.account_id
          LEFT JOIN company_beneficiaries b ON b.id = r.beneficiary_id
          LEFT JOIN company_accounts dst ON dst.id = r.to_account_id
          WHERE ${where}
          ORDER BY r.created_at DESC, r.id DESC
          LIMIT ${q.per_page} OFFSET ${(q.page - 1) * q.per_page}`,
      )
      .then((r) => rowsOf<RuleListDb>(r)),
    db
      .execute(
        sql`SELECT count(*) FILTER (WHERE ${where}) AS total, count(*) AS all_rules,
            count(*) FILTER (WHERE r.status = 1) AS active
          FROM accounting_rules r JOIN companies c ON c.id = r.company_id`,
      )
      .then((r) => rowsOf<{ total: string | number; all_rules: string | number; active: string | number }>(r)),
  ]);
  return {
    rules: rows.map((r) => ({
      id: Number(r.id),
      rule_name: r.rule_name,
      company_name: r.company_name,
      company_email: r.company_email,
      company_id: Number(r.company_id),
      account_id: r.account_id,
      beneficiary_id: r.beneficiary_id,
      beneficiary_name: r.beneficiary_name,
      status: Number(r.status),
      transfer_type: r.transfer_type,
      rule_type: r.percentage ? 'Percentage' : 'Amount',
      amount: r.percentage ? bpsToPercent(Number(r.amount)) : String(r.amount),
      interval: r.interval,
      interval_type: r.interval_type,
      interval_day: r.interval_day,
      reference: r.reference,
      account_type: r.percentage,
      last_period: r.last_period,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total: Number(counts.total),
    all_rules: Number(counts.all_rules),
    active_rules: Number(counts.active),
    in_active_rules: Number(counts.all_rules) - Number(counts.active),
  };
}

// ---- the scheduler ----

/**
 * Runs every active rule whose latest due period (latestDuePeriod at `now`) is after the last it ran and fell due
 * after the rule was made. Each run is one transaction: the period is claimed by a conditional UPDATE of
 * `last_period` (two processes, or a run after a restart, find nothing left to claim; the unique (rule, period) of
 * the 2D transactions holds it too), the source account's row is locked, the amount is worked out from the balance
 * as it is then (a percentage rounded down to the cent), and the 2D transaction and its money are written. A run
 * that cannot move money is recorded too: rejected for an inactive company, failed for an empty or short balance.
 * A period missed while the server was down runs once when it is back; periods further back are not made up.
 * Answers how many runs were recorded.
 */
export async function runDueRules(deps: Deps, now = new Date()): Promise<number> {
  const active = await deps.db.select().from(accountingRules).where(eq(accountingRules.status, 1)).limit(5000);
  let ran = 0;
  for (const rule of active) {
    const { period, dueAt } = latestDuePeriod(rule, now);
    if (dueAt < rule.createdAt) continue;
    if (rule.lastPeriod !== null && rule.lastPeriod >= period) continue;
    try {
      if (await runRule(deps, rule, period)) ran += 1;
    } catch (err) {
      deps.log.error({ err, rule: rule.id, period }, 'an accounting rule could not run; it is tried again next minute');
    }
  }
  return ran;
}

async function runRule(deps: Deps, rule: RuleDb, period: string): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(accountingRules)
      .set({ lastPeriod: period })
      .where(
        and(
          eq(accountingRules.id, rule.id),
          eq(accountingRules.status, 1),
          sql`(${accountingRules.lastPeriod} IS NULL OR ${accountingRules.lastPeriod} < ${period})`,
        ),
      )
      .returning();
    if (!claimed) return false;
    // an active company is held under a share lock for the run (a deactivation waits); an inactive one is read
    const company =
      (await lockActiveCompany(tx, claimed.companyId)) ??
      (await tx.select().from(companies).where(eq(companies.id, claimed.companyId)))[0];
    const list = await accountsOfCompany(tx, company.id);
    const source = list.find((a) => a.id === claimed.accountId)!;
    const target = claimed.toAccountId ? (list.find((a) => a.id === claimed.toAccountId) ?? null) : null;
    const [beneficiary] = claimed.beneficiaryId
      ? await tx.select().from(companyBeneficiaries).where(eq(companyBeneficiaries.id, claimed.beneficiaryId))
      : [];
    const to = beneficiary
      ? { name: beneficiary.name, iban: beneficiary.iban, bic: beneficiary.bic }
      : { name: `${company.name} ${target!.name}`, iban: target!.iban, bic: target!.bic };
    // the balance as it is now, held until the run commits
    const balance = await lockedBalance(tx, source.ledgerAccountId);
    const amount = claimed.percentage ? percentageOf(Number(balance), Number(claimed.amount)) : Number(claimed.amount);
    const base = {
      companyId: company.id,
      companyName: company.name,
      ruleId: claimed.id,
      ruleName: claimed.ruleName,
      ruleType: claimed.percentage ? 'Percentage' : 'Amount',
      period,
      sourceAccountId: source.id,
      accountCode: source.providerAccountId,
      transferType: claimed.transferType,
      beneficiaryName: to.name,
      iban: to.iban,
      bic: to.bic,
      currency: source.currency,
      transferBy: 'Scheduler',
      description: claimed.reference,
      idempotencyKey: `${ACCOUNTING_KEY_PREFIX}rule:${claimed.id}:${period}`,
    };
    const refusal =
      company.status !== 1
        ? { status: 'rejected', reason: ACCOUNTING_MSG.companyInactive }
        : amount <= 0
          ? { status: 'failed', reason: 'The account has no balance to transfer' }
          : amount > Number(balance)
            ? { status: 'failed', reason: 'Insufficient balance' }
            : null;
    if (refusal) {
      await tx
        .insert(accountingTransactions)
        .values({ ...base, amount: Math.max(0, amount), ...refusal, settledAt: new Date() });
      return true;
    }
    await recordAccountingTransaction(tx, deps, {
      companyId: company.id,
      companyName: company.name,
      source: { ...source, balance: Number(balance) },
      target,
      to,
      transferType: claimed.transferType as 'external_transfer' | 'internal_transfer',
      amount,
      description: claimed.reference,
      transferBy: 'Scheduler',
      createdBy: null,
      idempotencyKey: base.idempotencyKey,
      rule: { id: claimed.id, name: claimed.ruleName, type: claimed.percentage ? 'Percentage' : 'Amount', period },
    });
    return true;
  });
}
