import { sql } from 'drizzle-orm';
import { centsCell, columns, intCell, isoSql, plainCell, textCell } from '../downloads/cells.ts';
import { createdList, defineListExport } from '../downloads/lists.ts';
import { accountingWhere } from './list.ts';
import { wordSql } from '../engine/status.ts';

const where = (params: Record<string, unknown>) => {
  const ruleType = params.rule_type === 0 || params.rule_type === 1 ? params.rule_type : '';
  return accountingWhere({ status: String(params.status ?? ''), rule_type: ruleType });
};

/** The 2D transactions' export: the list's own query and order, into the 2D downloads. */
export const ACCOUNTING_EXPORT = defineListExport({
  kind: 'accounting-transactions',
  fileName: '2d-transactions',
  accounting: true,
  ...createdList('t'),
  where: (_scope, params) => where(params),
  from: sql`accounting_transactions t`,
  ...columns([
    ['ID', intCell(sql`t.id`)],
    ['Rule Name', textCell(sql`coalesce(t.rule_name, '-')`)],
    ['Rule Type', textCell(sql`t.rule_type`)],
    ['Company', textCell(sql`t.company_name`)],
    ['Beneficiary Name', textCell(sql`t.beneficiary_name`)],
    ['IBAN', textCell(sql`t.iban`)],
    ['BIC', textCell(sql`t.bic`)],
    ['Currency', textCell(sql`t.currency`)],
    ['Amount (EUR)', centsCell(sql`t.amount`)],
    ['Transfer By', textCell(sql`t.transfer_by`)],
    ['Company Account ID', textCell(sql`t.account_code`)],
    ['Status', textCell(wordSql('2d', sql`t.status`))],
    ['Reason', textCell(sql`coalesce(t.reason, '')`)],
    [
      'Transaction Type',
      textCell(sql`CASE WHEN t.transfer_type = 'internal_transfer' THEN 'Internal' ELSE 'External' END`),
    ],
    ['Description', textCell(sql`t.description`)],
    ['Created At (UTC)', plainCell(isoSql(sql`t.created_at`))],
  ]),
});
