import { sql } from 'drizzle-orm';
import { centsCell, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import type { Cell } from '../downloads/writer.ts';
import { KIND_LABEL, listSql, toTransferRow, transferWhere, type TransferDbRow } from './list.ts';

/** The transfer list's export: the list's own query and order, read in keyset chunks. */
export const TRANSFERS_EXPORT = defineListExport({
  kind: 'transfers',
  fileName: 'transfer-transactions',
  header: [
    'ID',
    'Beneficiary Name',
    'IBAN',
    'BIC',
    'Currency',
    'Amount (EUR)',
    'Transfer By',
    'Merchant/Brand',
    'Account Used',
    'Account ID',
    'Status',
    'Reason',
    'Purpose of Payment',
    'Created At (UTC)',
  ],
  ...createdList('t', listSql),
  where: (scope, params) => transferWhere(scope, { status: String(params.status ?? '') }),
  cells: (row): Cell[] => {
    const t = toTransferRow(row as unknown as TransferDbRow);
    return [
      t.id,
      t.beneficiary_name,
      t.iban,
      t.bic,
      t.currency,
      { cents: t.amount },
      t.transfer_by,
      t.merchant_name,
      t.account_used,
      t.account_id,
      t.status,
      t.detail ?? '',
      t.message,
      t.created_at,
    ];
  },
  from: sql`transfers t`,
  sqlCells: [
    intCell(sql`t.id`),
    textCell(sql`t.beneficiary_name`),
    textCell(sql`t.iban`),
    textCell(sql`t.bic`),
    textCell(sql`t.currency`),
    centsCell(sql`t.amount`),
    textCell(sql`t.created_by_name`),
    textCell(sql`t.holder_name`),
    textCell(labelSql(sql`t.account_kind`, KIND_LABEL)),
    textCell(sql`t.account_code`),
    textCell(sql`t.status`),
    textCell(sql`coalesce(t.detail, '')`),
    textCell(sql`t.message`),
    plainCell(isoSql(sql`t.created_at`)),
  ],
});
