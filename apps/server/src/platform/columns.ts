import { bigint, bigserial, text, timestamp, type PgColumn } from 'drizzle-orm/pg-core';

// The column shapes many tables share, written once: ids, times, amounts, and the columns of money sent to the
// provider. Builders only: a table's own rules (checks, indexes, foreign keys) stay in its tables.ts.

/** A bigserial id, read as a number (ids stay far below 2^53). */
export const bigId = () => bigserial('id', { mode: 'number' }).primaryKey();

/** A bigint read as a number: amounts in cents, counts, references to bigserial ids. */
export const bigNumber = (name: string) => bigint(name, { mode: 'number' });

/** A time with its time zone: every time the schema keeps is one. */
export const moment = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was written: the database's now() unless the insert says otherwise. */
export const createdAt = () => moment('created_at').notNull().defaultNow();

/** When the row last changed: set by every update that changes it. */
export const updatedAt = () => moment('updated_at').notNull().defaultNow();

/** An amount in cents and its currency (EUR: the only one the provider pays in). */
export const money = () => ({
  amount: bigNumber('amount').notNull(),
  currency: text('currency').notNull().default('EUR'),
});

/** The bank account a transfer pays, as it was when the transfer was made. */
export const bankAccount = () => ({
  beneficiaryName: text('beneficiary_name').notNull(),
  iban: text('iban').notNull(),
  bic: text('bic').notNull(),
});

/**
 * Money sent to the provider under its own key (the provider sees it too, so a retry never pays twice): the
 * provider's id once sent, when it was sent and settled, and the row's own times.
 */
export const providerMovement = () => ({
  idempotencyKey: text('idempotency_key').notNull(),
  providerId: text('provider_id'),
  submittedAt: moment('submitted_at'),
  settledAt: moment('settled_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** What sending a row with the providerMovement() columns sets besides its provider id. */
export const sentTimes = () => ({ submittedAt: new Date(), updatedAt: new Date() });

/**
 * The columns the money engine names a movement's rows by (engine/movement.ts, `columns`): by default those of
 * providerMovement() and the table's id and status; `own` names the table's own where they differ.
 */
export const movementColumns = (
  t: { id: PgColumn; status: PgColumn; idempotencyKey: PgColumn; providerId: PgColumn; createdAt: PgColumn },
  own: { status?: PgColumn; key?: PgColumn; since?: PgColumn } = {},
) => ({
  id: t.id,
  status: own.status ?? t.status,
  key: own.key ?? t.idempotencyKey,
  providerId: t.providerId,
  since: own.since ?? t.createdAt,
});
