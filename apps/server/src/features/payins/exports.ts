import { sql } from 'drizzle-orm';
import { defineExport } from '../downloads/exports.ts';
import type { Cell } from '../downloads/writer.ts';
import { payinListSql, payinWhere, toPayinRow, type PayinDbRow, type PayinFilters } from './service.ts';

/** The cursor of the last row written: its creation time (to the microsecond) and id. */
interface Cursor {
  createdAt: string;
  id: number;
}

/** The pay-in list's export: the list's own filters, query and order, read in keyset chunks. */
export const PAYINS_EXPORT = defineExport({
  kind: 'payins',
  fileName: 'payin-transactions',
  header: [
    'ID',
    'Pay-in Reference',
    'Merchant',
    'Brand',
    'Currency',
    'Amount (EUR)',
    'Request ID',
    'Transaction Status',
    'Link Status',
    'Reason',
    'First Name',
    'Last Name',
    'Date of Birth',
    'Account ID',
    'Created At (UTC)',
  ],
  chunk: (scope, params, cursor, limit) => {
    const dir = params.sortby === 'ASC' ? 'ASC' : 'DESC';
    const c = cursor as Cursor | null;
    const after = c
      ? dir === 'ASC'
        ? sql`(p.created_at, p.id) > (${c.createdAt}::timestamp AT TIME ZONE 'UTC', ${c.id})`
        : sql`(p.created_at, p.id) < (${c.createdAt}::timestamp AT TIME ZONE 'UTC', ${c.id})`
      : undefined;
    return payinListSql(payinWhere(scope, params as unknown as PayinFilters), dir, limit, 0, after);
  },
  cells: (row): Cell[] => {
    const p = toPayinRow(row as unknown as PayinDbRow);
    return [
      p.id,
      p.pay_in_reference,
      p.merchant_name,
      p.brand_name ?? '',
      p.currency,
      { cents: p.amount },
      p.request_id,
      p.transaction_status,
      p.link_status,
      p.reason ?? '',
      p.first_name,
      p.last_name,
      p.date_of_birth,
      p.account_id,
      p.created_at,
    ];
  },
  cursorOf: (row) => ({ createdAt: String(row.created_key), id: Number(row.id) }),
});
