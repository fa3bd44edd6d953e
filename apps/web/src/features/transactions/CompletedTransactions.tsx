import { AUTO_REFRESH_MS } from '@obol/contract';
import { Box, Typography } from '@mui/material';
import { browserTimeZone } from '../../lib/dates.ts';
import { clearFilters, dateErrors, filterBody, MATCH, useFilters } from '../../lib/filters.ts';
import { useKeysetList, usePaging } from '../../lib/paging.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { DateRangeFields, FilterField } from '../../ui/FilterPanel.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import { completedTransactionsQuery } from './api/completedTransactions.ts';
import { useExportCompletedTransactions } from './api/exportCompletedTransactions.ts';
import { BrandSelect } from './BrandSelect.tsx';
import { COMPLETED_COLUMNS } from './columns.tsx';
import { PayoutTable } from './PayoutTable.tsx';

export { BATCH_FEE_TIP } from './columns.tsx';

const EMPTY = { brand: '', start_date: '', end_date: '', batch_id: '' };

/** Completed payouts (of batches and manual payouts) with their fees and the fee totals of the whole selection. */
export function CompletedTransactions() {
  const url = useUrlParams();
  const paging = usePaging(undefined, undefined, url);
  const f = useFilters(EMPTY, dateErrors, url);
  const exporting = useExportCompletedTransactions();
  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  const listed = { status: 'Completed' as const, per_page: paging.perPage, ...filters, tz };
  // the spec's refresh, only while the live stream is down
  const list = useKeysetList(paging, listed, completedTransactionsQuery, { kind: 'payout', poll: AUTO_REFRESH_MS });
  const { q } = list;
  const exportList = (format: 'csv' | 'xlsx') =>
    exporting.mutateAsync({ status: 'Completed' as const, ...filters, tz, format });

  return (
    <>
      <ListControls
        list={list}
        filters={f}
        fields={
          <>
            <BrandSelect value={f.draft.brand} onChange={(v) => f.set('brand', v)} />
            <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
            <FilterField search label="Batch ID" {...f.field('batch_id', MATCH.exact)} />
          </>
        }
        onExport={exportList}
      />
      <PayoutTable
        id="completed-transactions"
        label="Completed transactions"
        columns={COMPLETED_COLUMNS}
        list={list}
        sx={{ maxHeight: '70vh' }}
        clear={clearFilters(url, Object.keys(EMPTY))}
      >
        <Box
          sx={{ display: 'flex', gap: 4, flexWrap: 'wrap', px: 2, pt: 2, borderTop: 1, borderColor: 'divider' }}
          aria-label="Fee totals"
          role="group"
        >
          <Typography sx={{ fontWeight: 600 }}>Total Fee (EUR): €{q.data?.fee.total_eur_fee ?? '0.00'}</Typography>
          <Typography sx={{ fontWeight: 600 }}>Total Fee (CENTS): {q.data?.fee.total_cent_fee ?? 0}</Typography>
        </Box>
      </PayoutTable>
    </>
  );
}
