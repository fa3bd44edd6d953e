import { HISTORY_STATUS_OPTIONS, MSG, type HistoryRow } from '@obol/contract';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SearchIcon from '@mui/icons-material/Search';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { centsError, clearFilters } from '../../lib/filters.ts';
import { FIRST_PAGE, usePagedList, usePaging } from '../../lib/paging.ts';
import { serverMessage } from '../../lib/serverMessage.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { batchHistoryQuery } from './api/batchHistory.ts';
import { useExportBatchHistory } from './api/exportBatchHistory.ts';
import { HISTORY_COLUMNS } from './columns.tsx';
import { TransactionDialog, ViewDetailsButton } from './DetailsDialog.tsx';
import { ExportButton } from '../../ui/ExportButton.tsx';

const PER_PAGE = 10;
type HistoryStatus = (typeof HISTORY_STATUS_OPTIONS)[number]['status'];
const STATUS_CHOICES = HISTORY_STATUS_OPTIONS.map((o): { label: string; value: HistoryStatus } => ({
  label: o.label,
  value: o.status,
}));

type Range = { min: string; max: string };
const NO_RANGE: Range = { min: '', max: '' };
const rangeError = (v: string) => (v.trim() ? centsError(v) : MSG.required);

/** The amount range in the URL (`min`, `max`): both whole cents, or none. */
function rangeFromUrl(params: URLSearchParams): Range | null {
  const r = { min: params.get('min') ?? '', max: params.get('max') ?? '' };
  return rangeError(r.min) || rangeError(r.max) ? null : r;
}

/** The transactions of the current batch: amount range, status, export and details. */
export function TransactionHistoryPage() {
  const session = useSession();
  const navigate = useNavigate();
  const batch = session?.batch;
  const canSearch = hasPermission(session, 'User can search');
  const canExport = hasPermission(session, 'User can export transactions');
  const url = useUrlParams();
  const paging = usePaging(PER_PAGE, [PER_PAGE], url);
  const status = oneOf(
    url.params.get('status'),
    STATUS_CHOICES.map((c) => c.value),
    '',
  );
  const applied = rangeFromUrl(url.params);
  const appliedKey = applied ? `${applied.min}-${applied.max}` : '';
  const [draft, setDraft] = useState<Range>(applied ?? NO_RANGE);
  const [seen, setSeen] = useState(appliedKey);
  const [errors, setErrors] = useState<Partial<Range>>({});
  if (seen !== appliedKey) {
    // back, forward or a link changed the range: the fields follow
    setSeen(appliedKey);
    setDraft(applied ?? NO_RANGE);
    setErrors({});
  }
  const [shown, setShown] = useState<HistoryRow | null>(null);
  const exporting = useExportBatchHistory();
  const batchId = batch?.batch_id ?? '';
  const body = {
    batch_id: batchId,
    status,
    per_page: PER_PAGE,
    page: paging.page,
    ...(applied ? { min_amount: Number(applied.min), max_amount: Number(applied.max) } : {}),
  };
  const list = usePagedList(
    paging,
    {
      ...batchHistoryQuery(body),
      enabled: !!batchId,
      // a refusal (a batch still processing, a bad range) is not worth repeating
      retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status < 500),
    },
    (a) => a,
  );
  const { q, total } = list;
  if (!batch) return null; // the route sends the user to /batch-transactions

  const apiErr = q.error instanceof ApiError ? q.error : null;
  const fieldErrs = apiErr?.body?.fields ? apiErr : null;
  // a server refusal of the range shows under its field until the value changes
  const serverField = (key: 'min' | 'max') =>
    applied && draft[key] === applied[key] ? fieldErrs?.fieldError(`${key}_amount`) : undefined;
  /** a bound's field props: what is typed, its change, and its error (the form's, else the server's) */
  const rangeField = (key: keyof Range) => {
    const help = errors[key] ?? serverField(key);
    return {
      value: draft[key],
      onChange: (e: { target: { value: string } }) => {
        setDraft((d) => ({ ...d, [key]: e.target.value }));
        setErrors((errs) => ({ ...errs, [key]: undefined }));
      },
      error: !!help,
      helperText: help,
    };
  };
  const applyRange = () => {
    const errs = { min: rangeError(draft.min), max: rangeError(draft.max) };
    if (errs.min || errs.max) return setErrors(errs);
    const next = { min: draft.min.trim(), max: draft.max.trim() };
    if (applied && applied.min === next.min && applied.max === next.max) {
      if (paging.page === 1) void q.refetch();
      else paging.reset();
      return;
    }
    url.update({ ...next, ...FIRST_PAGE });
  };
  const clearRange = () => {
    setDraft(NO_RANGE);
    setErrors({});
    if (!applied && paging.page === 1) void q.refetch();
    url.update({ min: null, max: null, ...FIRST_PAGE });
  };
  const exportHistory = (format: 'csv' | 'xlsx') => exporting.mutateAsync({ batch_id: batchId, status, format });

  return (
    <>
      <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/batch-transactions')} sx={{ mb: 1 }}>
        Back
      </Button>
      <PageTitle>Transaction History</PageTitle>
      <Typography component="h2" variant="subtitle1" sx={{ mb: 2, fontWeight: 500 }}>
        Batch {batch.batch_id}
        <CopyButton text={batch.batch_id} label={`Copy batch id ${batch.batch_id}`} /> · {batch.file_name}
      </Typography>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ alignItems: { md: 'flex-start' }, justifyContent: 'space-between' }}
        >
          {canSearch ? (
            <Box
              component="form"
              aria-label="Amount filter"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                applyRange();
              }}
              sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'flex-start' }}
            >
              <TextField
                size="small"
                type="number"
                label="Min Amount (in cents)"
                {...rangeField('min')}
                slotProps={{ htmlInput: { min: 0, step: 1, 'data-search-input': true } }}
              />
              <TextField
                size="small"
                type="number"
                label="Max Amount (in cents)"
                {...rangeField('max')}
                slotProps={{ htmlInput: { min: 0, step: 1 } }}
              />
              <Button type="submit" variant="contained" startIcon={<SearchIcon />}>
                Search
              </Button>
              <Button onClick={clearRange}>Clear</Button>
            </Box>
          ) : (
            <Box />
          )}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <OptionSelect
              label="Status"
              value={status}
              options={STATUS_CHOICES}
              onChange={(v) => url.update({ status: v, ...FIRST_PAGE })}
            />
            {canExport ? <ExportButton disabled={!total} onExport={exportHistory} /> : null}
          </Stack>
        </Stack>
      </Paper>
      {apiErr && !fieldErrs ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {serverMessage(apiErr)}
        </Alert>
      ) : null}
      <PagedTable
        id="transaction-history"
        label="Transactions of the batch"
        columns={HISTORY_COLUMNS}
        list={list}
        action={{ label: 'Action', cell: (t) => <ViewDetailsButton onClick={() => setShown(t)} /> }}
        sx={{ maxHeight: '70vh' }}
        empty={{ clear: clearFilters(url, ['min', 'max', 'status']) }}
      />
      <TransactionDialog details={shown} variant="reason" onClose={() => setShown(null)} />
    </>
  );
}
