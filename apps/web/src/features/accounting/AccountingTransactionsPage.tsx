import {
  ACCOUNTING_STATUS_OPTIONS,
  DATE_SORT_OPTIONS,
  RULE_TYPE_OPTIONS,
  type AccountingTransaction,
} from '@obol/contract';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Paper, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { euro, localDateTime } from '../../lib/format.ts';
import { FIRST_PAGE, pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ExportButton } from '../../ui/ExportButton.tsx';
import { ListTable, type Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
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
const STATUSES = ACCOUNTING_STATUS_OPTIONS.map((o) => o.value).filter((v) => v !== '');
const TYPE_KEYS = ['amount', 'percentage'] as const;
const SORTS = ['newest', 'oldest'] as const;

/**
 * 2D Transactions: the transfers and rule runs, 20 a page, newest first, with the rule-type and status filters
 * and the sort in the URL; Export writes a file into the 2D downloads.
 */
export function AccountingTransactionsPage() {
  const url = useUrlParams();
  const paging = usePaging(20, SIZES, url);
  const status = oneOf<(typeof STATUSES)[number] | ''>(url.params.get('status'), STATUSES, '');
  const typeKey = oneOf<(typeof TYPE_KEYS)[number] | ''>(url.params.get('type'), TYPE_KEYS, '');
  const ruleType: '' | 0 | 1 = typeKey === '' ? '' : typeKey === 'amount' ? 0 : 1;
  const sortKey: 'ASC' | 'DESC' = oneOf(url.params.get('sort'), SORTS, 'newest') === 'oldest' ? 'ASC' : 'DESC';
  const sort = DATE_SORT_OPTIONS.find((o) => o.sort === sortKey)?.value ?? DATE_SORT_OPTIONS[0].value;
  const described = useTarget<AccountingTransaction>();
  const exporting = useExportAccountingTransactions();
  const pay = useLinkAction('/accounting-payment', 'Make a 2D payment');
  const filters = { sortby: sortKey, status, rule_type: ruleType };
  const q = useQuery({
    ...accountingTransactionsQuery({ ...filters, page: paging.page, per_page: paging.perPage }),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
  const t = described.target;

  return (
    <>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between', mb: 2 }}
      >
        <PageTitle>2D Transactions</PageTitle>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <OptionSelect
            label="Rule type"
            value={ruleType}
            options={RULE_TYPE_OPTIONS}
            onChange={(v) => url.update({ type: v === '' ? null : TYPE_KEYS[v], ...FIRST_PAGE })}
            minWidth={140}
          />
          <OptionSelect
            label="Sort by date"
            value={sort}
            options={DATE_SORT_OPTIONS}
            onChange={(v) => url.update({ sort: v === 1 ? 'oldest' : null, ...FIRST_PAGE })}
            minWidth={160}
          />
          <OptionSelect
            label="Status"
            value={status}
            options={ACCOUNTING_STATUS_OPTIONS}
            onChange={(v) => url.update({ status: v || null, ...FIRST_PAGE })}
          />
          <ExportButton
            disabled={!total}
            downloadType="accounting-transactions"
            onExport={(format) => exporting.mutateAsync({ ...filters, export_transactions: true, format })}
          />
        </Stack>
      </Stack>
      <Paper>
        <ListTable
          id="accounting-transactions"
          label="2D transactions"
          columns={COLUMNS}
          rows={q.data?.transactions ?? []}
          rowKey={(r) => r.id}
          loading={q.isLoading}
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
        <Pager
          page={paging.page}
          pages={pageCount(total, paging.perPage)}
          onPage={paging.setPage}
          perPage={paging.perPage}
          onPerPage={paging.setPerPage}
          sizes={SIZES}
        />
      </Paper>
      <Dialog
        open={described.open}
        onClose={described.close}
        fullWidth
        maxWidth="xs"
        aria-labelledby="description-title"
      >
        <DialogTitle id="description-title">Payment description</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
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
