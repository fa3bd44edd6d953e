import {
  AUTO_REFRESH_MS,
  PAYIN_STATUS_OPTIONS,
  REFUND_STATUS_LABELS,
  type PayinChannel,
  type PayinRow,
} from '@obol/contract';
import { browserTimeZone } from '../../lib/dates.ts';
import { clearFilters, dateErrors, filterBody, MATCH, useFilters } from '../../lib/filters.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { usePaging, usePagedList } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { DateRangeFields, FilterField } from '../../ui/FilterPanel.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { StatusWithReason } from '../../ui/StatusChip.tsx';
import { payinsQuery, useExportPayins } from './api/payins.ts';
import { useRefundFlow } from './RefundAction.tsx';
import { OneLine } from '../../ui/OneLine.tsx';

/** Declined and Expired carry their reason (section 4). */
const payinReason = (p: PayinRow) =>
  p.transaction_status === 'Declined'
    ? p.reason || 'Declined'
    : p.transaction_status === 'Expired'
      ? p.reason || 'The payment link expired'
      : null;

const REQUESTED_BY: Column<PayinRow> = {
  id: 'requested_by',
  label: 'Requested By',
  width: 170,
  nowrap: true,
  cell: (p) => p.requested_by ?? '–',
};

const PAYIN_COLUMNS: Column<PayinRow>[] = [
  {
    id: 'reference',
    label: 'Pay-in Reference',
    width: 185,
    pinned: true,
    card: 'title',
    nowrap: true,
    cell: (p) => p.pay_in_reference,
  },
  { id: 'merchant', label: 'Merchant', width: 130, nowrap: true, cell: (p) => p.merchant_name },
  { id: 'brand', label: 'Brand', width: 120, hidden: true, cell: (p) => p.brand_name ?? '–' },
  { id: 'amount', label: 'Amount', width: 105, pinned: true, nowrap: true, cell: (p) => euro(p.amount) },
  {
    id: 'request_id',
    label: 'Request ID',
    width: 135,
    priority: 3,
    nowrap: true,
    cell: (p) => <OneLine text={p.request_id} maxWidth={160} copy={`Copy the request id ${p.request_id}`} />,
  },
  {
    id: 'status',
    label: 'Status',
    width: 100,
    pinned: true,
    card: 'status',
    cell: (p) => <StatusWithReason status={p.transaction_status} reason={payinReason(p)} />,
  },
  { id: 'link_status', label: 'Link Status', width: 110, hidden: true, cell: (p) => p.link_status },
  {
    id: 'refund_status',
    label: 'Refund Status',
    width: 160,
    nowrap: true,
    cell: (p) => (p.refund_status === null ? 'Not Allowed' : REFUND_STATUS_LABELS[p.refund_status]),
  },
  { id: 'payer', label: 'Payer', width: 140, priority: 3, cell: (p) => `${p.first_name} ${p.last_name}` },
  { id: 'date_of_birth', label: 'Date of Birth', width: 120, hidden: true, nowrap: true, cell: (p) => p.date_of_birth },
  { id: 'account_id', label: 'Account ID', width: 130, hidden: true, nowrap: true, cell: (p) => p.account_id },
  { id: 'created_at', label: 'Date', width: 180, nowrap: true, cell: (p) => localDateTime(p.created_at) },
];
/** CardEye: the same columns, with who requested the card payment beside the reference. So that the list fits
 * 1366 px with it (measured with rows: 83 px too wide), the request id and the merchant are one click away in
 * Columns: a merchant's till payments are its own, and the Admin can show the column. */
const CARDEYE_COLUMNS: Column<PayinRow>[] = PAYIN_COLUMNS.flatMap((c) =>
  c.id === 'reference'
    ? [c, REQUESTED_BY]
    : c.id === 'request_id'
      ? [{ ...c, hidden: true }]
      : c.id === 'merchant'
        ? [{ ...c, priority: 3 as const }]
        : [c],
);

const PAGES = {
  Payin: { title: 'Payin Transactions', id: 'payin-transactions', columns: PAYIN_COLUMNS },
  CardEye: { title: 'CardEye Transactions', id: 'cardeye-transactions', columns: CARDEYE_COLUMNS },
} as const;

const EMPTY = {
  pay_in_reference: '',
  merchant_name: '',
  request_id: '',
  user_name: '',
  account_id: '',
  requested_by: '',
  start_date: '',
  end_date: '',
};

/**
 * Payin Transactions (channel Payin) and CardEye Transactions (channel CardEye: card payments the merchant's staff
 * requested, with who requested them): the payments made through the merchant API in the caller's scope, 20 a page
 * by date, the status filter (section 9's codes), the filter panel behind 'User can search', export, and the refund
 * action with 'User can view cardeye transactions'; live (every 5 minutes while the stream is down).
 */
export function PayinTransactionsPage({ channel = 'Payin' }: { channel?: PayinChannel }) {
  const page = PAGES[channel];
  const session = useSession();
  const canRefund = hasPermission(session, 'User can view cardeye transactions');
  const refund = useRefundFlow();
  const url = useUrlParams();
  const paging = usePaging(20, [20, 50, 100], url);
  const status = urlOption(url, 'status', PAYIN_STATUS_OPTIONS, 'status');
  const sort = dateSort(url);
  const f = useFilters(EMPTY, dateErrors, url);
  const exporting = useExportPayins();
  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  const selection = { channel, transaction_status: status.chosen.value, ...filters, tz, sortby: sort.sort };
  const list = usePagedList(
    paging,
    payinsQuery({ ...selection, page: paging.page, per_page: paging.perPage }),
    (a) => a,
    { kind: 'payin', poll: AUTO_REFRESH_MS },
  );

  return (
    <>
      <ListControls
        title={page.title}
        list={list}
        filters={f}
        fields={
          <>
            <FilterField search label="Pay-in Reference" {...f.field('pay_in_reference', MATCH.exact)} />
            <FilterField label="Merchant or Brand" {...f.field('merchant_name', MATCH.contains)} />
            <FilterField label="Request ID" {...f.field('request_id', MATCH.exact)} />
            <FilterField label="Payer Name" {...f.field('user_name', MATCH.contains)} />
            <FilterField label="Account ID" {...f.field('account_id', MATCH.exact)} />
            {channel === 'CardEye' ? (
              <FilterField label="Requested By" {...f.field('requested_by', MATCH.contains)} />
            ) : null}
            <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
          </>
        }
        onExport={(format) => exporting.mutateAsync({ ...selection, format })}
      >
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Status" {...status.select} />
      </ListControls>
      <PagedTable
        id={page.id}
        label={page.title}
        columns={page.columns}
        list={list}
        empty={{ clear: clearFilters(url, [...Object.keys(EMPTY), 'status']) }}
        sx={{ maxHeight: '65vh' }}
        action={canRefund ? { label: 'Refund', cell: refund.button } : undefined}
      />
      {canRefund ? refund.dialogs : null}
    </>
  );
}
