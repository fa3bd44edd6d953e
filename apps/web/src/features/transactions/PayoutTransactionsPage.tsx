import { AUTO_REFRESH_MS, DATE_SORT_OPTIONS, PAYOUT_STATUS_OPTIONS } from '@obol/contract';
import { Paper, Stack, TableCell, TableRow, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { browserTimeZone } from '../../lib/dates.ts';
import {
  centsError,
  dateErrors,
  filterBody,
  useFilters,
  type ApplyResult,
  type FilterValues,
} from '../../lib/filters.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { pageCount, usePaging } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { DateRangeFields, FilterPanel, FilterToggle } from '../../ui/FilterPanel.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { useExportPayoutTransactions } from './api/exportPayoutTransactions.ts';
import { payoutTransactionsQuery } from './api/payoutTransactions.ts';
import { BrandSelect } from './BrandSelect.tsx';
import { useTransactionDetails, ViewDetailsButton } from './DetailsDialog.tsx';
import { ExportButton } from './ExportButton.tsx';
import { VolumeChart } from './VolumeChart.tsx';

const EMPTY = {
  beneficiary_name: '',
  brand: '',
  behalf_of: '',
  uploaded_by: '',
  account_used: '',
  merchant_id: '',
  intergiro_trx_id: '',
  reference: '',
  obol_id: '',
  amount: '',
  start_date: '',
  end_date: '',
};
type Key = keyof typeof EMPTY;

const validate = (v: FilterValues<Key>) => ({ amount: centsError(v.amount), ...dateErrors(v) });

const COLUMNS = [
  'Beneficiary Name',
  'Brand',
  'Behalf Of',
  'Uploaded By',
  'Account Used',
  'Merchant Transaction ID',
  'Intergiro Trx ID',
  'Reference',
  'Obol ID',
  'Amount',
  'Status',
  'Updated At',
  'Action',
];

/** Payout transactions: sort, status, filters, export, details; reloads itself every 5 minutes. */
export function PayoutTransactionsPage() {
  const session = useSession();
  const canSearch = hasPermission(session, 'User can search');
  const canExport = hasPermission(session, 'User can export transactions');
  const paging = usePaging();
  const [sort, setSort] = useState<number>(DATE_SORT_OPTIONS[0].value);
  const [status, setStatus] = useState<number>(PAYOUT_STATUS_OPTIONS[0].value);
  const f = useFilters(EMPTY, validate);
  const details = useTransactionDetails();
  const exporting = useExportPayoutTransactions();

  const statusName = PAYOUT_STATUS_OPTIONS.find((o) => o.value === status)?.status ?? '';
  const sortKey = DATE_SORT_OPTIONS.find((o) => o.value === sort)?.sort ?? 'DESC';
  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  const body = {
    status: statusName,
    'sort-by': sortKey,
    per_page: paging.perPage,
    page: paging.page,
    ...filters,
    tz,
  };
  const q = useQuery({
    ...payoutTransactionsQuery(body),
    placeholderData: keepPreviousData,
    refetchInterval: AUTO_REFRESH_MS,
  });
  const total = q.data?.transactions.total;
  paging.clamp(total, !!q.data && !q.isPlaceholderData);
  const rows = q.data?.transactions.data ?? [];

  /** a new search goes to page 1; the same one reloads */
  const reload = (r: ApplyResult) => {
    if (r === 'invalid') return;
    if (r === 'same' && paging.page === 1) void q.refetch();
    paging.reset();
  };
  const exportList = (format: 'csv' | 'xlsx') =>
    exporting.mutateAsync({ status: statusName, 'sort-buy': sortKey, ...filters, tz, format });

  return (
    <>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between', mb: 2 }}
      >
        <PageTitle>Payout Transactions</PageTitle>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          {canSearch ? (
            <FilterToggle open={f.open} onToggle={() => (f.open ? reload(f.close()) : f.setOpen(true))} />
          ) : null}
          <OptionSelect
            label="Sort by date"
            value={sort}
            options={DATE_SORT_OPTIONS}
            onChange={(v) => {
              setSort(v);
              paging.reset();
            }}
            minWidth={160}
          />
          <OptionSelect
            label="Status"
            value={status}
            options={PAYOUT_STATUS_OPTIONS}
            onChange={(v) => {
              setStatus(v);
              paging.reset();
            }}
          />
          {canExport ? <ExportButton disabled={!total} onExport={exportList} /> : null}
        </Stack>
      </Stack>
      {canSearch && f.open ? (
        <FilterPanel onSearch={() => reload(f.apply())} onClose={() => reload(f.close())}>
          <TextField size="small" label="Beneficiary Name" {...f.field('beneficiary_name')} />
          <BrandSelect value={f.draft.brand} onChange={(v) => f.set('brand', v)} />
          <TextField size="small" label="Behalf Of" {...f.field('behalf_of')} />
          <TextField size="small" label="Uploaded By" {...f.field('uploaded_by')} />
          <TextField size="small" label="Account Used" {...f.field('account_used')} />
          <TextField size="small" label="Merchant ID" {...f.field('merchant_id')} />
          <TextField size="small" label="Intergiro Trx ID" {...f.field('intergiro_trx_id')} />
          <TextField size="small" label="Reference" {...f.field('reference')} />
          <TextField size="small" label="Obol ID" {...f.field('obol_id')} />
          <TextField
            size="small"
            type="number"
            label="Amount (in cents)"
            {...f.field('amount')}
            slotProps={{ htmlInput: { min: 0, step: 1 } }}
          />
          <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
        </FilterPanel>
      ) : null}
      <VolumeChart filters={{ status: statusName, ...filters, tz }} />
      <Paper>
        <ListTable columns={COLUMNS} sx={{ height: '65vh' }} loading={q.isLoading} empty={!rows.length}>
          {rows.map((t) => (
            <TableRow key={t.id} hover>
              <TableCell>{t.beneficiary_name}</TableCell>
              <TableCell>{t.brand}</TableCell>
              <TableCell>{t.behalf_of || '-'}</TableCell>
              <TableCell>{t.uploaded_by || '-'}</TableCell>
              <TableCell>{t.account_used || '-'}</TableCell>
              <TableCell>{t.merchant_transaction_id}</TableCell>
              <TableCell>{t.intergiro_trx_id || '-'}</TableCell>
              <TableCell>{t.reference}</TableCell>
              <TableCell>{t.account_id}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{euro(t.amount)}</TableCell>
              <TableCell>
                <StatusChip status={t.status} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{localDateTime(t.updated_at)}</TableCell>
              <TableCell>
                <ViewDetailsButton
                  disabled={details.busy}
                  loading={details.loadingId === t.id}
                  onClick={() => details.show(t.id)}
                />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
        <Pager
          page={paging.page}
          pages={pageCount(total, paging.perPage)}
          onPage={paging.setPage}
          perPage={paging.perPage}
          onPerPage={paging.setPerPage}
        />
      </Paper>
      {details.dialog}
    </>
  );
}
