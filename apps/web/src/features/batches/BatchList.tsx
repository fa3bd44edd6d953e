import { AUTO_REFRESH_MS, type BatchListRow, type BatchStatus } from '@obol/contract';
import { Button, CircularProgress, Paper, Stack, TableCell, TableRow, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { localDateTime } from '../../lib/format.ts';
import { sessionStore } from '../../lib/session.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { pageCount, usePaging } from '../../lib/paging.ts';
import { serverMessage } from '../../lib/serverMessage.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { batchesQuery } from './api/batches.ts';
import { batchHistory } from './api/batchHistory.ts';
import { recentBatchesQuery } from './api/recentBatches.ts';

/** What the list shows of a batch. */
export type BatchRow = Pick<
  BatchListRow,
  | 'batch_id'
  | 'payout_type'
  | 'uploaded_by'
  | 'account_used'
  | 'behalf_of'
  | 'file_name'
  | 'updated_at'
  | 'batch_status'
>;

export const BATCH_PER_PAGE = 10;
export const BATCH_STATUS_OPTIONS = [
  { label: 'All Batches', status: '' },
  { label: 'Completed', status: 'Completed' },
  { label: 'Pending', status: 'Pending' },
  { label: 'Declined', status: 'Declined' },
] as const;
const STATUS_CHOICES = BATCH_STATUS_OPTIONS.map((o): { label: string; value: string } => ({
  label: o.label,
  value: o.status,
}));

const COLUMNS = [
  'Batch ID',
  'Payout Type',
  'Uploaded By',
  'Account Used',
  'Behalf Of',
  'File Name',
  'Timestamp',
  'Batch Status',
  'Action',
];

/**
 * The batch list. `all`: every batch in scope with a status filter (POST /api/batches); `recent`: the last 24 hours,
 * no status (POST /api/recent-batches). Both search batch id or file name (debounced 1 s), reload every 5 minutes
 * and offer Export Batch, which opens the batch's transaction history.
 */
export function BatchList({ mode }: { mode: 'all' | 'recent' }) {
  const { notify } = useNotify();
  const navigate = useNavigate();
  const paging = usePaging(BATCH_PER_PAGE);
  const [status, setStatus] = useState<BatchStatus | ''>('');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 1000);
  const [lastSearch, setLastSearch] = useState(search);
  if (lastSearch !== search) {
    setLastSearch(search);
    paging.reset();
  }
  const [exporting, setExporting] = useState<string | null>(null);
  const recent = mode === 'recent';
  const q = useQuery<{ data: BatchRow[]; total: number }>({
    ...(recent
      ? recentBatchesQuery({ per_page: BATCH_PER_PAGE, page: paging.page, search })
      : batchesQuery({ per_page: BATCH_PER_PAGE, page: paging.page, search, status })),
    placeholderData: keepPreviousData,
    refetchInterval: AUTO_REFRESH_MS,
  });
  const total = q.data?.total;
  paging.clamp(total, !!q.data && !q.isPlaceholderData);
  const rows = q.data?.data ?? [];

  /** checks the batch can be read (a batch still being processed answers 402), makes it current, opens its history */
  const exportBatch = async (b: BatchRow) => {
    setExporting(b.batch_id);
    try {
      const r = await batchHistory(b.batch_id);
      sessionStore.setBatch({
        batch_id: b.batch_id,
        merchant_name: r.batch?.merchant_name ?? b.behalf_of.name,
        file_name: r.batch?.file_name ?? b.file_name,
        account_reference: b.account_used.account_reference,
        batch_status: r.batch?.batch_status ?? b.batch_status,
      });
      navigate('/transactions-history');
    } catch (err) {
      notify('error', serverMessage(err));
      setExporting(null);
    }
  };

  return (
    <Paper>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ p: 2 }}>
        {recent ? null : (
          <OptionSelect
            label="Batch status"
            value={status}
            options={STATUS_CHOICES}
            onChange={(v) => {
              setStatus(v as BatchStatus | '');
              paging.reset();
            }}
          />
        )}
        <TextField
          size="small"
          label="Search"
          slotProps={{ htmlInput: { 'data-search-input': true } }}
          placeholder="Batch ID or file name"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          sx={{ minWidth: 260 }}
        />
      </Stack>
      <ListTable
        columns={COLUMNS}
        sx={{ maxHeight: '70vh' }}
        loading={q.isLoading}
        empty={!rows.length}
        emptyText={recent ? 'No batch uploaded in last 24 hours' : undefined}
      >
        {rows.map((b) => (
          <TableRow key={b.batch_id} hover>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {b.batch_id}
              <CopyButton text={b.batch_id} label={`Copy batch id ${b.batch_id}`} />
            </TableCell>
            <TableCell>{b.payout_type}</TableCell>
            <TableCell>{b.uploaded_by.name}</TableCell>
            <TableCell>{b.account_used.name}</TableCell>
            <TableCell>{b.behalf_of.name}</TableCell>
            <TableCell>{b.file_name}</TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{localDateTime(b.updated_at)}</TableCell>
            <TableCell>
              <StatusChip status={b.batch_status} />
            </TableCell>
            <TableCell>
              <Button
                size="small"
                variant="outlined"
                disabled={exporting !== null}
                onClick={() => exportBatch(b)}
                startIcon={exporting === b.batch_id ? <CircularProgress size={14} color="inherit" /> : undefined}
                sx={{ whiteSpace: 'nowrap' }}
              >
                Export Batch
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      <Pager page={paging.page} pages={pageCount(total, BATCH_PER_PAGE)} onPage={paging.setPage} />
    </Paper>
  );
}
