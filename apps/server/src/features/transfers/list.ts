import type { TransferRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { createdPageSql, listPage, type CreatedList, type ListDir } from '../../platform/lists.ts';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { statusFilter, wordOf } from '../engine/status.ts';

// ---- the list ----

/** the account's label, as a transfer's row shows it (the export writes the same) */
export const KIND_LABEL: Record<string, string> = { payout: 'Payout', payin: 'Payin', clp: 'CLP', fee: 'Fee Account' };

/** Transfers a scope may see: staff all; a merchant (team) its own and its brands'; a brand its own. */
export const transferScope = (scope: Scope): SQL => tenantFilter(scope, sql`t.merchant_id`, sql`t.holder_id`);

export function transferWhere(scope: Scope, f: { status: string }): SQL {
  const terms = [transferScope(scope)];
  if (f.status) terms.push(sql`t.status = ${statusFilter('transfer', f.status)}`);
  return sql.join(terms, sql` AND `);
}

/** The transfers list (names and account ids are kept with each transfer). */
const transferList: CreatedList = {
  alias: 't',
  from: sql`transfers t`,
  columns: sql`t.id, t.beneficiary_name, t.iban, t.bic, t.amount, t.currency, t.status, t.detail, t.message,
      t.account_kind, t.account_code, t.holder_name, t.created_by_name, t.created_at, t.updated_at`,
};

/** One page (or export chunk) of the list, newest or oldest first. */
export const listSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL): SQL =>
  createdPageSql(transferList, where, dir, limit, offset, after);

export interface TransferDbRow {
  id: number | string;
  beneficiary_name: string;
  iban: string;
  bic: string;
  amount: number | string;
  currency: string;
  /** the vocabulary's (engine/status.ts) */
  status: string;
  detail: string | null;
  message: string;
  account_kind: string;
  account_code: string;
  holder_name: string;
  created_by_name: string;
  created_at: string | Date;
  updated_at: string | Date;
  created_key: string;
}

const iso = (v: string | Date) => new Date(v).toISOString();
export const toTransferRow = (r: TransferDbRow): TransferRow => ({
  id: Number(r.id),
  beneficiary_name: r.beneficiary_name,
  iban: r.iban,
  bic: r.bic,
  amount: Number(r.amount),
  currency: r.currency,
  transfer_by: r.created_by_name,
  account_used: KIND_LABEL[r.account_kind] ?? r.account_kind,
  account_id: r.account_code,
  merchant_name: r.holder_name,
  status: wordOf('transfer', r.status) as TransferRow['status'],
  detail: r.detail,
  message: r.message,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listRows(db: Executor, where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number) {
  return rowsOf<TransferDbRow>(await db.execute(listSql(where, dir, limit, offset))).map(toTransferRow);
}

export function listTransfers(
  db: Executor,
  scope: Scope,
  q: { status: string; sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  return listPage(db, transferList, transferWhere(scope, q), q, toTransferRow);
}
