import { sql } from 'drizzle-orm';
import { centsCell, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { afterCreated, createdCursorOf, defineExport } from '../downloads/exports.ts';
import type { Cell } from '../downloads/writer.ts';
import { listSql, toTransferRow, transferWhere, type TransferDbRow } from './service.ts';

/** the account's label, as toTransferRow writes it (service.ts's KIND_LABEL; the export test compares them) */
const KIND_LABEL: Record<string, string> = { payout: 'Payout', payin: 'Payin', clp: 'CLP', fee: 'Fee Account' };

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
  rows: (scope, params) => ({
    from: sql`transfers t`,
    where: transferWhere(scope, { status: String(params.status ?? '') }),
    orderBy: sql.raw(params.sortby === 'ASC' ? 't.created_at ASC, t.id ASC' : 't.created_at DESC, t.id DESC'),
    key: sql`t.id`,
    cells: [
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
  }),
});
