import type { PayinRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { escapeLike, type Executor } from '../../platform/db.ts';
import { createdPageSql, listPage, type CreatedList, type ListDir } from '../../platform/lists.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { badRequest } from '../../platform/errors.ts';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { statusFilter, wordOf } from '../engine/status.ts';

// ---- the pay-in list (/payin) and its export ----

export interface PayinFilters {
  channel: 'Payin' | 'CardEye';
  requested_by: string;
  transaction_status: string;
  pay_in_reference: string;
  merchant_name: string;
  request_id: string;
  user_name: string;
  account_id: string;
  start_date: string;
  end_date: string;
  tz: string;
}

const payinScope = (scope: Scope): SQL => tenantFilter(scope, sql`p.merchant_id`, sql`p.holder_id`);

/**
 * WHERE terms of the pay-in list: the caller's scope, the channel (Payin or CardEye), who requested it (CardEye, in
 * part), the status, the identifiers exactly (reference, request id,
 * account id), names in part and case-insensitively (merchant or brand, the payer's first, last or full name),
 * and the creation day range in the caller's time zone (one date is that day; a reversed range is reordered).
 */
export function payinWhere(scope: Scope, f: PayinFilters): SQL {
  const terms: SQL[] = [payinScope(scope), sql`p.channel = ${f.channel ?? 'Payin'}`];
  if (f.requested_by) terms.push(sql`p.requested_by ILIKE ${`%${escapeLike(f.requested_by)}%`}`);
  if (f.transaction_status) terms.push(sql`p.status = ${statusFilter('payin', f.transaction_status)}`);
  if (f.pay_in_reference) terms.push(sql`p.reference = ${f.pay_in_reference}`);
  if (f.request_id) terms.push(sql`p.provider_id = ${f.request_id}`);
  if (f.account_id) terms.push(sql`p.account_code = ${f.account_id}`);
  if (f.merchant_name) {
    const like = `%${escapeLike(f.merchant_name)}%`;
    terms.push(sql`(p.merchant_name ILIKE ${like} OR p.brand_name ILIKE ${like})`);
  }
  if (f.user_name) {
    const like = `%${escapeLike(f.user_name)}%`;
    terms.push(sql`(p.first_name || ' ' || p.last_name) ILIKE ${like}`);
  }
  terms.push(...createdBetween(sql`p.created_at`, f));
  return sql.join(terms, sql` AND `);
}

/**
 * The bounds of a creation day range in the caller's time zone: one date is that day, a reversed range is
 * reordered, a date after today is refused (400 on its field).
 */
export function createdBetween(column: SQL, f: { start_date: string; end_date: string; tz: string }): SQL[] {
  const now = today(f.tz);
  for (const field of ['start_date', 'end_date'] as const)
    if (f[field] && f[field] > now) throw badRequest('Date must not be after today', field);
  let a = f.start_date || f.end_date;
  let b = f.end_date || f.start_date;
  if (!a || !b) return [];
  if (a > b) [a, b] = [b, a];
  const { from, to } = dayRange(a, b, f.tz);
  return [sql`${column} >= ${from.toISOString()}::timestamptz`, sql`${column} < ${to.toISOString()}::timestamptz`];
}

/** The pay-ins list: what a row shows. */
const payinList: CreatedList = {
  alias: 'p',
  from: sql`payins p`,
  columns: sql`p.id, p.reference, p.merchant_name, p.brand_name, p.amount, p.currency, p.provider_id, p.channel,
      p.requested_by, p.status, p.link_status, p.reason, p.refund_status,
      p.first_name, p.last_name, p.date_of_birth::text AS date_of_birth, p.account_code, p.created_at, p.updated_at`,
};

/** One page (or export chunk) of the list, newest or oldest first. */
export const payinListSql = (where: SQL, dir: ListDir, limit: number, offset: number, after?: SQL): SQL =>
  createdPageSql(payinList, where, dir, limit, offset, after);

export interface PayinDbRow {
  id: number | string;
  reference: string;
  merchant_name: string;
  brand_name: string | null;
  amount: number | string;
  currency: string;
  provider_id: string;
  channel: PayinRow['channel'];
  requested_by: string | null;
  /** the vocabulary's (engine/status.ts) */
  status: string;
  link_status: PayinRow['link_status'];
  reason: string | null;
  refund_status: number | null;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  account_code: string;
  created_at: string | Date;
  updated_at: string | Date;
  created_key: string;
}

const iso = (v: string | Date) => new Date(v).toISOString();
export const toPayinRow = (r: PayinDbRow): PayinRow => ({
  id: Number(r.id),
  pay_in_reference: r.reference,
  merchant_name: r.merchant_name,
  brand_name: r.brand_name,
  amount: Number(r.amount),
  currency: r.currency,
  request_id: r.provider_id,
  channel: r.channel,
  requested_by: r.requested_by,
  transaction_status: wordOf('payin', r.status) as PayinRow['transaction_status'],
  link_status: r.link_status,
  reason: r.reason,
  first_name: r.first_name,
  last_name: r.last_name,
  date_of_birth: r.date_of_birth,
  account_id: r.account_code,
  refund_status: r.refund_status,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export function listPayins(
  db: Executor,
  scope: Scope,
  q: PayinFilters & { sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  return listPage(db, payinList, payinWhere(scope, q), q, toPayinRow);
}
