import { ACCOUNTING_STATUS_OPTIONS, RULE_TYPE_OPTIONS, type AccountingTransaction } from '@obol/contract';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography } from '@mui/material';
import { euro, localDateTime } from '../../lib/format.ts';
import { usePaging, usePagedList } from '../../lib/paging.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ExportButton } from '../../ui/ExportButton.tsx';
import { ListHeader } from '../../ui/ListHeader.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { accountingTransactionsQuery, useExportAccountingTransactions } from './api/transactions.ts';
import { AccountingStatusChip, TRANSFER_TYPE_LABELS } from './labels.tsx';
import { useTarget } from './useTarget.ts';
import { clearFilters } from '../../lib/filters.ts';
import { useLinkAction } from '../../ui/EmptyState.tsx';

const COLUMNS: Column<AccountingTransaction>[] = [
  { id: 'rule_name', label: 'Rule Name', pinned: true, card: 'title', width: 120, cell: (t) => t.rule_name },
  { id: 'rule_type', label: 'Rule Type', hidden: true, width: 110, cell: (t) => t.rule_type },
  { id: 'beneficiary', label: 'Beneficiary Name', width: 180, cell: (t) => t.beneficiary_name },
  {
    id: 'iban',
    label: 'IBAN',
    // the beneficiary's name tells a row apart; the IBAN (with its copy button) is one click away in Columns
    priority: 3,
    width: 262,
    nowrap: true,
    cell: (t) => (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <span>{t.iban}</span>
        <CopyButton text={t.iban} label={`Copy the IBAN ${t.iban}`} />
      </Stack>
    ),
  },
  { id: 'bic', label: 'BIC', hidden: true, nowrap: true, width: 120, cell: (t) => t.bic },
  { id: 'amount', label: 'Amount', pinned: true, nowrap: true, width: 105, cell: (t) => euro(t.amount) },
  { id: 'currency', label: 'Currency', hidden: true, width: 90, cell: (t) => t.currency || '-' },
  { id: 'transfer_by', label: 'Transfer By', priority: 3, width: 150, cell: (t) => t.transfer_by },
  {
    id: 'account_id',
    label: 'Company Account ID',
    hidden: true,
    nowrap: true,
    width: 170,
    cell: (t) => t.account_id,
  },
  {
    id: 'status',
    label: 'Status',
    pinned: true,
    card: 'status',
    width: 120,
    cell: (t) => <AccountingStatusChip status={t.status} reason={t.reason} />,
  },
  {
    id: 'transfer_type',
    label: 'Transaction Type',
    width: 165,
    cell: (t) => TRANSFER_TYPE_LABELS[t.transfer_type],
  },
  { id: 'company', label: 'Company', hidden: true, width: 150, cell: (t) => t.company_name },
  { id: 'created_at', label: 'Date', nowrap: true, width: 181, cell: (t) => localDateTime(t.created_at) },
];

const SIZES = [20, 50, 100];
/** the rule type in the URL: `type=amount` or `type=percentage`; absent for All */
const TYPE_KEYS = ['amount', 'percentage'] as const;
const RULE_TYPES = RULE_TYPE_OPTIONS.map((o) => ({ ...o, type: o.value === '' ? '' : TYPE_KEYS[o.value] }));

/**
 * 2D Transactions: the transfers and rule runs, 20 a page, newest first, with the rule-type and status filters
 * and the sort in the URL; Export writes a file into the 2D downloads.
 */
export function AccountingTransactionsPage() {
  const url = useUrlParams();
  const paging = usePaging(20, SIZES, url);
  const status = urlOption(url, 'status', ACCOUNTING_STATUS_OPTIONS, 'value');
  const ruleType = urlOption(url, 'type', RULE_TYPES, 'type');
  const sort = dateSort(url);
  const described = useTarget<AccountingTransaction>();
  const exporting = useExportAccountingTransactions();
  const pay = useLinkAction('/accounting-payment', 'Make a 2D payment');
  const filters = { sortby: sort.sort, status: status.name, rule_type: ruleType.chosen.value };
  const list = usePagedList(
    paging,
    accountingTransactionsQuery({ ...filters, page: paging.page, per_page: paging.perPage }),
    (a) => ({ data: a.transactions, total: a.total }),
  );
  const { total } = list;
  const t = described.target;

  return (
    <>
      <ListHeader title="2D Transactions">
        <OptionSelect label="Rule type" {...ruleType.select} minWidth={140} />
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Status" {...status.select} />
        <ExportButton
          disabled={!total}
          downloadType="accounting-transactions"
          onExport={(format) => exporting.mutateAsync({ ...filters, export_transactions: true, format })}
        />
      </ListHeader>
      <PagedTable
        id="accounting-transactions"
        label="2D transactions"
        columns={COLUMNS}
        list={list}
        empty={{ clear: clearFilters(url, ['status', 'type']), create: pay }}
        sx={{ maxHeight: '65vh' }}
        action={{
          label: 'Description',
          width: 146,
          cell: (r) => (
            <ActionButton
              text="Description"
              label={`Payment description of the transfer to ${r.beneficiary_name}`}
              icon={<DescriptionOutlinedIcon fontSize="small" />}
              onClick={() => described.show(r)}
            />
          ),
        }}
      />
      <Dialog
        open={described.open}
        onClose={described.close}
        fullWidth
        maxWidth="xs"
        aria-labelledby="description-title"
      >
        <DialogTitle id="description-title">Payment description</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
            {t ? `${euro(t.amount)} to ${t.beneficiary_name}` : ''}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {t?.description || 'No description was given.'}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={described.close}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
