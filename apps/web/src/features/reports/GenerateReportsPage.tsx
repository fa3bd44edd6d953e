import {
  currentMonth,
  INVOICE_FIRST_MONTH,
  PAYMENT_MSG,
  REPORT_SELECT_ALL,
  REPORTS,
  reportOps,
  type ReportKind,
} from '@obol/contract';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { call, errorMessage } from '../../lib/api.ts';
import { browserTimeZone, today } from '../../lib/dates.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { hasPermission, useSession } from '../../lib/session.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { FeeChart } from './FeeChart.tsx';

interface Choice {
  id: number;
  name: string;
  kind: string;
}
const SELECT_ALL: Choice = { id: REPORT_SELECT_ALL, name: 'Select All', kind: '' };

const holdersQuery = (search: string) =>
  queryOptions({
    queryKey: ['report-holders', search],
    queryFn: () => call(reportOps.reportHolders, { search }),
    placeholderData: keepPreviousData,
  });

const schedulesQuery = queryOptions({
  queryKey: ['report-schedules'],
  queryFn: () => call(reportOps.reportSchedules, undefined),
});

const OPS = {
  activity: reportOps.activityReport,
  batch_payouts: reportOps.payoutReport,
  failed: reportOps.failedReport,
  fees: reportOps.feeReport,
} as const;

/**
 * One report's card: the merchant or brand (Select All where the report offers it), the dates (up to today; one
 * date is that day, a reversed range is reordered by the server), the format; Pull Report stays disabled until a
 * holder and a date are chosen. The file is then written in the background into Download Reports.
 */
/**
 * The merchant or brand of a report (searched on the server a moment after typing stops): with Select All first
 * where the report offers it, or merchants only (invoices).
 */
function HolderPicker({
  value,
  onChange,
  enabled,
  selectAll = false,
  merchantsOnly = false,
  label = 'Merchant or brand',
}: {
  value: Choice | null;
  onChange: (v: Choice | null) => void;
  enabled: boolean;
  selectAll?: boolean;
  merchantsOnly?: boolean;
  label?: string;
}) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), 400);
    return () => clearTimeout(t);
  }, [typed]);
  const holders = useQuery({ ...holdersQuery(search), enabled });
  const options: Choice[] = [
    ...(selectAll ? [SELECT_ALL] : []),
    ...(holders.data?.data ?? []).flatMap((m) => [
      { id: m.id, name: m.name, kind: m.roles[0]?.name ?? '' },
      ...(merchantsOnly ? [] : m.active_brands.map((b) => ({ id: b.id, name: b.name, kind: b.roles[0]?.name ?? '' }))),
    ]),
  ].filter((o) => !merchantsOnly || o.kind === 'Merchant');
  return (
    <>
      <Autocomplete
        sx={{ minWidth: 260, flex: 1 }}
        options={options}
        filterOptions={(o) => o}
        getOptionLabel={(o) => (o.id === REPORT_SELECT_ALL ? o.name : `${o.name} (${o.kind})`)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={value}
        onChange={(_, v) => onChange(v)}
        onInputChange={(_, v, reason) => reason === 'input' && setTyped(v)}
        loading={holders.isFetching}
        noOptionsText={PAYMENT_MSG.noHolder}
        renderInput={(params) => <TextField {...params} size="small" label={label} />}
      />
      {holders.isError ? <Alert severity="error">{errorMessage(holders.error)}</Alert> : null}
    </>
  );
}

function ReportCard({ kind, expanded, onToggle }: { kind: ReportKind; expanded: boolean; onToggle: () => void }) {
  const report = REPORTS.find((r) => r.kind === kind)!;
  const { notify, notifyDownload } = useNotify();
  const client = useQueryClient();
  const [holder, setHolder] = useState<Choice | null>(null);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [format, setFormat] = useState<'csv' | 'xlsx'>('csv');
  const pull = useMutation({
    mutationFn: () =>
      call(OPS[kind], {
        name: holder!.name,
        auth_id: holder!.id,
        start_date: start || end,
        end_date: end || start,
        tz: browserTimeZone(),
        format,
      }),
    onSuccess: async () => {
      notifyDownload('reports');
      await client.invalidateQueries({ queryKey: queryKeys.downloadFiles });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  const schedules = useQuery({ ...schedulesQuery, enabled: expanded });
  const mine = (schedules.data?.data ?? []).filter((x) => x.kind === kind);
  const schedule = useMutation({
    mutationFn: () => call(reportOps.scheduleReport, { kind, name: holder!.name, auth_id: holder!.id, format }),
    onSuccess: async (r) => {
      notify('success', r.message[0]);
      await client.invalidateQueries({ queryKey: ['report-schedules'] });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  const unschedule = useMutation({
    mutationFn: (scheduleId: number) => call(reportOps.unscheduleReport, { id: scheduleId }),
    onSuccess: async (r) => {
      notify('success', r.message[0]);
      await client.invalidateQueries({ queryKey: ['report-schedules'] });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  const max = today();
  const ready = !!holder && !!(start || end);
  const id = `report-${kind}`;

  return (
    <Accordion expanded={expanded} onChange={onToggle} disableGutters>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`${id}-content`} id={`${id}-header`}>
        <Box>
          <Typography component="h2" sx={{ fontWeight: 600 }}>
            {report.title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {report.description}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { md: 'flex-start' }, flexWrap: 'wrap' }}
        >
          <HolderPicker value={holder} onChange={setHolder} enabled={expanded} selectAll={report.selectAll} />
          <TextField
            size="small"
            type="date"
            label="Start Date"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max } }}
          />
          <TextField
            size="small"
            type="date"
            label="End Date"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            helperText="One date: that day"
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max } }}
          />
          <TextField
            select
            size="small"
            label="Format"
            value={format}
            onChange={(e) => setFormat(e.target.value as 'csv' | 'xlsx')}
            sx={{ minWidth: 140 }}
          >
            <MenuItem value="csv">CSV</MenuItem>
            <MenuItem value="xlsx">Excel (XLSX)</MenuItem>
          </TextField>
          <Button
            variant="contained"
            disabled={!ready || pull.isPending}
            startIcon={pull.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            onClick={() => pull.mutate()}
            sx={{ height: 40 }}
          >
            Pull Report
          </Button>
          <Button
            variant="outlined"
            disabled={!holder || schedule.isPending}
            onClick={() => schedule.mutate()}
            sx={{ height: 40 }}
          >
            Schedule monthly
          </Button>
        </Stack>
        {mine.length ? (
          <Box
            component="ul"
            aria-label={`Monthly ${report.title} reports`}
            sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}
          >
            {mine.map((x) => (
              <Stack component="li" key={x.id} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Typography variant="body2">
                  Monthly for {x.auth_id === REPORT_SELECT_ALL ? 'all' : x.name || `#${x.auth_id}`} (
                  {x.format.toUpperCase()}
                  ), next on {x.next_run.slice(0, 10)}, mailed to you
                </Typography>
                <Button size="small" onClick={() => unschedule.mutate(x.id)} disabled={unschedule.isPending}>
                  Remove
                </Button>
              </Stack>
            ))}
          </Box>
        ) : null}
        {kind === 'fees' ? (
          <Box sx={{ mt: 3, maxWidth: 640 }}>
            <FeeChart enabled={expanded} />
          </Box>
        ) : null}
      </AccordionDetails>
    </Accordion>
  );
}

/**
 * Invoices: a merchant and a month (2022-12 to this month); the PDF is issued with the next number of the year, or
 * is the one issued before for that month, and lands in Download Reports.
 */
function InvoiceCard({ expanded, onToggle }: { expanded: boolean; onToggle: () => void }) {
  const { notify, notifyDownload } = useNotify();
  const client = useQueryClient();
  const [merchant, setMerchant] = useState<Choice | null>(null);
  const [month, setMonth] = useState('');
  const max = currentMonth();
  const issue = useMutation({
    mutationFn: () => call(reportOps.invoice, { name: merchant!.name, merchant_id: merchant!.id, date: month }),
    onSuccess: async (r) => {
      notifyDownload('reports', `Invoice ${r.invoice.number}: ${r.message[0]}`);
      await client.invalidateQueries({ queryKey: queryKeys.downloadFiles });
    },
    onError: (err) => notify('error', errorMessage(err)),
  });
  const ready = !!merchant && /^\d{4}-\d{2}$/.test(month) && month >= INVOICE_FIRST_MONTH && month <= max;
  return (
    <Accordion expanded={expanded} onChange={onToggle} disableGutters>
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls="report-invoice-content"
        id="report-invoice-header"
      >
        <Box>
          <Typography component="h2" sx={{ fontWeight: 600 }}>
            Invoices
          </Typography>
          <Typography variant="body2" color="text.secondary">
            A merchant&apos;s monthly invoice of fees, as a PDF numbered without gaps
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { md: 'flex-start' }, flexWrap: 'wrap' }}
        >
          <HolderPicker value={merchant} onChange={setMerchant} enabled={expanded} merchantsOnly label="Merchant" />
          <TextField
            size="small"
            type="month"
            label="Month"
            value={month}
            onChange={(e) => setMonth(e.target.value)}
            helperText={`${INVOICE_FIRST_MONTH} to ${max}`}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: INVOICE_FIRST_MONTH, max } }}
          />
          <Button
            variant="contained"
            disabled={!ready || issue.isPending}
            startIcon={issue.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            onClick={() => issue.mutate()}
            sx={{ height: 40 }}
          >
            Pull Report
          </Button>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}

/**
 * Generate Reports (document 2, section 2.5): an accordion card per report, each only with its permission; the
 * file of a pulled report appears in Download Reports (Initiated, then Completed).
 */
export function GenerateReportsPage() {
  const session = useSession();
  const shown = REPORTS.filter((r) => hasPermission(session, r.permission));
  const invoices = hasPermission(session, 'User can generate invoices');
  const [open, setOpen] = useState<ReportKind | 'invoice' | null>(shown[0]?.kind ?? (invoices ? 'invoice' : null));
  return (
    <>
      <PageTitle>Generate the following reports</PageTitle>
      {shown.length || invoices ? (
        <Box sx={{ maxWidth: 1100 }}>
          {shown.map((r) => (
            <ReportCard
              key={r.kind}
              kind={r.kind}
              expanded={open === r.kind}
              onToggle={() => setOpen(open === r.kind ? null : r.kind)}
            />
          ))}
          {invoices ? (
            <InvoiceCard
              expanded={open === 'invoice'}
              onToggle={() => setOpen(open === 'invoice' ? null : 'invoice')}
            />
          ) : null}
        </Box>
      ) : (
        <Alert severity="info">Your role pulls no reports.</Alert>
      )}
    </>
  );
}
