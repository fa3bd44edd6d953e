import type {
  CompletedListResponse,
  CompletedRow,
  HistoryResponse,
  HistoryRow,
  PayoutListResponse,
  PayoutRow,
  PayoutStatus,
  TransactionDetails,
} from '@obol/contract';
import { formatCents, TRX_MSG } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { Scope } from '../../platform/scope.ts';
import { findBatchInScope } from '../batches/service.ts';
import {
  completedWhere,
  countQuery,
  decodeCursor,
  encodeCursor,
  pageQuery,
  PAYOUT_COLUMNS,
  PAYOUT_JOINS,
  payoutScope,
  payoutWhere,
  type CompletedFilters,
  type Cursor,
  type Direction,
  type PayoutDbRow,
  type PayoutFilters,
} from './query.ts';

const iso = (v: Date | string) => new Date(v).toISOString();

export function toPayoutRow(r: PayoutDbRow): PayoutRow {
  return {
    id: Number(r.id),
    beneficiary_name: r.beneficiary_name,
    brand: r.brand,
    behalf_of: r.behalf_of,
    uploaded_by: r.uploaded_by,
    account_used: r.account_used,
    merchant_transaction_id: r.merchant_transaction_id,
    intergiro_trx_id: r.provider_id,
    reference: r.reference,
    account_id: r.obol_id,
    batch_id: r.batch_id,
    currency: r.currency,
    amount: Number(r.amount),
    fee: Number(r.fee),
    status: r.status as PayoutStatus,
    updated_at: iso(r.updated_at),
  };
}

export interface Paging {
  page: number;
  perPage: number;
  /** the cursor of the previous page's last row, when the client steps forward one page */
  cursor?: string;
}

function resolveCursor(p: Paging): Cursor | null {
  if (!p.cursor) return null;
  const c = decodeCursor(p.cursor);
  if (!c) throw new ApiError(400, ['cursor is not valid'], { cursor: ['cursor is not valid'] });
  return c;
}

async function pageOf(db: Executor, where: SQL, dir: Direction, p: Paging) {
  const cursor = resolveCursor(p);
  const [rows, count] = await Promise.all([
    db.execute(pageQuery(where, dir, p.perPage, (p.page - 1) * p.perPage, cursor)),
    db.execute(countQuery(where)),
  ]);
  const data = rowsOf<PayoutDbRow>(rows);
  const last = data.at(-1);
  return {
    data,
    total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0),
    next_cursor: last ? encodeCursor({ updatedAt: last.updated_key, id: Number(last.id) }) : null,
  };
}

export async function listPayouts(
  db: Executor,
  scope: Scope,
  f: PayoutFilters,
  dir: Direction,
  p: Paging,
): Promise<PayoutListResponse & { next_cursor: string | null }> {
  const r = await pageOf(db, payoutWhere(scope, f), dir, p);
  return { transactions: { data: r.data.map(toPayoutRow), total: r.total }, next_cursor: r.next_cursor };
}

export async function listCompleted(
  db: Executor,
  scope: Scope,
  f: CompletedFilters,
  p: Paging,
): Promise<CompletedListResponse & { next_cursor: string | null }> {
  const where = completedWhere(scope, f);
  const [r, fees] = await Promise.all([pageOf(db, where, 'DESC', p), db.execute(feeTotalQuery(where))]);
  const cents = Number(rowsOf<{ total: number | string | null }>(fees)[0]?.total ?? 0);
  return {
    transactions: { data: r.data.map(toCompletedRow), total: r.total },
    fee: { total_eur_fee: formatCents(cents).replace(/,/g, ''), total_cent_fee: cents },
    next_cursor: r.next_cursor,
  };
}

export function toCompletedRow(r: PayoutDbRow): CompletedRow {
  return { ...toPayoutRow(r), batch_fee: r.batch_type === 'Batch Payout' ? Number(r.batch_fee) : 0 };
}

/**
 * The fees of the shown transactions: each payout's own fee (manual payouts), plus once the fee of every
 * uploaded batch that has a shown transaction (a batch fee is charged on the batch's summed amount; what its
 * failed payouts returned of it is not counted: the fee kept is the fee on what was paid).
 */
export const feeTotalQuery = (where: SQL) => sql`
  SELECT (SELECT coalesce(sum(p.fee), 0) FROM payouts p WHERE ${where} AND p.fee > 0)
       + (SELECT coalesce(sum(b.fee - b.fee_returned), 0) FROM batches b
          WHERE b.payout_type = 'Batch Payout' AND b.fee > b.fee_returned
            AND EXISTS (SELECT 1 FROM payouts p WHERE p.batch_id = b.batch_id AND ${where})) AS total`;

export async function transactionDetails(db: Executor, scope: Scope, id: number): Promise<TransactionDetails> {
  const res = await db.execute(
    sql`SELECT ${PAYOUT_COLUMNS} FROM payouts p ${PAYOUT_JOINS} WHERE p.id = ${id} AND ${payoutScope(scope)}`,
  );
  const r = rowsOf<PayoutDbRow>(res)[0];
  // another tenant's payout answers exactly as one that does not exist
  if (!r) throw notFound('Transaction not found');
  const row = toPayoutRow(r);
  return {
    id: row.id,
    merchant_transaction_id: row.merchant_transaction_id,
    intergiro_trx_id: row.intergiro_trx_id,
    beneficiary_name: row.beneficiary_name,
    brand: row.brand,
    account_id: row.account_id,
    reference: row.reference,
    currency: row.currency,
    amount: row.amount,
    status: row.status,
    batch_id: row.batch_id,
    updated_at: row.updated_at,
    failed_transaction: row.status === 'Failed' ? { message: r.failure_message ?? '' } : null,
  };
}

/** The brands the caller may filter by: every brand for staff, a merchant's own, a brand itself. */
export async function brandList(db: Executor, scope: Scope): Promise<{ brand: { id: number; name: string }[] }> {
  const where =
    scope.kind === 'all'
      ? sql`true`
      : scope.kind === 'merchant'
        ? sql`u.parent_id = ${scope.merchantId}`
        : scope.kind === 'brand'
          ? sql`u.id = ${scope.brandId}`
          : sql`false`;
  const res = await db.execute(sql`
    SELECT u.id, u.name FROM users u JOIN roles r ON r.id = u.role_id
    WHERE r.name = 'Brand' AND ${where} ORDER BY lower(u.name), u.id`);
  return { brand: rowsOf<{ id: number; name: string }>(res).map((b) => ({ id: Number(b.id), name: b.name })) };
}

// ---------- one batch's history ----------

export interface HistoryFilters {
  batch_id: string;
  status: '' | 'completed' | 'pending' | 'failed';
  min_amount: number | null;
  max_amount: number | null;
}

/**
 * The rows of a batch: its payouts once executed; before that, its staged rows (Pending, or Failed with the
 * reasons that keep them from being executed). 'pending' also holds payouts still with the provider (Processing).
 */
export function historySource(executed: boolean, f: HistoryFilters): SQL {
  if (executed) {
    const terms: SQL[] = [sql`p.batch_id = ${f.batch_id}`];
    if (f.status === 'completed') terms.push(sql`p.status = 'Completed'`);
    if (f.status === 'pending') terms.push(sql`p.status IN ('Pending', 'Processing')`);
    if (f.status === 'failed') terms.push(sql`p.status = 'Failed'`);
    if (f.min_amount !== null) terms.push(sql`p.amount >= ${f.min_amount}`);
    if (f.max_amount !== null) terms.push(sql`p.amount <= ${f.max_amount}`);
    return sql`SELECT p.id, p.beneficiary_name, p.obol_id AS account_id, p.provider_id AS intergiro_trx_id,
        p.merchant_transaction_id, p.brand, p.reference, p.currency, p.amount, p.status, p.updated_at,
        p.failure_message AS reason
      FROM payouts p WHERE ${sql.join(terms, sql` AND `)}`;
  }
  const terms: SQL[] = [sql`s.batch_id = ${f.batch_id}`];
  if (f.status === 'completed') terms.push(sql`false`);
  if (f.status === 'pending') terms.push(sql`s.status = 'Pending'`);
  if (f.status === 'failed') terms.push(sql`s.status = 'Failed'`);
  if (f.min_amount !== null) terms.push(sql`s.amount >= ${f.min_amount}`);
  if (f.max_amount !== null) terms.push(sql`s.amount <= ${f.max_amount}`);
  return sql`SELECT s.id, s.beneficiary_name, s.obol_id AS account_id, NULL::text AS intergiro_trx_id,
      s.merchant_transaction_id, s.brand, s.reference, 'EUR' AS currency, s.amount, s.status, b.updated_at,
      (SELECT string_agg(e.value, '; ' ORDER BY e.key) FROM jsonb_each_text(s.errors) e) AS reason
    FROM staged_transactions s JOIN batches b ON b.batch_id = s.batch_id
    WHERE ${sql.join(terms, sql` AND `)}`;
}
/** Staged rows are ordered as in the file; payouts by id (the file's order too). */
export const historyOrder = (executed: boolean) => (executed ? sql`id ASC` : sql`id ASC`);

interface HistoryDbRow {
  id: number | string;
  beneficiary_name: string;
  account_id: string;
  intergiro_trx_id: string | null;
  merchant_transaction_id: string;
  brand: string;
  reference: string;
  currency: string;
  amount: number | string | null;
  status: string;
  updated_at: Date | string;
  reason: string | null;
}
export function toHistoryRow(r: HistoryDbRow): HistoryRow {
  return {
    id: Number(r.id),
    beneficiary_name: r.beneficiary_name,
    account_id: r.account_id,
    intergiro_trx_id: r.intergiro_trx_id,
    merchant_transaction_id: r.merchant_transaction_id,
    brand: r.brand,
    reference: r.reference,
    currency: r.currency,
    amount: r.amount === null ? null : Number(r.amount),
    status: r.status as HistoryRow['status'],
    updated_at: iso(r.updated_at),
    failed_transaction: r.status === 'Failed' ? { message: r.reason ?? '' } : null,
  };
}

/** A batch whose history can be read: in scope, and not still being staged or executed (402, as the spec shows). */
export async function historyBatch(db: Executor, scope: Scope, batchId: string) {
  const b = await findBatchInScope(db, scope, batchId);
  if (b.status === 'Processing' && !b.executedAt) throw new ApiError(402, [TRX_MSG.batchProcessing]);
  const merchant = rowsOf<{ name: string }>(
    await db.execute(sql`SELECT name FROM users WHERE id = ${b.behalfOfId}`),
  )[0];
  return { batch: b, executed: b.executedAt !== null, merchantName: merchant?.name ?? '' };
}

export async function batchHistory(db: Executor, scope: Scope, f: HistoryFilters, p: Paging): Promise<HistoryResponse> {
  const { batch, executed, merchantName } = await historyBatch(db, scope, f.batch_id);
  const source = historySource(executed, f);
  const [rows, count] = await Promise.all([
    db.execute(
      sql`SELECT * FROM (${source}) h ORDER BY ${historyOrder(executed)} LIMIT ${p.perPage} OFFSET ${(p.page - 1) * p.perPage}`,
    ),
    db.execute(sql`SELECT count(*)::int AS total FROM (${source}) h`),
  ]);
  return {
    data: rowsOf<HistoryDbRow>(rows).map(toHistoryRow),
    total: Number(rowsOf<{ total: number }>(count)[0]?.total ?? 0),
    batch: {
      batch_id: batch.batchId,
      file_name: batch.fileName,
      batch_status: batch.status,
      merchant_name: merchantName,
    },
  };
}
