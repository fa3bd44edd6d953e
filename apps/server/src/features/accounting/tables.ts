import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { bigId, bigNumber, moment, createdAt, money, bankAccount, providerMovement } from '../../platform/columns.ts';
import { accounts } from '../ledger/tables.ts';
import { users } from '../users/tables.ts';
import { statusCheck } from '../engine/status.ts';

/**
 * A company of the accounting module (2D): registered with its API key at the provider (kept encrypted; a hash
 * keeps one registration per key), inactive until the holder of its bank accounts approves the account access
 * (the consent link mailed to the company's e-mail), and then active unless deactivated.
 */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    apiKeyEnc: text('api_key_enc').notNull(),
    apiKeyHash: text('api_key_hash').notNull(),
    /** 1 active, 0 inactive */
    status: integer('status').notNull().default(0),
    /** Pending until the account holder approves the account access, then Approved */
    consent: text('consent').notNull().default('Pending'),
    consentTokenHash: text('consent_token_hash'),
    consentExpiresAt: moment('consent_expires_at'),
    consentedAt: moment('consented_at'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('companies_api_key_hash_key').on(t.apiKeyHash),
    uniqueIndex('companies_consent_token_key').on(t.consentTokenHash),
    index('companies_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('companies_status_known', sql`${t.status} IN (0, 1)`),
    check('companies_consent_known', sql`${t.consent} IN ('Pending', 'Approved')`),
    // only a company whose holder approved the access can be active
    check('companies_active_needs_consent', sql`${t.status} = 0 OR ${t.consent} = 'Approved'`),
  ],
);

/** A bank account of a company at the provider, and the ledger account that holds its money here. */
export const companyAccounts = pgTable(
  'company_accounts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** the provider's account id */
    providerAccountId: text('provider_account_id').notNull(),
    name: text('name').notNull(),
    iban: text('iban').notNull(),
    bic: text('bic').notNull(),
    currency: text('currency').notNull().default('EUR'),
    ledgerAccountId: integer('ledger_account_id')
      .notNull()
      .references(() => accounts.id),
  },
  (t) => [
    uniqueIndex('company_accounts_provider_key').on(t.companyId, t.providerAccountId),
    uniqueIndex('company_accounts_ledger_key').on(t.ledgerAccountId),
  ],
);

/** A company's saved external beneficiary, as the provider listed it when the access was approved. */
export const companyBeneficiaries = pgTable(
  'company_beneficiaries',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    providerBeneficiaryId: text('provider_beneficiary_id').notNull(),
    name: text('name').notNull(),
    iban: text('iban').notNull(),
    bic: text('bic').notNull(),
  },
  (t) => [uniqueIndex('company_beneficiaries_provider_key').on(t.companyId, t.providerBeneficiaryId)],
);

/**
 * A scheduled rule: a percentage of the balance daily at a UTC time, or an amount daily, weekly or monthly at
 * 00:00 UTC, from one company account to a beneficiary (external) or to another account of the company
 * (internal). `last_period` is the due date (YYYY-MM-DD) of the last period claimed: a run claims its period by
 * moving it forward in the transaction that records the run.
 */
export const accountingRules = pgTable(
  'accounting_rules',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    ruleName: text('rule_name').notNull(),
    reference: text('reference').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => companyAccounts.id),
    transferType: text('transfer_type').notNull(),
    /** external: the company's beneficiary; internal: null (the target account is `to_account_id`) */
    beneficiaryId: integer('beneficiary_id').references(() => companyBeneficiaries.id),
    toAccountId: integer('to_account_id').references(() => companyAccounts.id),
    percentage: boolean('percentage').notNull(),
    /** cents (amount rule) or basis points (percentage rule) */
    amount: bigNumber('amount').notNull(),
    /** HH:MM UTC */
    interval: text('interval').notNull(),
    intervalType: text('interval_type').notNull(),
    intervalDay: text('interval_day'),
    /** 1 active, 0 inactive */
    status: integer('status').notNull().default(1),
    lastPeriod: text('last_period'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('accounting_rules_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check('accounting_rules_amount_positive', sql`${t.amount} > 0`),
    check('accounting_rules_percentage_max', sql`NOT ${t.percentage} OR ${t.amount} <= 10000`),
    check('accounting_rules_status_known', sql`${t.status} IN (0, 1)`),
    check('accounting_rules_type_known', sql`${t.transferType} IN ('external_transfer', 'internal_transfer')`),
    check('accounting_rules_interval_known', sql`${t.intervalType} IN ('daily', 'weekly', 'monthly')`),
    check(
      'accounting_rules_target',
      sql`(${t.transferType} = 'external_transfer' AND ${t.beneficiaryId} IS NOT NULL) OR (${t.transferType} = 'internal_transfer' AND ${t.toAccountId} IS NOT NULL)`,
    ),
  ],
);

/**
 * A 2D transaction: a transfer made by hand (2D Payments) or a rule's run. An external one is reserved from the
 * company account and sent to the provider (PENDING until settled: COMPLETED, or FAILED with the money returned);
 * an internal one moves between two accounts of the company at once (COMPLETED). A run that could not move money
 * is recorded FAILED (or REJECTED for an inactive company) with its reason. (rule_id, period) is unique: a rule
 * runs at most once per period, whatever the processes and restarts.
 */
export const accountingTransactions = pgTable(
  'accounting_transactions',
  {
    id: bigId(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    companyName: text('company_name').notNull(),
    /** kept without a foreign key: a deleted rule's runs stay */
    ruleId: integer('rule_id'),
    ruleName: text('rule_name'),
    /** Amount, Percentage or Manual */
    ruleType: text('rule_type').notNull(),
    period: text('period'),
    sourceAccountId: integer('source_account_id')
      .notNull()
      .references(() => companyAccounts.id),
    accountCode: text('account_code').notNull(),
    transferType: text('transfer_type').notNull(),
    ...bankAccount(),
    ...money(),
    transferBy: text('transfer_by').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    /** held, in_flight, completed, failed, rejected, refunded (engine/status.ts: the screen's PENDING_APPROVAL...) */
    status: text('status').notNull(),
    reason: text('reason'),
    description: text('description').notNull().default(''),
    ...providerMovement(),
  },
  (t) => [
    uniqueIndex('accounting_transactions_idempotency_key').on(t.idempotencyKey),
    uniqueIndex('accounting_transactions_rule_period_key').on(t.ruleId, t.period),
    index('accounting_transactions_created_idx').on(t.createdAt.desc(), t.id.desc()),
    index('accounting_transactions_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'in_flight'`),
    check('accounting_transactions_amount', sql`${t.amount} >= 0`),
    check('accounting_transactions_status_known', statusCheck('2d', t.status)),
  ],
);
