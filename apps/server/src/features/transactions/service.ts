import type {
  BrandListResponse,
  CompletedListResponse,
  CompletedRow,
  PayoutListResponse,
  PayoutRow,
  PayoutStatus,
  TransactionDetails,
} from '@obol/contract';
import { EXACT_TOTAL_UP_TO, formatCents, PAGE_SIZES } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { sha256 } from '../../platform/crypto.ts';
import { pgDialect, rowsOf, type Executor } from '../../platform/db.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { Scope } from '../../platform/scope.ts';
import { executeNamed } from '../../platform/statements.ts';
import {
  boundedCountQuery,
  completedFilters,
  completedWhere,
  decodeCursor,
  encodeCursor,
  estimateQuery,
  pageQuery,
  PAYOUT_COLUMNS,
  PAYOUT_JOINS,
  payoutFilters,
  payoutScope,
  payoutWhere,
  planRows,
  type CompletedFilters,
  type Cursor,
  type Direction,
  type PayoutDbRow,
  type PayoutFilters,
} from './query.ts';
import { wordOf } from '../engine/status.ts';

export const iso = (v: Date | string) => new Date(v).toISOString();

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
    status: wordOf('payout', r.status) as PayoutStatus,
    updated_at: iso(r.updated_at),
  };
}

export interface Paging {
  page: number;
  perPage: number;
  /** next_cursor of the page before, when the client steps forward one page */
  cursor?: string;
  /** prev_cursor of the page after, when the client steps back one page */
  prevCursor?: string;
}

function readCursor(field: 'cursor' | 'prev_cursor', value: string | undefined): Cursor | null {
  if (!value) return null;
  const c = decodeCursor(value);
  if (!c) throw new ApiError(400, ['cursor is not valid'], { [field]: ['cursor is not valid'] });
  return c;
}

const BOTH_CURSORS = 'Send cursor or prev_cursor, not both';

/** Where the page starts: after a cursor, before one, or at OFFSET (page - 1) * perPage. */
function resolvePosition(p: Paging): { cursor: Cursor | null; before: boolean } {
  const next = readCursor('cursor', p.cursor);
  const prev = readCursor('prev_cursor', p.prevCursor);
  if (next && prev) throw new ApiError(400, [BOTH_CURSORS], { prev_cursor: [BOTH_CURSORS] });
  return prev ? { cursor: prev, before: true } : { cursor: next, before: false };
}

export interface Total {
  total: number;
  /** true when `total` is the planner's estimate (more than EXACT_TOTAL_UP_TO rows) */
  estimated: boolean;
}

/** Above this estimate a list is not counted at all: reading even EXACT_TOTAL_UP_TO rows buys nothing shown. */
const SURELY_LARGE = EXACT_TOTAL_UP_TO * 10;

/**
 * The rows `where` selects, as cheaply as it can be known exactly enough:
 * - the page itself tells when it is the last one (a page read by offset that came back short: offset + rows);
 * - the planner's estimate (no row read) answers when it is far above EXACT_TOTAL_UP_TO;
 * - a count of the same filter found more than EXACT_TOTAL_UP_TO rows less than ESTIMATE_KEPT_MS ago: the estimate
 *   answers, at least EXACT_TOTAL_UP_TO + 1 (what is shown above the cap is an estimate anyway);
 * - otherwise a count that stops after EXACT_TOTAL_UP_TO + 1 rows: exact up to there, above it the larger of
 *   what was counted and the estimate.
 * The count never reads more than EXACT_TOTAL_UP_TO + 1 rows, so its cost does not grow with the table.
 * `counting` is that count when it came with the page's rows; otherwise it is run here if needed.
 */
export async function totalOf(
  db: Executor,
  where: SQL,
  shortPage: number | null,
  estimate: Estimate,
  counting: Promise<number> | null = null,
): Promise<Total> {
  if (shortPage !== null) return { total: shortPage, estimated: false };
  if (estimate.rows > SURELY_LARGE) return { total: estimate.rows, estimated: true };
  if (estimate.aboveCap) return { total: Math.max(EXACT_TOTAL_UP_TO + 1, estimate.rows), estimated: true };
  const counted = await (counting ?? boundedCount(db, where));
  if (counted <= EXACT_TOTAL_UP_TO) return { total: counted, estimated: false };
  estimate.foundAboveCap();
  return { total: Math.max(counted, estimate.rows), estimated: true };
}

const boundedCount = async (db: Executor, where: SQL) =>
  Number(rowsOf<{ total: number }>(await db.execute(boundedCountQuery(where)))[0]?.total ?? 0);

/** How long the planner's estimate of one filter is kept, and how many filters are kept per database. */
const ESTIMATE_KEPT_MS = 10_000;
const ESTIMATES_KEPT = 500;
interface Kept {
  rows: number;
  at: number;
  /** when a count of this filter last found more than EXACT_TOTAL_UP_TO rows */
  aboveCapAt?: number;
}
const estimates = new WeakMap<Executor, Map<string, Kept>>();

/** The planner's estimate of a filter's rows, and whether a recent count found the filter above the cap. */
export interface Estimate {
  rows: number;
  /** a count of this filter found more than EXACT_TOTAL_UP_TO rows less than ESTIMATE_KEPT_MS ago */
  aboveCap: boolean;
  /** to be called when a count finds more than EXACT_TOTAL_UP_TO rows */
  foundAboveCap(): void;
}

/**
 * The planner's estimate of the rows `where` selects, kept ESTIMATE_KEPT_MS per filter (and per tenant: the scope
 * is in `where`): an estimate is approximate anyway, and paging through a list asks for the same one page after
 * page. Kept with it for as long: that a count found the filter above EXACT_TOTAL_UP_TO, the one fact a list
 * above the cap needs (its total is shown as an estimate). What is shown exactly (a count up to
 * EXACT_TOTAL_UP_TO, the rows) is never kept.
 */
async function estimateOf(db: Executor, where: SQL): Promise<Estimate> {
  const query = estimateQuery(where);
  const { sql: text, params } = pgDialect.sqlToQuery(query);
  const key = `${text}\u0000${JSON.stringify(params)}`;
  let kept = estimates.get(db);
  if (!kept) estimates.set(db, (kept = new Map()));
  const now = Date.now();
  let hit = kept.get(key);
  if (!hit || now - hit.at >= ESTIMATE_KEPT_MS) {
    const rows = planRows(rowsOf<Record<string, unknown>>(await db.execute(query))[0]);
    const aboveCapAt = hit?.aboveCapAt;
    hit = { rows, at: now, aboveCapAt };
    kept.delete(key);
    kept.set(key, hit);
    // a Map iterates in insertion order: the first key is the oldest
    if (kept.size > ESTIMATES_KEPT) kept.delete(kept.keys().next().value!);
  }
  const entry = hit;
  return {
    rows: entry.rows,
    aboveCap: entry.aboveCapAt !== undefined && now - entry.aboveCapAt < ESTIMATE_KEPT_MS,
    foundAboveCap: () => {
      entry.aboveCapAt = Date.now();
    },
  };
}

const cursorOf = (r: PayoutDbRow | undefined) =>
  r ? encodeCursor({ updatedAt: r.updated_key, id: Number(r.id) }) : null;

/**
 * The page's statement runs prepared (planned once per connection: executeNamed) when the list has no filter, is
 * read from its start or a cursor and by one of the web's page sizes: the list everyone opens and pages through,
 * whose planning (the joins) cost more than its run. Its texts are few (scope kind, order, position, count, size).
 * A filtered list is planned for its values each time: a plan kept for one value can be slow for another.
 */
const preparedPage = (filtered: boolean, p: Paging, offset: number, cursor: Cursor | null) =>
  !filtered && (cursor !== null || offset === 0) && (PAGE_SIZES as readonly number[]).includes(p.perPage);

async function pageOf(db: Executor, where: SQL, dir: Direction, p: Paging, filtered: boolean) {
  const { cursor, before } = resolvePosition(p);
  const offset = (p.page - 1) * p.perPage;
  // the estimate is kept (estimateOf): it decides, before the page is read, whether the page's statement counts too
  const estimate = await estimateOf(db, where);
  const count = estimate.rows <= SURELY_LARGE && !estimate.aboveCap;
  const query = pageQuery(where, dir, p.perPage, offset, cursor, before, count);
  type Row = PayoutDbRow & { counted?: number };
  const data = preparedPage(filtered, p, offset, cursor)
    ? await executeNamed<Row>(db, `obol_page_${sha256(pgDialect.sqlToQuery(query).sql).slice(0, 24)}`, query)
    : rowsOf<Row>(await db.execute(query));
  // a page read by offset that is not full is the last one (an empty one says so only as page 1)
  const short = !cursor && data.length < p.perPage && (data.length > 0 || offset === 0) ? offset + data.length : null;
  // the count came with the rows; an empty page past the end counts on its own
  const counted = count && data.length ? Promise.resolve(Number(data[0].counted)) : null;
  const total = await totalOf(db, where, short, estimate, counted);
  return { data, total, next_cursor: cursorOf(data.at(-1)), prev_cursor: cursorOf(data[0]) };
}

export async function listPayouts(
  db: Executor,
  scope: Scope,
  f: PayoutFilters,
  dir: Direction,
  p: Paging,
): Promise<PayoutListResponse> {
  const r = await pageOf(db, payoutWhere(scope, f), dir, p, payoutFilters(f).length > 0);
  return {
    transactions: { data: r.data.map(toPayoutRow), total: r.total.total, total_estimated: r.total.estimated },
    next_cursor: r.next_cursor,
    prev_cursor: r.prev_cursor,
  };
}

export async function listCompleted(
  db: Executor,
  scope: Scope,
  f: CompletedFilters,
  p: Paging,
): Promise<CompletedListResponse> {
  const where = completedWhere(scope, f);
  const filtered = completedFilters(f).length > 0;
  const [r, fees] = await Promise.all([pageOf(db, where, 'DESC', p, filtered), db.execute(feeTotalQuery(where))]);
  const cents = Number(rowsOf<{ total: number | string | null }>(fees)[0]?.total ?? 0);
  return {
    transactions: { data: r.data.map(toCompletedRow), total: r.total.total, total_estimated: r.total.estimated },
    fee: { total_eur_fee: formatCents(cents).replace(/,/g, ''), total_cent_fee: cents },
    next_cursor: r.next_cursor,
    prev_cursor: r.prev_cursor,
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
export async function brandList(db: Executor, scope: Scope): Promise<BrandListResponse> {
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
