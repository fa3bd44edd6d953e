import { ACTIVITY_PER_PAGE, FILTER_MSG, STAFF_ROLES, isCalendarDate, type ActivityRow } from '@obol/contract';
import { Alert, Button, CircularProgress, Paper } from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { browserTimeZone, today } from '../../lib/dates.ts';
import { localDateTime } from '../../lib/format.ts';
import { FIRST_PAGE, pageCount, useClampPage, usePaging } from '../../lib/paging.ts';
import { useSession } from '../../lib/session.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { ListTable, type Column, type RowAction } from '../../ui/ListTable.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { ActivityDetailsDialog } from './ActivityDetailsDialog.tsx';
import { logsQuery } from './api/getLogs.ts';
import { verifyLogs } from './api/verifyLogs.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { DateField } from '../../ui/DateField.tsx';
import { clearFilters } from '../../lib/filters.ts';

const COLUMNS: Column<ActivityRow>[] = [
  { id: 'user', label: 'User Name', width: 120, pinned: true, card: 'title', cell: (r) => r.user_name ?? '-' },
  {
    id: 'email',
    label: 'User Email',
    width: 190,
    pinned: true,
    cell: (r) => <OneLine text={r.user_email ?? '-'} />,
  },
  { id: 'activity', label: 'Action', width: 260, pinned: true, cell: (r) => r.activity },
  {
    id: 'created_at',
    label: 'Date and Time',
    width: 180,
    pinned: true,
    nowrap: true,
    cell: (r) => localDateTime(r.created_at),
  },
];

/** The day filter: a real date up to today, or none. */
function dateError(date: string): string | undefined {
  if (!date) return undefined;
  if (!isCalendarDate(date)) return FILTER_MSG.dateInvalid;
  if (date > today()) return FILTER_MSG.dateFuture;
  return undefined;
}

/** The chain check: a button for staff, its result in an alert under the title. */
function useVerify() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: verifyLogs,
    // the check is itself recorded
    onSettled: () => qc.invalidateQueries({ queryKey: ['activity-logs'] }),
  });
}

/** The activity log: one day or all (up to today), 20 a page, newest first; a record's details; the chain check. */
export function ActivityLogsPage() {
  const url = useUrlParams();
  const paging = usePaging(ACTIVITY_PER_PAGE, [ACTIVITY_PER_PAGE], url);
  const date = url.params.get('date') ?? '';
  const error = dateError(date);
  // a date half typed stays in the field; the list and the URL keep the last whole one
  const [typing, setTyping] = useState<string | null>(null);
  const session = useSession();
  const staff = !!session && STAFF_ROLES.includes(session.user.role);
  const q = useQuery({
    ...logsQuery({ per_page: ACTIVITY_PER_PAGE, page: paging.page, date, tz: browserTimeZone() }),
    enabled: !error,
    placeholderData: keepPreviousData,
  });
  const page = q.data?.data[0];
  useClampPage(paging, page?.total, !!q.data && !q.isPlaceholderData);
  const [open, setOpen] = useState<ActivityRow | null>(null);
  const verify = useVerify();

  const action: RowAction<ActivityRow> = {
    label: 'Details',
    cell: (r) => (
      <Button
        size="small"
        variant="outlined"
        onClick={() => setOpen(r)}
        aria-label={`View details of ${r.activity} by ${r.user_name ?? 'unknown'} at ${localDateTime(r.created_at)}`}
        sx={{ whiteSpace: 'nowrap' }}
      >
        View details
      </Button>
    ),
  };

  return (
    <>
      <PageTitle>Activity Logs</PageTitle>
      {verify.data ? (
        <Alert
          severity={verify.data.intact ? 'success' : 'error'}
          onClose={() => verify.reset()}
          sx={{ mb: 2 }}
          data-testid="verify-result"
        >
          {verify.data.message[0]}
        </Alert>
      ) : verify.error ? (
        <Alert severity="error" onClose={() => verify.reset()} sx={{ mb: 2 }} data-testid="verify-result">
          {errorMessage(verify.error)}
        </Alert>
      ) : null}
      <Paper>
        <ListTable
          id="activity-logs"
          label="Activity Logs"
          columns={COLUMNS}
          rows={error ? [] : (page?.data ?? [])}
          rowKey={(r) => r.id}
          action={action}
          loading={!error && q.isLoading}
          empty={{ clear: clearFilters(url, ['date']) }}
          toolbar={
            <>
              <DateField
                size="small"
                label="Date"
                value={typing ?? date}
                onChange={(v) => {
                  const whole = !v || isCalendarDate(v);
                  setTyping(whole ? null : v);
                  if (whole) url.update({ date: v || null, ...FIRST_PAGE });
                }}
                error={!!error}
                helperText={error ?? 'One day, or empty for all'}
                max={today()}
              />
              {staff ? (
                <Button
                  variant="outlined"
                  onClick={() => verify.mutate()}
                  disabled={verify.isPending}
                  startIcon={verify.isPending ? <CircularProgress size={14} color="inherit" /> : undefined}
                  sx={{ whiteSpace: 'nowrap', alignSelf: 'flex-start' }}
                >
                  Verify chain
                </Button>
              ) : null}
            </>
          }
        />
        <Pager page={paging.page} pages={pageCount(page?.total, ACTIVITY_PER_PAGE)} onPage={paging.setPage} />
      </Paper>
      <ActivityDetailsDialog record={open} onClose={() => setOpen(null)} />
    </>
  );
}
