import type { PayinRow } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { escapeLike, rowsOf, type Executor } from '../../platform/db.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { badRequest } from '../../platform/errors.ts';
import type { Scope } from '../../platform/scope.ts';

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

function payinScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return sql`p.merchant_id = ${scope.merchantId}`;
    case 'brand':
      return sql`p.holder_id = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

/**
 * WHERE terms of the pay-in list: the caller's scope, the channel (Payin or CardEye), who requested it (CardEye, in
 * part), the status, the identifiers exactly (reference, request id,
 * account id), names in part and case-insensitively (merchant or brand, the payer's first, last or full name),
 * and the creation day range in the caller's time zone (one date is that day; a reversed range is reordered).
 */
export function payinWhere(scope: Scope, f: PayinFilters): SQL {
  const terms: SQL[] = [payinScope(scope), sql`p.channel = ${f.channel ?? 'Payin'}`];
  if (f.requested_by) terms.push(sql`p.requested_by ILIKE ${`%${escapeLike(f.requested_by)}%`}`);
  if (f.transaction_status) terms.push(sql`p.status = ${f.transaction_status}`);
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

/** One page (or export chunk) of pay-ins, newest or oldest first. */
export function payinListSql(where: SQL, dir: 'ASC' | 'DESC', limit: number, offset: number, after?: SQL): SQL {
  const order = dir === 'ASC' ? sql`p.created_at ASC, p.id ASC` : sql`p.created_at DESC, p.id DESC`;
  return sql`SELECT p.id, p.reference, p.merchant_name, p.brand_name, p.amount, p.currency, p.provider_id, p.channel,
      p.requested_by, p.status,
      p.link_status, p.reason, p.refund_status, p.first_name, p.last_name, p.date_of_birth::text AS date_of_birth, p.account_code,
      p.created_at, p.updated_at,
      to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_key
    FROM payins p
    WHERE ${where}${after ? sql` AND ${after}` : sql``}
    ORDER BY ${order}
    LIMIT ${limit} OFFSET ${offset}`;
}

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
  status: PayinRow['transaction_status'];
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
  transaction_status: r.status,
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

export async function listPayins(
  db: Executor,
  scope: Scope,
  q: PayinFilters & { sortby: 'ASC' | 'DESC'; page: number; per_page: number },
) {
  const where = payinWhere(scope, q);
  const [rows, counted] = await Promise.all([
    db.execute(payinListSql(where, q.sortby, q.per_page, (q.page - 1) * q.per_page)),
    db.execute(sql`SELECT count(*) AS total FROM payins p WHERE ${where}`),
  ]);
  return {
    data: rowsOf<PayinDbRow>(rows).map(toPayinRow),
    total: Number(rowsOf<{ total: number | string }>(counted)[0].total),
  };
}
