import { sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../../platform/scope.ts';
import {
  completedWhere,
  pageQuery,
  payoutWhere,
  type CompletedFilters,
  type Cursor,
  type Direction,
  type PayoutDbRow,
  type PayoutFilters,
} from '../transactions/query.ts';
import { historySource, type HistoryFilters } from '../transactions/service.ts';
import type { Cell } from './writer.ts';

/** What an export kind writes: its columns, how it reads the next chunk after a cursor, and a row's cells. */
export interface ExportSpec {
  fileName: string;
  header: string[];
  chunk(scope: Scope, params: Record<string, unknown>, cursor: unknown, limit: number): SQL;
  cells(row: Record<string, unknown>, params: Record<string, unknown>): Cell[];
  cursorOf(row: Record<string, unknown>): unknown;
}

const iso = (v: unknown) => new Date(v as string).toISOString();
const cents = (v: unknown) => ({ cents: Number(v) });
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const payoutCursor = (r: Record<string, unknown>): Cursor => ({
  updatedAt: String(r.updated_key),
  id: Number(r.id),
});

/** The next chunk after the cursor: the same page query as the lists, by keyset. */
const payoutChunk = (where: SQL, dir: Direction, cursor: unknown, limit: number): SQL =>
  pageQuery(where, dir, limit, 0, cursor as Cursor | null);

const reason = (status: unknown, message: unknown) =>
  status === 'Failed' ? str(message) || 'Brand does not match' : '';

export const EXPORTS = {
  payouts: {
    fileName: 'payout-transactions',
    header: [
      'ID',
      'Beneficiary Name',
      'Brand',
      'Behalf Of',
      'Uploaded By',
      'Account Used',
      'Merchant Transaction ID',
      'Intergiro Trx ID',
      'Reference',
      'Obol ID',
      'Batch ID',
      'Currency',
      'Amount (EUR)',
      'Fee (EUR)',
      'Status',
      'Reason',
      'Updated At (UTC)',
    ],
    chunk: (scope, params, cursor, limit) =>
      payoutChunk(
        payoutWhere(scope, params as unknown as PayoutFilters),
        (params['sort-buy'] as Direction) ?? 'DESC',
        cursor,
        limit,
      ),
    cells: (row) => {
      const r = row as unknown as PayoutDbRow;
      return [
        Number(r.id),
        r.beneficiary_name,
        r.brand,
        r.behalf_of,
        r.uploaded_by,
        r.account_used,
        r.merchant_transaction_id,
        str(r.provider_id),
        r.reference,
        r.obol_id,
        str(r.batch_id),
        r.currency,
        cents(r.amount),
        cents(r.fee),
        r.status,
        reason(r.status, r.failure_message),
        iso(r.updated_at),
      ];
    },
    cursorOf: payoutCursor,
  },
  completed: {
    fileName: 'completed-transactions',
    header: [
      'Batch ID',
      'Beneficiary Name',
      'Brand',
      'Batch Fee (EUR)',
      'Fee (EUR)',
      'Amount (EUR)',
      'Reference',
      'Behalf Of',
      'Uploaded By',
      'Account Used',
      'Status',
      'Updated At (UTC)',
    ],
    chunk: (scope, params, cursor, limit) =>
      payoutChunk(completedWhere(scope, params as unknown as CompletedFilters), 'DESC', cursor, limit),
    cells: (row) => {
      const r = row as unknown as PayoutDbRow;
      return [
        str(r.batch_id),
        r.beneficiary_name,
        r.brand,
        cents(r.batch_type === 'Batch Payout' ? r.batch_fee : 0),
        cents(r.fee),
        cents(r.amount),
        r.reference,
        r.behalf_of,
        r.uploaded_by,
        r.account_used,
        r.status,
        iso(r.updated_at),
      ];
    },
    cursorOf: payoutCursor,
  },
  batch_history: {
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
    chunk: (_scope, params, cursor, limit) => {
      // the batch was found in the caller's scope when the export was asked for
      const f = { min_amount: null, max_amount: null, ...params } as unknown as HistoryFilters & { executed: boolean };
      return sql`SELECT * FROM (${historySource(f.executed, f)}) h
        WHERE h.id > ${Number(cursor ?? 0)} ORDER BY h.id LIMIT ${limit}`;
    },
    cells: (r, params) => [
      str(params.batch_id),
      str(r.beneficiary_name),
      str(r.account_id),
      str(r.intergiro_trx_id),
      str(r.merchant_transaction_id),
      str(r.brand),
      str(r.reference),
      str(r.currency),
      r.amount === null ? null : cents(r.amount),
      str(r.status),
      reason(r.status, r.reason),
      iso(r.updated_at),
    ],
    cursorOf: (r) => Number(r.id),
  },
} satisfies Record<string, ExportSpec>;

export type ExportKind = keyof typeof EXPORTS;
