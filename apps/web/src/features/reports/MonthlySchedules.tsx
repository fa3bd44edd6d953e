import { REPORT_SELECT_ALL, type ReportKind } from '@obol/contract';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { reportSchedulesQuery, unscheduleReport } from './api/reports.ts';

/** The caller's monthly reports of one kind (read once its card is open), each with Remove; nothing when none. */
export function MonthlySchedules({ kind, title, enabled }: { kind: ReportKind; title: string; enabled: boolean }) {
  const { notify } = useNotify();
  const client = useQueryClient();
  const schedules = useQuery({ ...reportSchedulesQuery, enabled });
  const mine = (schedules.data?.data ?? []).filter((x) => x.kind === kind);
  const unschedule = useMutation({
    mutationFn: (scheduleId: number) => unscheduleReport(scheduleId),
    onSuccess: async (r) => {
      notify('success', r.message[0]);
      await client.invalidateQueries({ queryKey: ['report-schedules'] });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  return mine.length ? (
    <Box component="ul" aria-label={`Monthly ${title} reports`} sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
      {mine.map((x) => (
        <Stack component="li" key={x.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2">
            Monthly for {x.auth_id === REPORT_SELECT_ALL ? 'all' : x.name || `#${x.auth_id}`} ({x.format.toUpperCase()}
            ), next on {x.next_run.slice(0, 10)}, mailed to you
          </Typography>
          <Button size="small" onClick={() => unschedule.mutate(x.id)} disabled={unschedule.isPending}>
            Remove
          </Button>
        </Stack>
      ))}
    </Box>
  ) : null;
}
