import { sql } from 'drizzle-orm';
import { centsCell, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import { KIND_LABEL, transferWhere } from './list.ts';
import { wordSql } from '../engine/status.ts';

/** The transfer list's export: the list's own query and order. */
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
  ...createdList('t'),
  where: (scope, params) => transferWhere(scope, { status: String(params.status ?? '') }),
  from: sql`transfers t`,
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
    textCell(wordSql('transfer', sql`t.status`)),
    textCell(sql`coalesce(t.detail, '')`),
    textCell(sql`t.message`),
    plainCell(isoSql(sql`t.created_at`)),
  ],
});
