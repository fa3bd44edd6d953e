import type { AccountingTransaction } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { createdPageSql, listPage, type CreatedList, type ListDir } from '../../platform/lists.ts';
import { statusFilter, wordOf } from '../engine/status.ts';

/* The 2D transactions list (and its export's query). */

export function accountingWhere(f: { status: string; rule_type: '' | 0 | 1 }): SQL {
  const terms = [sql`true`];
  if (f.status) terms.push(sql`t.status = ${statusFilter('2d', f.status)}`);
  if (f.rule_type !== '') terms.push(sql`t.rule_type = ${f.rule_type === 1 ? 'Percentage' : 'Amount'}`);
  return sql.join(terms, sql` AND `);
}

/** The 2D transactions list: what a row shows. */
const accountingList: CreatedList = {
  alias: 't',
  from: sql`accounting_transactions t`,
  columns: sql`t.id, t.rule_id, t.rule_name, t.rule_type, t.company_name, t.beneficiary_name, t.iban, t.bic,
      t.amount, t.currency, t.transfer_by, t.account_code, t.status, t.reason, t.transfer_type, t.description,
      t.created_at`,
};

/** One page (or export chunk) of the list, newest or oldest first. */
export const accountingListSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL): SQL =>
  createdPageSql(accountingList, where, dir, limit, offset, after);

export interface AccountingDbRow {
  id: number | string;
  rule_id: number | null;
  rule_name: string | null;
  rule_type: string;
  company_name: string;
  beneficiary_name: string;
  iban: string;
  bic: string;
  amount: number | string;
  currency: string;
  transfer_by: string;
  account_code: string;
  /** the vocabulary's (engine/status.ts) */
  status: string;
  reason: string | null;
  transfer_type: AccountingTransaction['transfer_type'];
  description: string;
  created_at: string | Date;
}

export const toAccountingTransaction = (r: AccountingDbRow): AccountingTransaction => ({
  id: Number(r.id),
  rule_id: r.rule_id === null ? null : Number(r.rule_id),
  rule_name: r.rule_name ?? '-',
  rule_type: r.rule_type,
  company_name: r.company_name,
  beneficiary_name: r.beneficiary_name,
  iban: r.iban,
  bic: r.bic,
  amount: Number(r.amount),
  currency: r.currency,
  transfer_by: r.transfer_by,
  account_id: r.account_code,
  status: wordOf('2d', r.status) as AccountingTransaction['status'],
  reason: r.reason,
  transfer_type: r.transfer_type,
  description: r.description,
  created_at: new Date(r.created_at).toISOString(),
});

export async function listRows(db: Executor, where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number) {
  return rowsOf<AccountingDbRow>(await db.execute(accountingListSql(where, dir, limit, offset))).map(
    toAccountingTransaction,
  );
}

export async function listAccountingTransactions(
  db: Executor,
  q: { status: string; rule_type: '' | 0 | 1; sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const { data, total } = await listPage(db, accountingList, accountingWhere(q), q, toAccountingTransaction);
  return { transactions: data, total };
}
