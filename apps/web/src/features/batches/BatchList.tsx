import { AUTO_REFRESH_MS, type BatchListRow } from '@obol/contract';
import { Button, CircularProgress, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { localDateTime } from '../../lib/format.ts';
import { clearFilters } from '../../lib/filters.ts';
import { FIRST_PAGE, pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { serverMessage } from '../../lib/serverMessage.ts';
import { sessionStore } from '../../lib/session.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { ListTable, type Column } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { useLinkAction } from '../../ui/EmptyState.tsx';
import { useClearBatch } from './api/clearBatch.ts';
import { batchesQuery } from './api/batches.ts';
import { batchHistory } from './api/batchHistory.ts';
import { recentBatchesQuery } from './api/recentBatches.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { useFallbackPoll, useFresh } from '../../lib/live.tsx';

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
  | 'payouts'
>;

/**
 * What became of an executed batch's payouts, said beside its status (the spec's Completed means handed to the
 * provider, not all paid): "3 completed · 1 failed"; nothing for a batch with no payouts (Pending, Declined).
 */
export function outcomeText({ completed, failed, in_flight }: BatchRow['payouts']): string {
  const parts = [
    completed ? `${completed} completed` : '',
    failed ? `${failed} failed` : '',
    in_flight ? `${in_flight} in progress` : '',
  ].filter(Boolean);
  return parts.join(' · ');
}

function BatchStatus({ b }: { b: BatchRow }) {
  const text = outcomeText(b.payouts);
  if (!text) return <StatusChip status={b.batch_status} />;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <StatusChip status={b.batch_status} />
      <Typography
        variant="caption"
        sx={{ whiteSpace: 'nowrap', color: b.payouts.failed ? 'error.main' : 'text.secondary' }}
      >
        {text}
      </Typography>
    </Stack>
  );
}

export const BATCH_PER_PAGE = 10;
export const BATCH_STATUS_OPTIONS = [
  { label: 'All Batches', status: '' },
  { label: 'Completed', status: 'Completed' },
  { label: 'Pending', status: 'Pending' },
  { label: 'Declined', status: 'Declined' },
] as const;
const STATUS_VALUES = BATCH_STATUS_OPTIONS.map((o) => o.status);
const STATUS_CHOICES = BATCH_STATUS_OPTIONS.map((o): { label: string; value: string } => ({
  label: o.label,
  value: o.status,
}));

const COLUMNS: Column<BatchRow>[] = [
  {
    id: 'batch_id',
    label: 'Batch ID',
    pinned: true,
    card: 'title',
    nowrap: true,
    width: 240,
    cell: (b) => <OneLine text={b.batch_id} maxWidth={180} copy={`Copy batch id ${b.batch_id}`} />,
  },
  { id: 'payout_type', label: 'Payout Type', priority: 3, width: 130, cell: (b) => b.payout_type },
  { id: 'uploaded_by', label: 'Uploaded By', hidden: true, cell: (b) => b.uploaded_by.name },
  { id: 'account_used', label: 'Account Used', hidden: true, cell: (b) => b.account_used.name },
  { id: 'behalf_of', label: 'Behalf Of', width: 110, cell: (b) => b.behalf_of.name },
  {
    id: 'file_name',
    label: 'File Name',
    pinned: true,
    width: 230,
    cell: (b) => <OneLine text={b.file_name} maxWidth={200} />,
  },
  { id: 'timestamp', label: 'Timestamp', nowrap: true, width: 180, cell: (b) => localDateTime(b.updated_at) },
  {
    id: 'status',
    label: 'Batch Status',
    pinned: true,
    card: 'status',
    width: 140,
    cell: (b) => <BatchStatus b={b} />,
  },
];

/** What Export Batch does (the spec's name): it opens the batch's history, where its rows are exported. */
export const EXPORT_BATCH_HINT = "Opens this batch's transaction history, where you export it";

/**
 * The batch list. `all`: every batch in scope with a status filter (POST /api/batches); `recent`: the last 24 hours,
 * no status (POST /api/recent-batches). Both search batch id or file name (debounced 1 s), reload every 5 minutes
 * and offer Export Batch, which opens the batch's transaction history. Status, search and page are in the URL.
 */
export function BatchList({ mode }: { mode: 'all' | 'recent' }) {
  // the spec's refresh, only while the live stream is down
  const poll = useFallbackPoll(AUTO_REFRESH_MS);
  const fresh = useFresh('batch');
  const { notify } = useNotify();
  const navigate = useNavigate();
  const url = useUrlParams();
  const paging = usePaging(BATCH_PER_PAGE, [BATCH_PER_PAGE], url);
  const status = oneOf(url.params.get('status'), STATUS_VALUES, '');
  const { text, setText, search } = useUrlSearch(url);
  const [exporting, setExporting] = useState<string | null>(null);
  const recent = mode === 'recent';
  const clear = useClearBatch();
  const { ask, dialog } = useConfirm();
  const upload = useLinkAction('/payments', 'Upload a batch');
  const q = useQuery<{ data: BatchRow[]; total: number }>({
    ...(recent
      ? recentBatchesQuery({ per_page: BATCH_PER_PAGE, page: paging.page, search })
      : batchesQuery({ per_page: BATCH_PER_PAGE, page: paging.page, search, status })),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
  const total = q.data?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
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

  /** a batch left Pending (closed mid-review) is taken up again where it was: the review page */
  const reopen = (b: BatchRow) => {
    sessionStore.setBatch({
      batch_id: b.batch_id,
      merchant_name: b.behalf_of.name,
      file_name: b.file_name,
      account_reference: b.account_used.account_reference,
      batch_status: b.batch_status,
    });
    navigate('/payments/transactions');
  };
  const askClear = (b: BatchRow) =>
    ask({
      title: `Clear batch ${b.batch_id}?`,
      text: `The rows of ${b.file_name} are removed and the batch becomes Declined. Nothing is paid; the file can be uploaded again.`,
      confirmLabel: 'Clear batch',
      action: async () => {
        try {
          const r = await clear.mutateAsync({ batch_id: b.batch_id, merchant_name: b.behalf_of.name });
          if (sessionStore.get()?.batch?.batch_id === b.batch_id) sessionStore.setBatch(null);
          notify('success', `${r.message[0] ?? 'Batch cleared'}: ${b.file_name} can be uploaded again.`);
        } catch (err) {
          notify('error', serverMessage(err));
        }
      },
    });
  const pending = (b: BatchRow) => b.batch_status === 'Pending' && b.payout_type === 'Batch Payout';

  return (
    <Paper>
      <ListTable
        id={recent ? 'recent-batches' : 'batches'}
        label={recent ? 'Recent batches' : 'Batches'}
        columns={COLUMNS}
        rows={rows}
        rowKey={(b) => b.batch_id}
        rowFresh={(b) => fresh(b.batch_id)}
        action={{
          label: 'Action',
          cell: (b) => (
            <Stack direction="row" spacing={1}>
              {/* the spec's name; what it does is said on hover and to screen readers */}
              <Tooltip title={EXPORT_BATCH_HINT} describeChild>
                <span>
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
                </span>
              </Tooltip>
              {pending(b) ? (
                <>
                  <Button
                    size="small"
                    onClick={() => reopen(b)}
                    aria-label={`Review batch ${b.batch_id}`}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    Review
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => askClear(b)}
                    aria-label={`Clear batch ${b.batch_id}`}
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    Clear
                  </Button>
                </>
              ) : null}
            </Stack>
          ),
        }}
        toolbar={
          <>
            {recent ? null : (
              <OptionSelect
                label="Batch status"
                value={status}
                options={STATUS_CHOICES}
                onChange={(v) => url.update({ status: v, ...FIRST_PAGE })}
              />
            )}
            <SearchField
              value={text}
              onChange={setText}
              placeholder="Batch ID or file name"
              helperText="Contains: batch ID or file name"
            />
          </>
        }
        sx={{ maxHeight: '70vh' }}
        loading={q.isLoading}
        empty={{
          text: recent ? 'No batch uploaded in last 24 hours' : undefined,
          clear: clearFilters(url, ['q', 'status']),
          create: upload,
        }}
      />
      {dialog}
      <Pager page={paging.page} pages={pageCount(total, BATCH_PER_PAGE)} onPage={paging.setPage} />
    </Paper>
  );
}
