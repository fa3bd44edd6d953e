import type { RefundRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import { createdPageSql, listPage, type CreatedList, type ListDir } from '../../platform/lists.ts';
import type { Scope } from '../../platform/scope.ts';
import { createdBetween } from './list.ts';
import { statusFilter, wordOf } from '../engine/status.ts';

// ---- the refund list (/refund) and its export ----

export interface RefundFilters {
  transaction_status: string;
  transaction_type: string;
  batch_id: string;
  pay_in_reference: string;
  account_id: string;
  request_id: string;
  start_date: string;
  end_date: string;
  tz: string;
}

/**
 * WHERE terms of the refund list: the caller's scope (the refund's merchant, or a brand's own), the status, the
 * type (the refunded pay-in's channel: CardEye or Payin), identifiers exactly, and the creation day range in
 * the caller's time zone.
 */
export function refundWhere(scope: Scope, f: RefundFilters): SQL {
  const terms: SQL[] = [
    scope.kind === 'all'
      ? sql`true`
      : scope.kind === 'merchant'
        ? sql`r.merchant_id = ${scope.merchantId}`
        : scope.kind === 'brand'
          ? sql`r.holder_id = ${scope.brandId}`
          : sql`false`,
  ];
  if (f.transaction_status) terms.push(sql`r.status = ${statusFilter('refund', f.transaction_status)}`);
  if (f.transaction_type) terms.push(sql`p.channel = ${f.transaction_type}`);
  if (f.batch_id) terms.push(sql`r.provider_id = ${f.batch_id}`);
  if (f.pay_in_reference) terms.push(sql`p.reference = ${f.pay_in_reference}`);
  if (f.account_id) terms.push(sql`p.account_code = ${f.account_id}`);
  if (f.request_id) terms.push(sql`p.provider_id = ${f.request_id}`);
  terms.push(...createdBetween(sql`r.created_at`, f));
  return sql.join(terms, sql` AND `);
}

/** The refunds list: each refund with its pay-in. */
const refundList: CreatedList = {
  alias: 'r',
  from: sql`refunds r JOIN payins p ON p.id = r.payin_id`,
  columns: sql`r.id, r.provider_id AS batch_id, p.reference, p.merchant_name, p.brand_name, r.amount, p.currency,
      p.provider_id AS request_id, p.channel, r.status, r.reason, p.first_name, p.last_name,
      p.date_of_birth::text AS date_of_birth, p.account_code, r.created_at`,
};

/** One page (or export chunk) of the list, newest or oldest first. */
export const refundListSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL): SQL =>
  createdPageSql(refundList, where, dir, limit, offset, after);

export interface RefundDbRow {
  id: number | string;
  batch_id: string | null;
  reference: string;
  merchant_name: string;
  brand_name: string | null;
  amount: number | string;
  currency: string;
  request_id: string;
  channel: string;
  /** the vocabulary's (engine/status.ts) */
  status: string;
  reason: string | null;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  account_code: string;
  created_at: string | Date;
  created_key: string;
}

export const toRefundRow = (r: RefundDbRow): RefundRow => ({
  id: Number(r.id),
  batch_id: r.batch_id,
  payin_reference: r.reference,
  merchant_name: r.merchant_name,
  brand_name: r.brand_name,
  amount: Number(r.amount),
  currency: r.currency,
  request_id: r.request_id,
  transaction_type: r.channel,
  transaction_status: wordOf('refund', r.status) as RefundRow['transaction_status'],
  reason: r.reason,
  first_name: r.first_name,
  last_name: r.last_name,
  date_of_birth: r.date_of_birth,
  account_id: r.account_code,
  created_at: new Date(r.created_at).toISOString(),
});

export function listRefunds(
  db: Executor,
  scope: Scope,
  q: RefundFilters & { sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  return listPage(db, refundList, refundWhere(scope, q), q, toRefundRow);
}
