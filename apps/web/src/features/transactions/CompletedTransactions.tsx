import { AUTO_REFRESH_MS } from '@obol/contract';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Paper, Stack, TableCell, TableRow, TextField, Tooltip, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { browserTimeZone } from '../../lib/dates.ts';
import { dateErrors, filterBody, useFilters, type ApplyResult } from '../../lib/filters.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { pageCount, usePaging } from '../../lib/paging.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { DateRangeFields, FilterPanel, FilterToggle } from '../../ui/FilterPanel.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { completedTransactionsQuery } from './api/completedTransactions.ts';
import { useExportCompletedTransactions } from './api/exportCompletedTransactions.ts';
import { BrandSelect } from './BrandSelect.tsx';
import { useTransactionDetails, ViewDetailsButton } from './DetailsDialog.tsx';
import { ExportButton } from './ExportButton.tsx';

const EMPTY = { brand: '', start_date: '', end_date: '', batch_id: '' };

export const BATCH_FEE_TIP = 'The batch fee is applied on the summed amount of all transactions sharing a batch_id.';

const COLUMNS = [
  'Batch ID',
  'Beneficiary Name',
  'Brand',
  'Batch Fee / Fee',
  'Amount',
  'Reference',
  'Behalf Of',
  'Uploaded By',
  'Account Used',
  'Status',
  'Updated At',
  'Action',
];

/** Completed payouts (of batches and manual payouts) with their fees and the fee totals of the whole selection. */
export function CompletedTransactions() {
  const session = useSession();
  const canSearch = hasPermission(session, 'User can search');
  const canExport = hasPermission(session, 'User can export transactions');
  const paging = usePaging();
  const f = useFilters(EMPTY, dateErrors);
  const details = useTransactionDetails();
  const exporting = useExportCompletedTransactions();
  const filters = filterBody(f.applied);
  const tz = browserTimeZone();
  const body = { status: 'Completed' as const, per_page: paging.perPage, page: paging.page, ...filters, tz };
  const q = useQuery({
    ...completedTransactionsQuery(body),
    placeholderData: keepPreviousData,
    refetchInterval: AUTO_REFRESH_MS,
  });
  const total = q.data?.transactions.total;
  paging.clamp(total, !!q.data && !q.isPlaceholderData);
  const rows = q.data?.transactions.data ?? [];
  const reload = (r: ApplyResult) => {
    if (r === 'invalid') return;
    if (r === 'same' && paging.page === 1) void q.refetch();
    paging.reset();
  };
  const exportList = (format: 'csv' | 'xlsx') =>
    exporting.mutateAsync({ status: 'Completed' as const, ...filters, tz, format });

  return (
    <>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'flex-end', mb: 2 }}>
        {canSearch ? (
          <FilterToggle open={f.open} onToggle={() => (f.open ? reload(f.close()) : f.setOpen(true))} />
        ) : null}
        {canExport ? <ExportButton disabled={!total} onExport={exportList} /> : null}
      </Stack>
      {canSearch && f.open ? (
        <FilterPanel onSearch={() => reload(f.apply())} onClose={() => reload(f.close())}>
          <BrandSelect value={f.draft.brand} onChange={(v) => f.set('brand', v)} />
          <DateRangeFields start={f.field('start_date')} end={f.field('end_date')} />
          <TextField size="small" label="Batch ID" {...f.field('batch_id')} />
        </FilterPanel>
      ) : null}
      <Paper>
        <ListTable
          columns={COLUMNS}
          sx={{ height: '70vh' }}
          loading={q.isLoading}
          empty={!rows.length}
          headerExtra={(c) =>
            c === 'Batch Fee / Fee' ? (
              <Tooltip title={BATCH_FEE_TIP}>
                <Box
                  component="span"
                  tabIndex={0}
                  sx={{ display: 'inline-flex', ml: 0.5, verticalAlign: 'middle', color: 'text.secondary' }}
                >
                  <InfoOutlinedIcon fontSize="small" />
                </Box>
              </Tooltip>
            ) : null
          }
        >
          {rows.map((t) => (
            <TableRow key={t.id} hover>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{t.batch_id || '-'}</TableCell>
              <TableCell>{t.beneficiary_name}</TableCell>
              <TableCell>{t.brand}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {euro(t.batch_fee ?? 0)} / {euro(t.fee ?? 0)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{euro(t.amount)}</TableCell>
              <TableCell>{t.reference}</TableCell>
              <TableCell>{t.behalf_of || '-'}</TableCell>
              <TableCell>{t.uploaded_by || '-'}</TableCell>
              <TableCell>{t.account_used || '-'}</TableCell>
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
        <Box
          sx={{ display: 'flex', gap: 4, flexWrap: 'wrap', px: 2, pt: 2, borderTop: 1, borderColor: 'divider' }}
          aria-label="Fee totals"
          role="group"
        >
          <Typography sx={{ fontWeight: 600 }}>Total Fee (EUR): €{q.data?.fee.total_eur_fee ?? '0.00'}</Typography>
          <Typography sx={{ fontWeight: 600 }}>Total Fee (CENTS): {q.data?.fee.total_cent_fee ?? 0}</Typography>
        </Box>
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
