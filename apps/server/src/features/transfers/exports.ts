import { sql } from 'drizzle-orm';
import { centsCell, columns, intCell, isoSql, labelSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import { KIND_LABEL, transferWhere } from './list.ts';
import { wordSql } from '../engine/status.ts';

/** The transfer list's export: the list's own query and order. */
export const TRANSFERS_EXPORT = defineListExport({
  kind: 'transfers',
  fileName: 'transfer-transactions',
  ...createdList('t'),
  where: (scope, params) => transferWhere(scope, { status: String(params.status ?? '') }),
  from: sql`transfers t`,
  ...columns([
    ['ID', intCell(sql`t.id`)],
    ['Beneficiary Name', textCell(sql`t.beneficiary_name`)],
    ['IBAN', textCell(sql`t.iban`)],
    ['BIC', textCell(sql`t.bic`)],
    ['Currency', textCell(sql`t.currency`)],
    ['Amount (EUR)', centsCell(sql`t.amount`)],
    ['Transfer By', textCell(sql`t.created_by_name`)],
    ['Merchant/Brand', textCell(sql`t.holder_name`)],
    ['Account Used', textCell(labelSql(sql`t.account_kind`, KIND_LABEL))],
    ['Account ID', textCell(sql`t.account_code`)],
    ['Status', textCell(wordSql('transfer', sql`t.status`))],
    ['Reason', textCell(sql`coalesce(t.detail, '')`)],
    ['Purpose of Payment', textCell(sql`t.message`)],
    ['Created At (UTC)', plainCell(isoSql(sql`t.created_at`))],
  ]),
});
