import { AUTO_REFRESH_MS, REFUND_LIST_STATUS_OPTIONS, REFUND_TYPE_OPTIONS, type RefundRow } from '@obol/contract';
import { browserTimeZone } from '../../lib/dates.ts';
import { clearFilters, dateErrors, filterBody, MATCH, useFilters } from '../../lib/filters.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { usePaging, usePagedList } from '../../lib/paging.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { DateRangeFields, FilterField } from '../../ui/FilterPanel.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { StatusWithReason } from '../../ui/StatusChip.tsx';
import { refundsQuery, useExportRefunds } from './api/payins.ts';

const COLUMNS: Column<RefundRow>[] = [
  {
    id: 'reference',
    label: 'Pay-in Reference',
    width: 185,
    pinned: true,
    card: 'title',
    nowrap: true,
    cell: (r) => r.payin_reference,
  },
  { id: 'batch_id', label: 'Refund ID', width: 135, nowrap: true, cell: (r) => r.batch_id ?? '–' },
  { id: 'merchant', label: 'Merchant', width: 130, hidden: true, cell: (r) => r.merchant_name },
  { id: 'brand', label: 'Brand', width: 120, cell: (r) => r.brand_name ?? '–' },
  { id: 'amount', label: 'Amount', width: 105, pinned: true, nowrap: true, cell: (r) => euro(r.amount) },
  { id: 'request_id', label: 'Request ID', width: 135, nowrap: true, cell: (r) => r.request_id },
  // the type and the payer start hidden when the list would not fit 1366 px (73-80 px too wide with rows)
  { id: 'type', label: 'Type', width: 90, priority: 3, cell: (r) => r.transaction_type },
  {
    id: 'status',
    label: 'Status',
    width: 100,
    pinned: true,
    card: 'status',
    cell: (r) => (
      <StatusWithReason
        status={r.transaction_status}
        reason={r.transaction_status === 'Declined' ? r.reason || 'Declined by the provider' : null}
      />
    ),
  },
  { id: 'payer', label: 'Payer', width: 140, priority: 3, cell: (r) => `${r.first_name} ${r.last_name}` },
  { id: 'date_of_birth', label: 'Date of Birth', width: 120, hidden: true, nowrap: true, cell: (r) => r.date_of_birth },
  { id: 'account_id', label: 'Account ID', width: 130, hidden: true, nowrap: true, cell: (r) => r.account_id },
  { id: 'created_at', label: 'Date', width: 180, nowrap: true, cell: (r) => localDateTime(r.created_at) },
];

const EMPTY = { batch_id: '', pay_in_reference: '', request_id: '', account_id: '', start_date: '', end_date: '' };

/** Refund Transactions: the refunds of the caller's scope, 20 a page by date, status and type, filters, export. */
export function RefundTransactionsPage() {
  const url = useUrlParams();
  const paging = usePaging(20, [20, 50, 100], url);
  const status = urlOption(url, 'status', REFUND_LIST_STATUS_OPTIONS, 'status');
  const type = urlOption(url, 'type', REFUND_TYPE_OPTIONS, 'type');
  const sort = dateSort(url);
  const f = useFilters(EMPTY, dateErrors, url);
  const exporting = useExportRefunds();
  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  const selection = {
    transaction_status: status.chosen.value,
    transaction_type: type.chosen.value,
    ...filters,
    tz,
    sortby: sort.sort,
  };
  const list = usePagedList(
    paging,
    refundsQuery({ ...selection, page: paging.page, per_page: paging.perPage }),
    (a) => a,
    { kind: 'refund', poll: AUTO_REFRESH_MS },
  );

  return (
    <>
      <ListControls
        title="Refund Transactions"
        list={list}
        filters={f}
        fields={
          <>
            <FilterField search label="Pay-in Reference" {...f.field('pay_in_reference', MATCH.exact)} />
            <FilterField label="Refund ID" {...f.field('batch_id', MATCH.exact)} />
            <FilterField label="Request ID" {...f.field('request_id', MATCH.exact)} />
            <FilterField label="Account ID" {...f.field('account_id', MATCH.exact)} />
            <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
          </>
        }
        onExport={(format) => exporting.mutateAsync({ ...selection, format })}
      >
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Type" {...type.select} />
        <OptionSelect label="Status" {...status.select} />
      </ListControls>
      <PagedTable
        id="refund-transactions"
        label="Refund transactions"
        columns={COLUMNS}
        list={list}
        empty={{ clear: clearFilters(url, [...Object.keys(EMPTY), 'status', 'type']) }}
        sx={{ maxHeight: '65vh' }}
      />
    </>
  );
}
