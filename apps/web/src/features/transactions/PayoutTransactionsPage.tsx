import { AUTO_REFRESH_MS, DATE_SORT_OPTIONS, PAYOUT_STATUS_OPTIONS } from '@obol/contract';
import { Paper, Stack, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { browserTimeZone } from '../../lib/dates.ts';
import {
  type ApplyResult,
  centsError,
  clearFilters,
  dateErrors,
  filterBody,
  type FilterValues,
  MATCH,
  useFilters,
} from '../../lib/filters.ts';
import { FIRST_PAGE, keysetPages, useClampPage, useKeysetPaging, usePaging } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { DateRangeFields, FilterPanel, FilterToggle } from '../../ui/FilterPanel.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { useExportPayoutTransactions } from './api/exportPayoutTransactions.ts';
import { payoutTransactionsQuery } from './api/payoutTransactions.ts';
import { BrandSelect } from './BrandSelect.tsx';
import { PAYOUT_COLUMNS } from './columns.tsx';
import { useTransactionDetails } from './DetailsDialog.tsx';
import { ExportButton } from '../../ui/ExportButton.tsx';
import { VolumeChart } from './VolumeChart.tsx';
import { useFallbackPoll, useFresh } from '../../lib/live.tsx';
import { useLinkAction } from '../../ui/EmptyState.tsx';

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

/** the status and sort in the URL: `status=Completed`, `sort=oldest`; absent for All and newest first */
const STATUSES = PAYOUT_STATUS_OPTIONS.map((o) => o.status);
const SORTS = ['newest', 'oldest'] as const;

/** Payout transactions: sort, status, filters, export, details; reloads itself every 5 minutes. */
export function PayoutTransactionsPage() {
  // the spec's refresh, only while the live stream is down
  const poll = useFallbackPoll(AUTO_REFRESH_MS);
  const fresh = useFresh('payout');
  const session = useSession();
  const canSearch = hasPermission(session, 'User can search');
  const canExport = hasPermission(session, 'User can export transactions');
  const url = useUrlParams();
  const paging = usePaging(undefined, undefined, url);
  const statusName = oneOf(url.params.get('status'), STATUSES, '');
  const status = PAYOUT_STATUS_OPTIONS.find((o) => o.status === statusName)?.value ?? PAYOUT_STATUS_OPTIONS[0].value;
  const sortKey: 'ASC' | 'DESC' = oneOf(url.params.get('sort'), SORTS, 'newest') === 'oldest' ? 'ASC' : 'DESC';
  const sort = DATE_SORT_OPTIONS.find((o) => o.sort === sortKey)?.value ?? DATE_SORT_OPTIONS[0].value;
  const f = useFilters(EMPTY, validate, url);
  const details = useTransactionDetails();
  const exporting = useExportPayoutTransactions();
  const createPayment = useLinkAction('/payments', 'Create Payment');

  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  /** what the list shows, without its order and page (the export and the volume chart take the same) */
  const selection = { status: statusName, ...filters, tz };
  const listed = { ...selection, 'sort-by': sortKey, per_page: paging.perPage };
  const keyset = useKeysetPaging(paging, listed);
  const body = { ...listed, page: paging.page, ...keyset.cursor };
  const q = useQuery({
    ...payoutTransactionsQuery(body),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
  const settled = !!q.data && !q.isPlaceholderData;
  const total = q.data?.transactions.total;
  const estimated = !!q.data?.transactions.total_estimated;
  useClampPage(paging, estimated ? undefined : total, settled);
  const rows = q.data?.transactions.data ?? [];

  /** a new search went to page 1 with the URL; the same one reloads (back on page 1) */
  const reload = (r: ApplyResult) => {
    if (r !== 'same') return;
    if (paging.page === 1) void q.refetch();
    else paging.reset();
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
            <FilterToggle
              open={f.open}
              searchTarget={!f.open}
              onToggle={() => (f.open ? reload(f.close()) : f.setOpen(true))}
            />
          ) : null}
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
            options={PAYOUT_STATUS_OPTIONS}
            onChange={(v) =>
              url.update({ status: PAYOUT_STATUS_OPTIONS.find((o) => o.value === v)?.status, ...FIRST_PAGE })
            }
          />
          {canExport ? <ExportButton disabled={!total} onExport={exportList} /> : null}
        </Stack>
      </Stack>
      {canSearch && f.open ? (
        <FilterPanel onSearch={() => reload(f.apply())} onClose={() => reload(f.close())}>
          <TextField
            size="small"
            label="Beneficiary Name"
            {...f.field('beneficiary_name', MATCH.contains)}
            slotProps={{ htmlInput: { 'data-search-input': true } }}
          />
          <BrandSelect value={f.draft.brand} onChange={(v) => f.set('brand', v)} />
          <TextField size="small" label="Behalf Of" {...f.field('behalf_of', MATCH.contains)} />
          <TextField size="small" label="Uploaded By" {...f.field('uploaded_by', MATCH.contains)} />
          <TextField
            size="small"
            label="Account Used"
            {...f.field('account_used', 'Name contains, or exact account id')}
          />
          <TextField size="small" label="Merchant ID" {...f.field('merchant_id', MATCH.exact)} />
          <TextField size="small" label="Intergiro Trx ID" {...f.field('intergiro_trx_id', MATCH.exact)} />
          <TextField size="small" label="Reference" {...f.field('reference', MATCH.exact)} />
          <TextField size="small" label="Obol ID" {...f.field('obol_id', MATCH.exact)} />
          <TextField
            size="small"
            type="number"
            label="Amount (in cents)"
            {...f.field('amount', MATCH.exact)}
            slotProps={{ htmlInput: { min: 0, step: 1 } }}
          />
          <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
        </FilterPanel>
      ) : null}
      <VolumeChart filters={{ status: statusName, ...filters, tz }} />
      <Paper>
        <ListTable
          id="payout-transactions"
          label="Payout transactions"
          columns={PAYOUT_COLUMNS}
          rows={rows}
          rowKey={(t) => t.id}
          rowFresh={(t) => fresh(t.id)}
          action={details.action}
          sx={{ maxHeight: '65vh' }}
          loading={q.isLoading}
          empty={{ clear: clearFilters(url, [...Object.keys(EMPTY), 'status']), create: createPayment }}
        />
        <Pager
          page={paging.page}
          pages={keysetPages(q.data, paging.page, paging.perPage)}
          onPage={(p) => keyset.setPage(p, settled ? q.data : undefined)}
          perPage={paging.perPage}
          onPerPage={paging.setPerPage}
          estimatedTotal={estimated ? total : undefined}
        />
      </Paper>
      {details.dialog}
    </>
  );
}
