import { sql } from 'drizzle-orm';
import { centsCell, intCell, isoSql, plainCell, textCell } from '../downloads/cells.ts';
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
  header: [
    'ID',
    'Rule Name',
    'Rule Type',
    'Company',
    'Beneficiary Name',
    'IBAN',
    'BIC',
    'Currency',
    'Amount (EUR)',
    'Transfer By',
    'Company Account ID',
    'Status',
    'Reason',
    'Transaction Type',
    'Description',
    'Created At (UTC)',
  ],
  ...createdList('t'),
  where: (_scope, params) => where(params),
  from: sql`accounting_transactions t`,
  cells: [
    intCell(sql`t.id`),
    textCell(sql`coalesce(t.rule_name, '-')`),
    textCell(sql`t.rule_type`),
    textCell(sql`t.company_name`),
    textCell(sql`t.beneficiary_name`),
    textCell(sql`t.iban`),
    textCell(sql`t.bic`),
    textCell(sql`t.currency`),
    centsCell(sql`t.amount`),
    textCell(sql`t.transfer_by`),
    textCell(sql`t.account_code`),
    textCell(wordSql('2d', sql`t.status`)),
    textCell(sql`coalesce(t.reason, '')`),
    textCell(sql`CASE WHEN t.transfer_type = 'internal_transfer' THEN 'Internal' ELSE 'External' END`),
    textCell(sql`t.description`),
    plainCell(isoSql(sql`t.created_at`)),
  ],
});
