import { afterCreated, createdCursorOf, defineExport } from '../downloads/exports.ts';
import type { Cell } from '../downloads/writer.ts';
import { accountingListSql, accountingWhere, toAccountingTransaction, type AccountingDbRow } from './list.ts';

/** The 2D transactions' export: the list's own query and order, read in keyset chunks, into the 2D downloads. */
export const ACCOUNTING_EXPORT = defineExport({
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
  chunk: (_scope, params, cursor, limit) => {
    const dir = params.sortby === 'ASC' ? 'ASC' : 'DESC';
    const ruleType = params.rule_type === 0 || params.rule_type === 1 ? params.rule_type : '';
    const where = accountingWhere({ status: String(params.status ?? ''), rule_type: ruleType });
    return accountingListSql(where, dir, limit, 0, afterCreated('t', dir, cursor));
  },
  cells: (row): Cell[] => {
    const t = toAccountingTransaction(row as unknown as AccountingDbRow);
    return [
      t.id,
      t.rule_name,
      t.rule_type,
      t.company_name,
      t.beneficiary_name,
      t.iban,
      t.bic,
      t.currency,
      { cents: t.amount },
      t.transfer_by,
      t.account_id,
      t.status,
      t.reason ?? '',
      t.transfer_type === 'internal_transfer' ? 'Internal' : 'External',
      t.description,
      t.created_at,
    ];
  },
  cursorOf: createdCursorOf,
});
