import { DOWNLOADS_PER_PAGE, type DownloadFile } from '@obol/contract';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, CircularProgress, Paper, Stack, TableCell, TableRow, TextField } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { pageCount, usePaging } from '../../lib/paging.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { ListTable } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { downloadFile } from './api/downloadFile.ts';
import { downloadFilesQuery } from './api/downloadFiles.ts';

/** While a file is still being generated the list asks again this often. */
export const DOWNLOADS_POLL_MS = 5000;

const COLUMNS = ['File Name', 'Date Range', 'Status', 'Created At', 'Action'];

const dateRange = (f: DownloadFile) =>
  f.start_date && f.end_date ? `${f.start_date} – ${f.end_date}` : (f.start_date ?? f.end_date ?? '-');

/**
 * The generated files of one kind: transaction files (type 0), reports (type 1) or 2D transaction files
 * (accounting). Search by file name or date; 20 a page; a file downloads once it is Completed.
 */
export function DownloadsPage({ type, accounting, title }: { type: 0 | 1; accounting: boolean; title: string }) {
  const { notify } = useNotify();
  const paging = usePaging(DOWNLOADS_PER_PAGE);
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 1000);
  const [lastSearch, setLastSearch] = useState(search);
  if (lastSearch !== search) {
    setLastSearch(search);
    paging.reset();
  }
  const [downloading, setDownloading] = useState<number | null>(null);
  const body = { per_page: DOWNLOADS_PER_PAGE, page: paging.page, search, type, accounting };
  const q = useQuery({
    ...downloadFilesQuery(body),
    placeholderData: keepPreviousData,
    // files still being generated turn Completed by themselves
    refetchInterval: (query) =>
      query.state.data?.data.some((f) => f.status === 'Initiated') ? DOWNLOADS_POLL_MS : false,
  });
  const total = q.data?.total;
  paging.clamp(total, !!q.data && !q.isPlaceholderData);
  const rows = q.data?.data ?? [];

  const download = async (f: DownloadFile) => {
    setDownloading(f.id);
    try {
      await downloadFile(f);
    } catch (err) {
      notify('error', errorMessage(err));
    } finally {
      setDownloading(null);
      void q.refetch();
    }
  };

  return (
    <>
      <PageTitle>{title}</PageTitle>
      <Paper>
        <Stack direction="row" sx={{ p: 2 }}>
          <TextField
            size="small"
            label="Search"
            slotProps={{ htmlInput: { 'data-search-input': true } }}
            placeholder="File name or date (YYYY-MM-DD)"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            sx={{ minWidth: 300 }}
          />
        </Stack>
        <ListTable columns={COLUMNS} sx={{ maxHeight: '70vh' }} loading={q.isLoading} empty={!rows.length}>
          {rows.map((f) => (
            <TableRow key={f.id} hover>
              <TableCell sx={{ wordBreak: 'break-all' }}>{f.file_name}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateRange(f)}</TableCell>
              <TableCell>
                <StatusChip status={f.status} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{localDateTime(f.created_at)}</TableCell>
              <TableCell>
                <Button
                  size="small"
                  variant="outlined"
                  aria-label={`Download ${f.file_name}`}
                  disabled={f.is_download !== 1 || downloading !== null}
                  onClick={() => download(f)}
                  startIcon={
                    downloading === f.id ? <CircularProgress size={14} color="inherit" /> : <FileDownloadIcon />
                  }
                >
                  Download
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
        <Pager page={paging.page} pages={pageCount(total, DOWNLOADS_PER_PAGE)} onPage={paging.setPage} />
      </Paper>
    </>
  );
}
