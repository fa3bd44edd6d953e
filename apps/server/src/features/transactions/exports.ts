import { TRX_MSG } from '@obol/contract';
import { sql, type SQL } from 'drizzle-orm';
import { centsCell, columns, intCell, isoSql, plainCell, textCell } from '../downloads/cells.ts';
import { defineExport } from '../downloads/exports.ts';
import { defineListExport, type ListExportSpec } from '../downloads/lists.ts';
import { historySource, type HistoryFilters } from './history.ts';
import {
  completedWhere,
  orderBy,
  PAYOUT_JOINS,
  payoutWhere,
  type CompletedFilters,
  type Direction,
  type PayoutFilters,
} from './query.ts';
import { wordSql } from '../engine/status.ts';

/**
 * What the exports of the transaction lists hold: the same filters and order as the lists (one filter builder each,
 * so a file holds exactly what its list shows), and their columns. The downloads feature
 * keeps the files and runs the job that writes them.
 */

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** What the payout lists' exports share: their table, joins, key and order. */
const payoutList: Pick<ListExportSpec, 'from' | 'joins' | 'key' | 'orderBy'> = {
  from: sql`payouts p`,
  joins: PAYOUT_JOINS,
  key: sql`p.id`,
  orderBy,
};

/** a failed payout's reason (the provider's message, or the default one) */
const reasonSql = (status: SQL, message: SQL) =>
  sql`CASE WHEN ${status} = 'Failed' THEN coalesce(nullif(${message}, ''), ${TRX_MSG.defaultReason}) ELSE '' END`;

/** The payout list's export, sorted as asked ('sort-buy'). */
export const PAYOUTS_EXPORT = defineListExport({
  kind: 'payouts',
  fileName: 'payout-transactions',
  ...payoutList,
  where: (scope, params) => payoutWhere(scope, params as unknown as PayoutFilters),
  dir: (params) => (params['sort-buy'] as Direction) ?? 'DESC',
  ...columns([
    ['ID', intCell(sql`p.id`)],
    ['Beneficiary Name', textCell(sql`p.beneficiary_name`)],
    ['Brand', textCell(sql`p.brand`)],
    ['Behalf Of', textCell(sql`hb.name`)],
    ['Uploaded By', textCell(sql`hu.name`)],
    ['Account Used', textCell(sql`ha.name`)],
    ['Merchant Transaction ID', textCell(sql`p.merchant_transaction_id`)],
    ['Intergiro Trx ID', textCell(sql`coalesce(p.provider_id, '')`)],
    ['Reference', textCell(sql`p.reference`)],
    ['Obol ID', textCell(sql`p.obol_id`)],
    ['Batch ID', textCell(sql`coalesce(p.batch_id, '')`)],
    ['Currency', textCell(sql`p.currency`)],
    ['Amount (EUR)', centsCell(sql`p.amount`)],
    ['Fee (EUR)', centsCell(sql`p.fee`)],
    ['Status', textCell(wordSql('payout', sql`p.status`))],
    ['Reason', textCell(reasonSql(wordSql('payout', sql`p.status`), sql`p.failure_message`))],
    ['Updated At (UTC)', plainCell(isoSql(sql`p.updated_at`))],
  ]),
});

/** The completed transactions' export, newest first, with the batch fee. */
export const COMPLETED_EXPORT = defineListExport({
  kind: 'completed',
  fileName: 'completed-transactions',
  ...payoutList,
  where: (scope, params) => completedWhere(scope, params as unknown as CompletedFilters),
  dir: () => 'DESC',
  ...columns([
    ['Batch ID', textCell(sql`coalesce(p.batch_id, '')`)],
    ['Beneficiary Name', textCell(sql`p.beneficiary_name`)],
    ['Brand', textCell(sql`p.brand`)],
    [
      'Batch Fee (EUR)',
      centsCell(
        sql`CASE WHEN hbt.payout_type = 'Batch Payout' THEN coalesce(hbt.fee - hbt.fee_returned, 0) ELSE 0 END`,
      ),
    ],
    ['Fee (EUR)', centsCell(sql`p.fee`)],
    ['Amount (EUR)', centsCell(sql`p.amount`)],
    ['Reference', textCell(sql`p.reference`)],
    ['Behalf Of', textCell(sql`hb.name`)],
    ['Uploaded By', textCell(sql`hu.name`)],
    ['Account Used', textCell(sql`ha.name`)],
    ['Status', textCell(wordSql('payout', sql`p.status`))],
    ['Updated At (UTC)', plainCell(isoSql(sql`p.updated_at`))],
  ]),
});

const historyFilters = (params: Record<string, unknown>) =>
  ({ min_amount: null, max_amount: null, ...params }) as unknown as HistoryFilters & { executed: boolean };

/** One batch's history, in the file's order; `executed` is kept with the file (staged rows or payouts). */
export const BATCH_HISTORY_EXPORT = defineExport({
  kind: 'batch_history',
  fileName: 'batch-transactions',
  header: [
    'Batch ID',
    'Beneficiary Name',
    'Obol ID',
    'Transaction ID',
    'Merchant Transaction ID',
    'Brand',
    'Reference',
    'Currency',
    'Amount (EUR)',
    'Status',
    'Reason',
    'Timestamp (UTC)',
  ],
  rows: (_scope, params) => {
    const f = historyFilters(params);
    return {
      from: sql`(${historySource(f.executed, f)}) h`,
      where: sql`true`,
      orderBy: sql`h.id`,
      key: sql`h.id`,
      cells: [
        textCell(sql`${str(params.batch_id)}::text`),
        textCell(sql`coalesce(h.beneficiary_name, '')`),
        textCell(sql`coalesce(h.account_id, '')`),
        textCell(sql`coalesce(h.intergiro_trx_id, '')`),
        textCell(sql`coalesce(h.merchant_transaction_id, '')`),
        textCell(sql`coalesce(h.brand, '')`),
        textCell(sql`coalesce(h.reference, '')`),
        textCell(sql`coalesce(h.currency, '')`),
        centsCell(sql`h.amount`),
        textCell(sql`coalesce(h.status, '')`),
        textCell(reasonSql(sql`h.status`, sql`h.reason`)),
        plainCell(isoSql(sql`h.updated_at`)),
      ],
    };
  },
});
