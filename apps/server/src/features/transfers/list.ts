import type { TransferRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';

// ---- the list ----

/** the account's label, as a transfer's row shows it (the export writes the same) */
export const KIND_LABEL: Record<string, string> = { payout: 'Payout', payin: 'Payin', clp: 'CLP', fee: 'Fee Account' };

/** Transfers a scope may see: staff all; a merchant (team) its own and its brands'; a brand its own. */
export function transferScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`t.merchant_id = ${scope.merchantId}`;
    case 'brand':
      return sql`t.holder_id = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

export function transferWhere(scope: Scope, f: { status: string }): SQL {
  const terms = [transferScope(scope)];
  if (f.status) terms.push(sql`t.status = ${f.status}`);
  return sql.join(terms, sql` AND `);
}

/** One page (or chunk) of transfers, newest or oldest first (names and account ids are kept with each transfer). */
export function listSql(where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number, after?: SQL): SQL {
  const order = dir === 'ASC' ? sql`t.created_at ASC, t.id ASC` : sql`t.created_at DESC, t.id DESC`;
  return sql`SELECT t.id, t.beneficiary_name, t.iban, t.bic, t.amount, t.currency, t.status, t.detail, t.message,
      t.account_kind, t.account_code, t.holder_name, t.created_by_name, t.created_at, t.updated_at,
      to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM transfers t
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

export interface TransferDbRow {
  id: number | string;
  beneficiary_name: string;
  iban: string;
  bic: string;
  amount: number | string;
  currency: string;
  status: TransferRow['status'];
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
  status: r.status,
  detail: r.detail,
  message: r.message,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export async function listRows(db: Executor, where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number) {
  return rowsOf<TransferDbRow>(await db.execute(listSql(where, dir, limit, offset))).map(toTransferRow);
}

export async function listTransfers(
  db: Executor,
  scope: Scope,
  q: { status: string; sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const where = transferWhere(scope, q);
  const [data, [{ total }]] = await Promise.all([
    listRows(db, where, q.sortby, q.per_page, (q.page - 1) * q.per_page),
    db
      .execute(sql`SELECT count(*) AS total FROM transfers t WHERE ${where}`)
      .then((r) => rowsOf<{ total: number | string }>(r)),
  ]);
  return { data, total: Number(total) };
}
