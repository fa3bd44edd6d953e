import { TRX_MSG, type HistoryResponse, type HistoryRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Scope } from '../../platform/scope.ts';
import { findBatchInScope } from '../batches/service.ts';
import { stagedRangeOf } from '../batches/tables.ts';
import { iso, type Paging } from './service.ts';
import { wordSql } from '../engine/status.ts';

// One batch's history: its rows as the batch stands (staged, or executed), with their reasons.

export interface HistoryFilters {
  batch_id: string;
  status: '' | 'completed' | 'pending' | 'failed';
  min_amount: number | null;
  max_amount: number | null;
}

/**
 * The rows of a batch: its payouts once executed; before that, its staged rows (Pending, or Failed with the
 * reasons that keep them from being executed). 'pending' also holds payouts still with the provider (in flight).
 * Both answer the screen's words (a payout's status made here, engine/status.ts).
 */
export function historySource(executed: boolean, f: HistoryFilters): SQL {
  if (executed) {
    const terms: SQL[] = [sql`p.batch_id = ${f.batch_id}`];
    if (f.status === 'completed') terms.push(sql`p.status = 'completed'`);
    if (f.status === 'pending') terms.push(sql`p.status IN ('pending', 'in_flight')`);
    if (f.status === 'failed') terms.push(sql`p.status = 'failed'`);
    if (f.min_amount !== null) terms.push(sql`p.amount >= ${f.min_amount}`);
    if (f.max_amount !== null) terms.push(sql`p.amount <= ${f.max_amount}`);
    return sql`SELECT p.id, p.beneficiary_name, p.obol_id AS account_id, p.provider_id AS intergiro_trx_id,
        p.merchant_transaction_id, p.brand, p.reference, p.currency, p.amount,
        ${wordSql('payout', sql`p.status`)} AS status,
        p.updated_at,
        p.failure_message AS reason
      FROM payouts p WHERE ${sql.join(terms, sql` AND `)}`;
  }
  // the batch's rows: its range of staged ids, read in order by the primary key (stagedRangeOf)
  const terms: SQL[] = [stagedRangeOf(sql`s.id`, f.batch_id)];
  if (f.status === 'completed') terms.push(sql`false`);
  if (f.status === 'pending') terms.push(sql`s.status = 'Pending'`);
  if (f.status === 'failed') terms.push(sql`s.status = 'Failed'`);
  if (f.min_amount !== null) terms.push(sql`s.amount >= ${f.min_amount}`);
  if (f.max_amount !== null) terms.push(sql`s.amount <= ${f.max_amount}`);
  return sql`SELECT s.id, s.beneficiary_name, s.obol_id AS account_id, NULL::text AS intergiro_trx_id,
      s.merchant_transaction_id, s.brand, s.reference, 'EUR' AS currency, s.amount, s.status, b.updated_at,
      (SELECT string_agg(e.value, '; ' ORDER BY e.key) FROM jsonb_each_text(s.errors) e) AS reason
    FROM staged_transactions s CROSS JOIN (SELECT updated_at FROM batches WHERE batch_id = ${f.batch_id}) b
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
