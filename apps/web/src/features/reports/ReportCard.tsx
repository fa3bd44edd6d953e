import { REPORTS, type ReportKind } from '@obol/contract';
import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage, exportErrorMessage } from '../../lib/api.ts';
import { today } from '../../lib/dates.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { pullReport, scheduleReport } from './api/reports.ts';
import { FeeChart } from './FeeChart.tsx';
import { HolderPicker } from './HolderPicker.tsx';
import { MonthlySchedules } from './MonthlySchedules.tsx';
import { reportRequest, type Choice, type ReportFormat } from './reportForm.ts';
import { PullButton, ReportSection } from './ReportSection.tsx';
import { DateField, dateTextError } from '../../ui/DateField.tsx';

/**
 * One report's card: the merchant or brand (Select All where the report offers it), the dates (up to today; one
 * date is that day, a reversed range is reordered by the server), the format; Pull Report stays disabled until a
 * holder and a date are chosen. The file is then written in the background into Download Reports.
 */
export function ReportCard({
  kind,
  expanded,
  onToggle,
}: {
  kind: ReportKind;
  expanded: boolean;
  onToggle: () => void;
}) {
  const report = REPORTS.find((r) => r.kind === kind)!;
  const { notify, notifyDownload } = useNotify();
  const client = useQueryClient();
  const [holder, setHolder] = useState<Choice | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [format, setFormat] = useState<ReportFormat>('csv');
  const pull = useMutation({
    mutationFn: () => pullReport(kind, reportRequest(holder!, start, end, format)),
    onSuccess: async () => {
      notifyDownload('reports');
      await client.invalidateQueries({ queryKey: queryKeys.downloadFiles });
    },
    onError: (err) => notify('error', exportErrorMessage(err)),
  });
  const schedule = useMutation({
    mutationFn: () => scheduleReport({ kind, name: holder!.name, auth_id: holder!.id, format }),
    onSuccess: async (r) => {
      notify('success', r.message[0]);
      await client.invalidateQueries({ queryKey: ['report-schedules'] });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  const max = today();
  const ready = !!holder && !!(start || end) && !dateTextError(start) && !dateTextError(end);

  return (
    <ReportSection
      id={`report-${kind}`}
      title={report.title}
      description={report.description}
      expanded={expanded}
      onToggle={onToggle}
      after={
        <>
          <MonthlySchedules kind={kind} title={report.title} enabled={expanded} />
          {kind === 'fees' ? (
            <Box sx={{ mt: 3, maxWidth: 640 }}>
              <FeeChart enabled={expanded} />
            </Box>
          ) : null}
        </>
      }
    >
      <HolderPicker value={holder} onChange={setHolder} enabled={expanded} selectAll={report.selectAll} />
      <DateField size="small" label="Start Date" value={start} onChange={setStart} max={max} />
      <DateField
        size="small"
        label="End Date"
        value={end}
        onChange={setEnd}
        helperText="One date: that day"
        max={max}
      />
      <TextField
        select
        size="small"
        label="Format"
        value={format}
        onChange={(e) => setFormat(e.target.value as ReportFormat)}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="csv">CSV</MenuItem>
        <MenuItem value="xlsx">Excel (XLSX)</MenuItem>
      </TextField>
      <PullButton ready={ready} pending={pull.isPending} onClick={() => pull.mutate()} />
      <Button
        variant="outlined"
        disabled={!holder || schedule.isPending}
        onClick={() => schedule.mutate()}
        sx={{ height: 40 }}
      >
        Schedule monthly
      </Button>
    </ReportSection>
  );
}
