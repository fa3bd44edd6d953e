import { DOWNLOADS_PER_PAGE, type DownloadFile } from '@obol/contract';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Button, CircularProgress, Paper } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { useUrlSearch } from '../../lib/useUrlSearch.ts';
import { ListTable, type Column } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { SearchField } from '../../ui/SearchField.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { downloadFile } from './api/downloadFile.ts';
import { downloadFilesQuery } from './api/downloadFiles.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { useFresh, useLiveConnected } from '../../lib/live.tsx';
import { clearFilters } from '../../lib/filters.ts';

/** While a file is still being generated the list asks again this often. */
export const DOWNLOADS_POLL_MS = 5000;

const dateRange = (f: DownloadFile) =>
  f.start_date && f.end_date ? `${f.start_date} – ${f.end_date}` : (f.start_date ?? f.end_date ?? '-');

const COLUMNS: Column<DownloadFile>[] = [
  {
    id: 'file_name',
    label: 'File Name',
    width: 230,
    pinned: true,
    card: 'title',
    cell: (f) => <OneLine text={f.file_name} maxWidth={280} />,
  },
  { id: 'date_range', label: 'Date Range', width: 250, nowrap: true, cell: dateRange },
  {
    id: 'status',
    label: 'Status',
    width: 170,
    pinned: true,
    card: 'status',
    cell: (f) => <StatusChip status={f.status} />,
  },
  { id: 'created_at', label: 'Created At', width: 180, nowrap: true, cell: (f) => localDateTime(f.created_at) },
];

/**
 * The generated files of one kind: transaction files (type 0), reports (type 1) or 2D transaction files
 * (accounting). Search by file name or date; 20 a page; a file downloads once it is Completed.
 */
export function DownloadsPage({ type, accounting, title }: { type: 0 | 1; accounting: boolean; title: string }) {
  const fresh = useFresh('download');
  const live = useLiveConnected();
  const { notify } = useNotify();
  const url = useUrlParams();
  const paging = usePaging(DOWNLOADS_PER_PAGE, [DOWNLOADS_PER_PAGE], url);
  const { text, setText, search } = useUrlSearch(url);
  const [downloading, setDownloading] = useState<number | null>(null);
  const body = { per_page: DOWNLOADS_PER_PAGE, page: paging.page, search, type, accounting };
  const q = useQuery({
    ...downloadFilesQuery(body),
    placeholderData: keepPreviousData,
    // files still being generated turn Completed by themselves: the live stream says when, else the list asks
    refetchInterval: (query) =>
      !live && query.state.data?.data.some((f) => f.status === 'Initiated') ? DOWNLOADS_POLL_MS : false,
  });
  const total = q.data?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
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
        <ListTable
          id={`downloads-${type}${accounting ? '-accounting' : ''}`}
          label={title}
          columns={COLUMNS}
          rows={rows}
          rowKey={(f) => f.id}
          rowFresh={(f) => fresh(f.id)}
          action={{
            label: 'Action',
            cell: (f) => (
              <Button
                size="small"
                variant="outlined"
                aria-label={`Download ${f.file_name}`}
                disabled={f.is_download !== 1 || downloading !== null}
                onClick={() => download(f)}
                startIcon={downloading === f.id ? <CircularProgress size={14} color="inherit" /> : <FileDownloadIcon />}
              >
                Download
              </Button>
            ),
          }}
          toolbar={
            <SearchField
              value={text}
              onChange={setText}
              placeholder="File name or date (YYYY-MM-DD)"
              helperText="File name contains it, or a date the file was made or covers"
              minWidth={300}
            />
          }
          sx={{ maxHeight: '70vh' }}
          loading={q.isLoading}
          empty={{ clear: clearFilters(url, ['q']) }}
        />
        <Pager page={paging.page} pages={pageCount(total, DOWNLOADS_PER_PAGE)} onPage={paging.setPage} />
      </Paper>
    </>
  );
}
