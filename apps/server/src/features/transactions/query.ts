import { EXACT_TOTAL_UP_TO, isCalendarDate, TRX_MSG } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { escapeLike } from '../../platform/db.ts';
import { badRequest } from '../../platform/errors.ts';
import { dayRange, today } from '../../platform/dates.ts';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { statusFilter } from '../engine/status.ts';

/**
 * The SQL of the payout lists (payout transactions, completed transactions, one batch's history) and their
 * exports. A list and its export share one filter builder, so an export holds exactly what the list shows.
 * Paging is by OFFSET for a jump to any page, and by keyset (a cursor of a row's updated_at and id) when the
 * client steps to the next or the previous page, which stays fast at any depth. Totals are exact up to
 * EXACT_TOTAL_UP_TO rows and the planner's estimate above (docs/decisions/022-list-paging-and-totals.md).
 */

const contains = (s: string) => `%${escapeLike(s)}%`;

/** Payouts the caller may see: staff all, a merchant (and its team) its own, a brand those made on its behalf. */
export const payoutScope = (scope: Scope): SQL => tenantFilter(scope, sql`p.merchant_id`, sql`p.behalf_of_id`);

export interface DateFilter {
  start_date: string;
  end_date: string;
  tz: string;
}

/**
 * The updated_at bounds of a day range in the user's time zone; one date means that day; reversed ranges are
 * reordered.
 */
export function dateBounds(f: DateFilter): SQL[] {
  if (!f.start_date && !f.end_date) return [];
  const now = today(f.tz);
  for (const field of ['start_date', 'end_date'] as const)
    if (f[field] && f[field] > now) throw badRequest(TRX_MSG.dateFuture, field);
  let a = f.start_date || f.end_date;
  let b = f.end_date || f.start_date;
  if (!a || !b) return [];
  if (a > b) [a, b] = [b, a];
  const { from, to } = dayRange(a, b, f.tz);
  return [
    sql`p.updated_at >= ${from.toISOString()}::timestamptz`,
    sql`p.updated_at < ${to.toISOString()}::timestamptz`,
  ];
}

export interface PayoutFilters extends DateFilter {
  status: string;
  beneficiary_name: string;
  brand: string;
  behalf_of: string;
  uploaded_by: string;
  account_used: string;
  merchant_id: string;
  intergiro_trx_id: string;
  reference: string;
  obol_id: string;
  amount: number | null;
}

/**
 * WHERE terms of the payout list: the caller's scope and the filters (payoutFilters).
 */
export const payoutWhere = (scope: Scope, f: PayoutFilters): SQL =>
  sql.join([payoutScope(scope), ...payoutFilters(f)], sql` AND `);

/**
 * The payout list's filters that are set, as WHERE terms. Identifiers (merchant transaction id, provider id,
 * reference, wallet id) match exactly; names match a part, case-insensitively; brand matches exactly (it comes from
 * the brand list). Name filters on the uploader, the holder and the account test joined rows through EXISTS, so the
 * page's walk needs no join until it fetches its rows.
 */
export function payoutFilters(f: PayoutFilters): SQL[] {
  const terms: SQL[] = [];
  if (f.status) terms.push(sql`p.status = ${statusFilter('payout', f.status)}`);
  if (f.beneficiary_name) terms.push(sql`p.beneficiary_name ILIKE ${contains(f.beneficiary_name)}`);
  if (f.brand) terms.push(sql`p.brand = ${f.brand}`);
  if (f.behalf_of)
    terms.push(
      sql`EXISTS (SELECT 1 FROM users x WHERE x.id = p.behalf_of_id AND x.name ILIKE ${contains(f.behalf_of)})`,
    );
  if (f.uploaded_by)
    terms.push(
      sql`EXISTS (SELECT 1 FROM users x WHERE x.id = p.created_by AND x.name ILIKE ${contains(f.uploaded_by)})`,
    );
  if (f.account_used)
    terms.push(
      sql`EXISTS (SELECT 1 FROM accounts x WHERE x.id = p.account_id AND (x.name ILIKE ${contains(f.account_used)} OR x.account_id = ${f.account_used}))`,
    );
  if (f.merchant_id) terms.push(sql`p.merchant_transaction_id = ${f.merchant_id}`);
  if (f.intergiro_trx_id) terms.push(sql`p.provider_id = ${f.intergiro_trx_id}`);
  if (f.reference) terms.push(sql`p.reference = ${f.reference}`);
  if (f.obol_id) terms.push(sql`p.obol_id = ${f.obol_id}`);
  if (f.amount !== null) terms.push(sql`p.amount = ${f.amount}`);
  terms.push(...dateBounds(f));
  return terms;
}

export interface CompletedFilters extends DateFilter {
  brand: string;
  batch_id: string;
}

/** WHERE terms of Completed Transactions: the caller's scope, Completed, and the filters (completedFilters). */
export const completedWhere = (scope: Scope, f: CompletedFilters): SQL =>
  sql.join([payoutScope(scope), sql`p.status = 'completed'`, ...completedFilters(f)], sql` AND `);

/** Completed Transactions' filters that are set, as WHERE terms. */
export function completedFilters(f: CompletedFilters): SQL[] {
  const terms: SQL[] = [];
  if (f.brand) terms.push(sql`p.brand = ${f.brand}`);
  if (f.batch_id) terms.push(sql`p.batch_id = ${f.batch_id}`);
  terms.push(...dateBounds(f));
  return terms;
}

export type Direction = 'DESC' | 'ASC';

/** A position in a list ordered by (updated_at, id): the last row of a page. */
export interface Cursor {
  updatedAt: string;
  id: number;
}
export const encodeCursor = (c: Cursor) => Buffer.from(`${c.updatedAt}|${c.id}`).toString('base64url');
/** updated_at as PostgreSQL writes it (`::text`), or in ISO form: a real day and time, an optional offset */
const CURSOR_TIME = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)?$/;
/**
 * The cursor back from the client, or null when it is not one we wrote. Strict, because its parts go into
 * the SQL as a timestamptz and an id: Date.parse would take 2026-02-30 or '1', which PostgreSQL refuses.
 */
export function decodeCursor(s: string): Cursor | null {
  const parts = Buffer.from(s, 'base64url').toString().split('|');
  if (parts.length !== 2) return null;
  const [updatedAt, id] = parts;
  const time = CURSOR_TIME.exec(updatedAt);
  if (!time || !isCalendarDate(time[1]) || !/^\d{1,15}$/.test(id)) return null;
  return { updatedAt, id: Number(id) };
}
export function afterCursor(c: Cursor | null, dir: Direction): SQL {
  if (!c) return sql`true`;
  return dir === 'DESC'
    ? sql`(p.updated_at, p.id) < (${c.updatedAt}::timestamptz, ${c.id})`
    : sql`(p.updated_at, p.id) > (${c.updatedAt}::timestamptz, ${c.id})`;
}
/**
 * The list's order, written as the (updated_at DESC NULLS LAST, id DESC NULLS LAST) indexes are (forwards for
 * DESC, backwards for ASC). Both columns are NOT NULL, so the NULLS clause changes no result; without it the
 * planner cannot walk those indexes in order (plain DESC means NULLS FIRST) and sorts every selected row to
 * find one page: a staff page 1 over 100,000 payouts took 20 ms instead of well under one.
 */
export const orderBy = (dir: Direction) =>
  dir === 'DESC'
    ? sql`p.updated_at DESC NULLS LAST, p.id DESC NULLS LAST`
    : sql`p.updated_at ASC NULLS FIRST, p.id ASC NULLS FIRST`;
const reverse = (dir: Direction): Direction => (dir === 'DESC' ? 'ASC' : 'DESC');

/** The columns of a payout row as the lists and exports show them, over PAYOUT_JOINS. */
export const PAYOUT_COLUMNS = sql`p.id, p.beneficiary_name, p.brand,
  hb.name AS behalf_of, hu.name AS uploaded_by, ha.name AS account_used, p.merchant_transaction_id,
  p.provider_id, p.reference, p.obol_id, p.batch_id,
  p.currency, p.amount, p.fee, p.status, p.updated_at, p.updated_at::text AS updated_key, p.failure_message,
  coalesce(hbt.fee - hbt.fee_returned, 0) AS batch_fee, hbt.payout_type AS batch_type`;
/** Each payout's names (behalf of, uploaded by, account used) and its batch, joined once. */
export const PAYOUT_JOINS = sql`JOIN users hb ON hb.id = p.behalf_of_id
  JOIN users hu ON hu.id = p.created_by
  JOIN accounts ha ON ha.id = p.account_id
  LEFT JOIN batches hbt ON hbt.batch_id = p.batch_id`;

export interface PayoutDbRow {
  id: number | string;
  beneficiary_name: string;
  brand: string;
  behalf_of: string;
  uploaded_by: string;
  account_used: string;
  merchant_transaction_id: string;
  provider_id: string | null;
  reference: string;
  obol_id: string;
  batch_id: string | null;
  currency: string;
  amount: number | string;
  fee: number | string;
  status: string;
  updated_at: Date | string;
  updated_key: string;
  failure_message: string | null;
  batch_fee: number | string;
  batch_type: string | null;
}

/**
 * One page of rows: the ids are found on payouts alone (an index walk), then each row is joined by its primary key
 * with its names (behalf of, uploaded by, account used) and its batch, each joined once (LATERAL keeps the planner
 * from hashing a whole table).
 * With a cursor the page starts after it; with `before` true it is the page that ends just before the cursor
 * (read backwards on the same index, then turned round); without a cursor it starts at OFFSET.
 * With `counted`, every row also carries `counted`: the rows `where` selects, counted up to EXACT_TOTAL_UP_TO + 1
 * (boundedCountQuery's count, run once by the same statement: one round trip for the page and its total).
 * LIMIT and OFFSET are written as numbers, not parameters: a statement prepared once (pageOf) then keeps a plan
 * made for its page's size; with a parameter PostgreSQL plans for a tenth of the table and keeps re-planning.
 */
export function pageQuery(
  where: SQL,
  dir: Direction,
  limit: number,
  offset: number,
  cursor: Cursor | null,
  before = false,
  counted = false,
): SQL {
  const walk = cursor && before ? reverse(dir) : dir;
  const outer = dir === 'DESC' ? sql`x.updated_at DESC, x.id DESC` : sql`x.updated_at ASC, x.id ASC`;
  const count = counted ? sql`, (${boundedCountQuery(where)}) AS counted` : sql``;
  return sql`WITH pg AS MATERIALIZED (
      SELECT p.id FROM payouts p WHERE ${where} AND ${afterCursor(cursor, walk)}
      ORDER BY ${orderBy(walk)} LIMIT ${wholeNumber(limit)} OFFSET ${wholeNumber(cursor ? 0 : offset)}
    )
    SELECT x.*${count} FROM pg CROSS JOIN LATERAL (
      SELECT ${PAYOUT_COLUMNS} FROM payouts p ${PAYOUT_JOINS} WHERE p.id = pg.id
    ) x
    ORDER BY ${outer}`;
}

/** A whole number written into a statement's text (never a value from outside unchecked: it must be one). */
function wholeNumber(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${n} is not a whole number`);
  return sql.raw(String(n));
}

export const countQuery = (where: SQL) => sql`SELECT count(*)::int AS total FROM payouts p WHERE ${where}`;

/**
 * The selected rows, counted up to `cap` + 1: a count above `cap` means "more than cap". A count reads every
 * row it counts (about 0.1 ms per 1,000 on PGlite; 115-257 ms for 1M), where a page reads its rows only.
 */
export const boundedCountQuery = (where: SQL, cap = EXACT_TOTAL_UP_TO) =>
  sql`SELECT count(*)::int AS total FROM (SELECT 1 FROM payouts p WHERE ${where} LIMIT ${wholeNumber(cap + 1)}) c`;

/** The planner's estimate of the selected rows (its statistics; no row is read). */
export const estimateQuery = (where: SQL) => sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM payouts p WHERE ${where}`;

/** 'Plan Rows' of an EXPLAIN (FORMAT JSON) answer row (parsed JSON on both engines; text tolerated). */
export function planRows(row: Record<string, unknown> | undefined): number {
  const raw = row?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan?: { 'Plan Rows'?: number } }[] | undefined;
  const n = Number(plan?.[0]?.Plan?.['Plan Rows']);
  return Number.isFinite(n) ? Math.round(n) : 0;
}

/** Per calendar day in `tz` and status: the count and the summed cents of the payouts `where` selects. */
export const volumeQuery = (where: SQL, tz: string) => sql`
  SELECT to_char((p.updated_at AT TIME ZONE ${tz})::date, 'YYYY-MM-DD') AS day, p.status,
    count(*)::int AS count, coalesce(sum(p.amount), 0)::bigint AS amount
  FROM payouts p WHERE ${where}
  GROUP BY 1, 2`;
