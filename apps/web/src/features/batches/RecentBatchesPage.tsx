import { MSG } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Box,
  Chip,
  CircularProgress,
  IconButton,
  Pagination,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { sessionStore } from '../../lib/session.ts';
import { api } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

export interface BatchRow {
  batch_id: string;
  payout_type: string;
  uploaded_by: { name: string };
  account_used: { name: string };
  behalf_of: { name: string } | null;
  file_name: string;
  updated_at: string;
  batch_status: string;
}
const PER_PAGE = 10;
const COLORS: Record<string, 'success' | 'warning' | 'error' | 'info'> = {
  Completed: 'success',
  Pending: 'warning',
  Declined: 'error',
  Processing: 'info',
};

/** Batches of the last 24 hours. */
export function RecentBatchesPage() {
  const { notify } = useNotify();
  const location = useLocation();
  const [page, setPage] = useState(1);
  // arriving from an executed batch: it is no longer the current one
  useEffect(() => {
    const executed = (location.state as { clearBatch?: string } | null)?.clearBatch;
    if (executed && sessionStore.get()?.batch?.batch_id === executed) sessionStore.setBatch(null);
  }, [location.state]);
  const q = useQuery({
    queryKey: ['recent-batches', page],
    queryFn: () => api<{ data: BatchRow[]; total: number }>('/api/recent-batches', { per_page: PER_PAGE, page }),
    placeholderData: keepPreviousData,
    refetchInterval: 300_000,
  });
  const pages = Math.max(1, Math.ceil((q.data?.total ?? 0) / PER_PAGE));
  if (q.data && !q.isPlaceholderData && page > pages) setPage(pages);
  const copy = async (id: string) => {
    await navigator.clipboard?.writeText(id).catch(() => undefined);
    notify('success', MSG.copied, 'Success!');
  };
  return (
    <>
      <PageTitle>Recent Batches</PageTitle>
      <Paper>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                {[
                  'Batch ID',
                  'Payout Type',
                  'Uploaded By',
                  'Account Used',
                  'Behalf Of',
                  'File Name',
                  'Timestamp',
                  'Batch Status',
                ].map((h) => (
                  <TableCell key={h}>{h}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {q.isLoading ? (
                <TableRow>
                  <TableCell colSpan={8} align="center">
                    <CircularProgress size={24} />
                  </TableCell>
                </TableRow>
              ) : !q.data?.data.length ? (
                <TableRow>
                  <TableCell colSpan={8} align="center">
                    No batch uploaded in last 24 hours
                  </TableCell>
                </TableRow>
              ) : (
                q.data.data.map((b) => (
                  <TableRow key={b.batch_id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {b.batch_id}
                      <IconButton
                        size="small"
                        aria-label={`Copy batch id ${b.batch_id}`}
                        onClick={() => copy(b.batch_id)}
                      >
                        <ContentCopyIcon fontSize="inherit" />
                      </IconButton>
                    </TableCell>
                    <TableCell>{b.payout_type}</TableCell>
                    <TableCell>{b.uploaded_by.name}</TableCell>
                    <TableCell>{b.account_used.name}</TableCell>
                    <TableCell>{b.behalf_of?.name ?? '-'}</TableCell>
                    <TableCell>{b.file_name}</TableCell>
                    <TableCell>{localDateTime(b.updated_at)}</TableCell>
                    <TableCell>
                      <Chip size="small" color={COLORS[b.batch_status] ?? 'default'} label={b.batch_status} />
                    </TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
        </Box>
      </Paper>
    </>
  );
}
