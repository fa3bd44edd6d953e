import { AUTO_REFRESH_MS, PAYOUT_STATUS_OPTIONS } from '@obol/contract';
import { browserTimeZone } from '../../lib/dates.ts';
import {
  centsError,
  clearFilters,
  dateErrors,
  filterBody,
  type FilterValues,
  MATCH,
  useFilters,
} from '../../lib/filters.ts';
import { useKeysetList, usePaging } from '../../lib/paging.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { DateRangeFields, FilterField } from '../../ui/FilterPanel.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { useExportPayoutTransactions } from './api/exportPayoutTransactions.ts';
import { payoutTransactionsQuery } from './api/payoutTransactions.ts';
import { BrandSelect } from './BrandSelect.tsx';
import { PAYOUT_COLUMNS } from './columns.tsx';
import { PayoutTable } from './PayoutTable.tsx';
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

/** Payout transactions: sort, status, filters, export, details; live, reloading every 5 minutes when it cannot be. */
export function PayoutTransactionsPage() {
  const url = useUrlParams();
  const paging = usePaging(undefined, undefined, url);
  // the status and sort in the URL: `status=Completed`, `sort=oldest`; absent for All and newest first
  const status = urlOption(url, 'status', PAYOUT_STATUS_OPTIONS, 'status');
  const statusName = status.name;
  const sort = dateSort(url);
  const sortKey = sort.sort;
  const f = useFilters(EMPTY, validate, url);
  const exporting = useExportPayoutTransactions();

  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  /** what the list shows, without its order and page (the export and the volume chart take the same) */
  const selection = { status: statusName, ...filters, tz };
  const listed = { ...selection, 'sort-by': sortKey, per_page: paging.perPage };
  // the spec's refresh, only while the live stream is down
  const list = useKeysetList(paging, listed, payoutTransactionsQuery, { kind: 'payout', poll: AUTO_REFRESH_MS });
  const exportList = (format: 'csv' | 'xlsx') =>
    exporting.mutateAsync({ status: statusName, 'sort-buy': sortKey, ...filters, tz, format });

  return (
    <>
      <ListControls
        title="Payout Transactions"
        list={list}
        filters={f}
        fields={
          <>
            <FilterField search label="Beneficiary Name" {...f.field('beneficiary_name', MATCH.contains)} />
            <BrandSelect value={f.draft.brand} onChange={(v) => f.set('brand', v)} />
            <FilterField label="Behalf Of" {...f.field('behalf_of', MATCH.contains)} />
            <FilterField label="Uploaded By" {...f.field('uploaded_by', MATCH.contains)} />
            <FilterField label="Account Used" {...f.field('account_used', 'Name contains, or exact account id')} />
            <FilterField label="Merchant ID" {...f.field('merchant_id', MATCH.exact)} />
            <FilterField label="Intergiro Trx ID" {...f.field('intergiro_trx_id', MATCH.exact)} />
            <FilterField label="Reference" {...f.field('reference', MATCH.exact)} />
            <FilterField label="Obol ID" {...f.field('obol_id', MATCH.exact)} />
            <FilterField
              type="number"
              label="Amount (in cents)"
              {...f.field('amount', MATCH.exact)}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
            <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
          </>
        }
        onExport={exportList}
      >
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Status" {...status.select} />
      </ListControls>
      <VolumeChart filters={{ status: statusName, ...filters, tz }} />
      <PayoutTable
        id="payout-transactions"
        label="Payout transactions"
        columns={PAYOUT_COLUMNS}
        list={list}
        sx={{ maxHeight: '65vh' }}
        clear={clearFilters(url, [...Object.keys(EMPTY), 'status'])}
      />
    </>
  );
}
