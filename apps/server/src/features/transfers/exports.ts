import { afterCreated, createdCursorOf, defineExport } from '../downloads/exports.ts';
import type { Cell } from '../downloads/writer.ts';
import { listSql, toTransferRow, transferWhere, type TransferDbRow } from './service.ts';

/** The transfer list's export: the list's own query and order, read in keyset chunks. */
export const TRANSFERS_EXPORT = defineExport({
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
  chunk: (scope, params, cursor, limit) => {
    const dir = params.sortby === 'ASC' ? 'ASC' : 'DESC';
    const after = afterCreated('t', dir, cursor);
    return listSql(transferWhere(scope, { status: String(params.status ?? '') }), dir, limit, 0, after);
  },
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
  cursorOf: createdCursorOf,
});
