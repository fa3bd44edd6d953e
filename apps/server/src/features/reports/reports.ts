import { sql, type SQL } from 'drizzle-orm';
import { type Scope, tenantFilter } from '../../platform/scope.ts';
import { defineExport } from '../downloads/exports.ts';
import { centsCell, columns, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { completedWhere, payoutScope } from '../transactions/query.ts';
import { both, bounds, num, params } from './params.ts';

/**
 * The reports of /generate-reports: each is an export (the same job, file store and download list) marked as a
 * report, read in one snapshot from the ledger and the payouts. A report is pulled for one merchant (with its
 * brands) or one brand, or for Select All (the activity report): every merchant and brand of the caller's scope.
 * The caller's scope is kept with the file and applies too, so a report never holds another tenant's rows.
 */

/** The holders' accounts a scope covers: a merchant's and its brands', a brand's own, or every holder's. */
function accountOwners(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`a.owner_id IS NOT NULL`;
    case 'merchant':
      return sql`a.owner_id IN (SELECT u.id FROM users u WHERE u.id = ${scope.merchantId} OR u.parent_id = ${scope.merchantId})`;
    case 'brand':
      return sql`a.owner_id = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

const ACCOUNT_LABEL: Record<string, string> = { payout: 'Payout', payin: 'Pay-in', clp: 'CLP' };

/**
 * Merchant activity: every posting on the holders' payout, pay-in and CLP accounts in the days, account by
 * account in time order, each with the balance after it (the balance before the first day, plus the postings up to
 * and including it, in the same order).
 */
export const ACTIVITY_REPORT = defineExport({
  kind: 'report_activity',
  fileName: 'merchant-activity-report',
  isReport: true,
  chunk: (caller, raw, cursor, limit) => {
    const [c, h] = both(caller, raw);
    const { from, to } = bounds(params(raw));
    const cur = cursor as { acc: number; at: string; id: number } | null;
    const after = cur ? sql`AND (m.acc, m.created_at, m.id) > (${cur.acc}, ${cur.at}::timestamptz, ${cur.id})` : sql``;
    return sql`
      WITH acc AS (
        SELECT a.id, a.account_id, a.kind, a.owner_id FROM accounts a
        WHERE a.kind IN ('payout', 'payin', 'clp') AND ${accountOwners(c)} AND ${accountOwners(h)}
      ),
      opening AS (
        SELECT o.account_id, sum(o.amount) AS amount FROM postings o
        WHERE o.account_id IN (SELECT id FROM acc) AND o.created_at < ${from.toISOString()}::timestamptz
        GROUP BY o.account_id
      ),
      m AS (
        SELECT p.id, p.account_id AS acc, p.created_at, p.amount, e.id AS entry_id, e.kind AS entry_kind, e.memo,
          e.business_type, e.business_id,
          coalesce(op.amount, 0) + sum(p.amount) OVER (PARTITION BY p.account_id ORDER BY p.created_at, p.id)
            AS balance_after
        FROM postings p
        JOIN journal_entries e ON e.id = p.entry_id
        LEFT JOIN opening op ON op.account_id = p.account_id
        WHERE p.account_id IN (SELECT id FROM acc)
          AND p.created_at >= ${from.toISOString()}::timestamptz AND p.created_at < ${to.toISOString()}::timestamptz
      )
      SELECT m.*, acc.account_id AS account_code, acc.kind AS account_kind, u.name AS holder,
        to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key
      FROM m JOIN acc ON acc.id = m.acc JOIN users u ON u.id = acc.owner_id
      WHERE true ${after}
      ORDER BY m.acc, m.created_at, m.id
      LIMIT ${limit}`;
  },
  ...columns([
    ['Holder', textCell(sql`r.holder`)],
    ['Account ID', textCell(sql`r.account_code`)],
    ['Account', textCell(labelSql(sql`r.account_kind`, ACCOUNT_LABEL))],
    ['Date (UTC)', plainCell(isoSql(sql`r.created_at`))],
    ['Movement', textCell(sql`r.entry_kind`)],
    [
      'Reference',
      textCell(sql`concat_ws(' ', nullif(r.business_type, ''), nullif(r.business_id::text, ''), nullif(r.memo, ''))`),
    ],
    ['Amount (EUR)', centsCell(sql`r.amount`)],
    ['Balance After (EUR)', centsCell(sql`r.balance_after`)],
    ['Amount (cents)', intCell(sql`r.amount`)],
    ['Balance After (cents)', intCell(sql`r.balance_after`)],
    ['Entry ID', intCell(sql`r.entry_id`)],
  ]),
  cursorOf: (r) => ({ acc: num(r.acc), at: String(r.at_key), id: num(r.id) }),
});

/**
 * Batch payouts: every batch executed in the days (uploaded and manual), with its rows, amount and fee, and how its
 * payouts came out: completed, failed (the amount and fee returned), still in flight.
 */
export const BATCH_PAYOUTS_REPORT = defineExport({
  kind: 'report_batch_payouts',
  fileName: 'batch-payouts-report',
  isReport: true,
  chunk: (caller, raw, cursor, limit) => {
    const [c, h] = both(caller, raw);
    const { from, to } = bounds(params(raw));
    const cur = cursor as { at: string; id: string } | null;
    const after = cur ? sql`AND (b.executed_at, b.batch_id) > (${cur.at}::timestamptz, ${cur.id})` : sql``;
    return sql`
      SELECT b.batch_id, b.payout_type, b.file_name, m.name AS merchant, hb.name AS behalf_of, b.executed_at,
        b.total_rows, b.amount, b.fee, b.amount_returned, b.fee_returned, b.status,
        to_char(b.executed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key,
        (SELECT count(*) FROM payouts p WHERE p.batch_id = b.batch_id AND p.status = 'completed') AS completed,
        (SELECT coalesce(sum(p.amount), 0) FROM payouts p WHERE p.batch_id = b.batch_id AND p.status = 'completed')
          AS completed_amount,
        (SELECT count(*) FROM payouts p WHERE p.batch_id = b.batch_id AND p.status = 'failed') AS failed,
        (SELECT count(*) FROM payouts p WHERE p.batch_id = b.batch_id AND p.status = 'in_flight') AS in_flight
      FROM batches b JOIN users m ON m.id = b.merchant_id JOIN users hb ON hb.id = b.behalf_of_id
      WHERE b.executed_at >= ${from.toISOString()}::timestamptz AND b.executed_at < ${to.toISOString()}::timestamptz
        AND ${batchScope(c)} AND ${batchScope(h)} ${after}
      ORDER BY b.executed_at, b.batch_id
      LIMIT ${limit}`;
  },
  ...columns([
    ['Batch ID', textCell(sql`r.batch_id`)],
    ['Type', textCell(sql`r.payout_type`)],
    ['File Name', textCell(sql`r.file_name`)],
    ['Merchant', textCell(sql`r.merchant`)],
    ['Behalf Of', textCell(sql`r.behalf_of`)],
    ['Executed At (UTC)', plainCell(isoSql(sql`r.executed_at`))],
    ['Rows', intCell(sql`r.total_rows`)],
    ['Amount (EUR)', centsCell(sql`r.amount`)],
    ['Fee (EUR)', centsCell(sql`r.fee`)],
    ['Completed', intCell(sql`r.completed`)],
    ['Completed Amount (EUR)', centsCell(sql`r.completed_amount`)],
    ['Failed', intCell(sql`r.failed`)],
    ['Amount Returned (EUR)', centsCell(sql`r.amount_returned`)],
    ['Fee Returned (EUR)', centsCell(sql`r.fee_returned`)],
    ['In Flight', intCell(sql`r.in_flight`)],
    ['Fee Kept (EUR)', centsCell(sql`r.fee - r.fee_returned`)],
    ['Status', textCell(sql`r.status`)],
  ]),
  cursorOf: (r) => ({ at: String(r.at_key), id: String(r.batch_id) }),
});

const batchScope = (scope: Scope): SQL => tenantFilter(scope, sql`b.merchant_id`, sql`b.behalf_of_id`);

/** Failed or returned transfers: the payouts that failed in the days, with the provider's reason. */
export const FAILED_REPORT = defineExport({
  kind: 'report_failed',
  fileName: 'failed-transfers-report',
  isReport: true,
  chunk: (caller, raw, cursor, limit) => {
    const [c, h] = both(caller, raw);
    const { from, to } = bounds(params(raw));
    const cur = cursor as { at: string; id: number } | null;
    const after = cur ? sql`AND (p.updated_at, p.id) > (${cur.at}::timestamptz, ${cur.id})` : sql``;
    return sql`
      SELECT p.id, p.batch_id, p.merchant_transaction_id, m.name AS merchant, hb.name AS behalf_of,
        p.beneficiary_name, p.obol_id, p.brand, p.amount, p.fee, p.failure_message, p.created_at, p.updated_at,
        to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at_key
      FROM payouts p JOIN users m ON m.id = p.merchant_id JOIN users hb ON hb.id = p.behalf_of_id
      WHERE p.status = 'failed' AND ${payoutScope(c)} AND ${payoutScope(h)}
        AND p.updated_at >= ${from.toISOString()}::timestamptz AND p.updated_at < ${to.toISOString()}::timestamptz
        ${after}
      ORDER BY p.updated_at, p.id
      LIMIT ${limit}`;
  },
  ...columns([
    ['Payout ID', intCell(sql`r.id`)],
    ['Batch ID', textCell(sql`coalesce(r.batch_id, '')`)],
    ['Merchant Transaction ID', textCell(sql`r.merchant_transaction_id`)],
    ['Merchant', textCell(sql`r.merchant`)],
    ['Behalf Of', textCell(sql`r.behalf_of`)],
    ['Beneficiary Name', textCell(sql`r.beneficiary_name`)],
    ['Obol ID', textCell(sql`r.obol_id`)],
    ['Brand', textCell(sql`r.brand`)],
    ['Amount Returned (EUR)', centsCell(sql`r.amount`)],
    ['Fee (EUR)', centsCell(sql`r.fee`)],
    ['Reason', textCell(sql`coalesce(r.failure_message, '')`)],
    ['Created At (UTC)', plainCell(isoSql(sql`r.created_at`))],
    ['Failed At (UTC)', plainCell(isoSql(sql`r.updated_at`))],
  ]),
  cursorOf: (r) => ({ at: String(r.at_key), id: num(r.id) }),
});

/**
 * Fees by merchant: per merchant and the holder it paid on behalf of (itself or a brand), the completed payouts
 * of the days and the fees kept on them, then the total. The fees are counted as the completed list counts them
 * (a manual payout's own fee; once per uploaded batch with a completed payout in the days, its fee less what its
 * failed payouts returned), over the same rows (the completed list's filter), so the total equals that list's fee
 * total for the same days and scope.
 */
export const FEES_REPORT = defineExport({
  kind: 'report_fees',
  fileName: 'fees-by-merchant-report',
  isReport: true,
  chunk: (caller, raw, cursor, limit) => {
    const p = params(raw);
    const [c, h] = both(caller, raw);
    const where = sql`${completedWhere(h, { ...p, brand: '', batch_id: '' })} AND ${payoutScope(c)}`;
    const offset = (cursor as { n: number } | null)?.n ?? 0;
    return sql`
      WITH lines AS (
        SELECT p.merchant_id, p.behalf_of_id, 1 AS n, p.amount, CASE WHEN p.fee > 0 THEN p.fee ELSE 0 END AS fee
        FROM payouts p WHERE ${where}
        UNION ALL
        SELECT b.merchant_id, b.behalf_of_id, 0, 0, b.fee - b.fee_returned FROM batches b
        WHERE b.payout_type = 'Batch Payout' AND b.fee > b.fee_returned
          AND EXISTS (SELECT 1 FROM payouts p WHERE p.batch_id = b.batch_id AND ${where})
      ),
      grouped AS (
        SELECT m.name AS merchant, hb.name AS behalf_of, sum(l.n) AS payouts, sum(l.amount) AS amount,
          sum(l.fee) AS fees, GROUPING(m.name, hb.name) AS total_row
        FROM lines l JOIN users m ON m.id = l.merchant_id JOIN users hb ON hb.id = l.behalf_of_id
        GROUP BY ROLLUP ((m.name, hb.name))
      )
      SELECT g.*, row_number() OVER (ORDER BY g.total_row, g.merchant, g.behalf_of) AS rn FROM grouped g
      ORDER BY g.total_row, g.merchant, g.behalf_of
      LIMIT ${limit} OFFSET ${offset}`;
  },
  ...columns([
    ['Merchant', textCell(sql`CASE WHEN r.total_row > 0 THEN 'Total' ELSE r.merchant END`)],
    ['Behalf Of', textCell(sql`CASE WHEN r.total_row > 0 THEN '' ELSE r.behalf_of END`)],
    ['Completed Payouts', intCell(sql`r.payouts`)],
    ['Completed Amount (EUR)', centsCell(sql`r.amount`)],
    ['Fees (EUR)', centsCell(sql`r.fees`)],
    ['Fees (cents)', intCell(sql`r.fees`)],
  ]),
  cursorOf: (r) => ({ n: num(r.rn) }),
});

export const REPORT_SPECS = {
  activity: ACTIVITY_REPORT,
  batch_payouts: BATCH_PAYOUTS_REPORT,
  failed: FAILED_REPORT,
  fees: FEES_REPORT,
} as const;
