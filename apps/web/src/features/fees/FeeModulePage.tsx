import type { FeeRow } from '@obol/contract';
import {
  Alert,
  Box,
  Button,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { useSearchedList } from '../../lib/useSearchedList.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import type { Column, RowAction } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { SearchedTable } from '../../ui/SearchedTable.tsx';
import { feeIncomeQuery, feeListQuery } from './api/fees.ts';
import { EditFeeDialog, FeeHistoryDialog } from './FeeDialogs.tsx';
import { OneLine } from '../../ui/OneLine.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { DateField, dateTextError } from '../../ui/DateField.tsx';

const PER_PAGE = 10;
const GROUPS = [
  { label: 'By day', value: 'day' },
  { label: 'By month', value: 'month' },
] as const;

const COLUMNS: Column<FeeRow>[] = [
  { id: 'name', label: 'Name', width: 140, pinned: true, card: 'title', cell: (r) => r.name },
  { id: 'email', label: 'Email', width: 220, cell: (r) => <OneLine text={r.email} /> },
  {
    id: 'role',
    label: 'Type',
    width: 110,
    cell: (r) => <StatusChip status={r.role} tone="grey" />,
  },
  { id: 'merchant', label: 'Merchant', width: 140, cell: (r) => r.parent?.name ?? '-' },
  {
    id: 'fee',
    label: 'Fee',
    width: 85,
    pinned: true,
    card: 'status',
    cell: (r) => <Box sx={{ fontVariantNumeric: 'tabular-nums', fontWeight: 600 }}>{r.fee}%</Box>,
  },
  {
    id: 'changed',
    label: 'Last Changed',
    width: 140,
    nowrap: true,
    cell: (r) => (r.changed_at ? localDateTime(r.changed_at) : '-'),
  },
];

/**
 * The Fee Account's income per UTC day or month between two dates (the last 30 days until chosen): fees taken less
 * fees returned, as the server sums them; money the Admin moves out of the account is not income and is left out.
 */
function IncomeCard() {
  const [group, setGroup] = useState<'day' | 'month'>('day');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const q = useQuery({
    ...feeIncomeQuery({ group, start_date: start, end_date: end }),
    placeholderData: keepPreviousData,
    // a date half typed is not asked for: the last answer stays until it is a date
    enabled: !dateTextError(start) && !dateTextError(end),
  });
  const max = new Date().toISOString().slice(0, 10);
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, mb: 2 }} component="section" aria-labelledby="fee-income-title">
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 2 }}>
        <Typography id="fee-income-title" component="h2" variant="h6">
          Fee income (net of fees returned)
        </Typography>
        <Typography variant="body2" color="textSecondary">
          Fees taken, less fees returned; transfers out of the Fee Account are not counted, UTC
        </Typography>
        <Typography component="p" variant="h5" sx={{ ml: 'auto', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {q.data ? euro(q.data.total) : '-'}
        </Typography>
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <OptionSelect label="Group" value={group} options={GROUPS} onChange={setGroup} minWidth={140} />
        <DateField label="From" value={start} onChange={setStart} max={max} />
        <DateField label="To" value={end} onChange={setEnd} max={max} />
      </Stack>
      {q.isError ? (
        <Alert severity="error">{errorMessage(q.error)}</Alert>
      ) : !q.data ? (
        <Skeleton variant="rounded" height={80} />
      ) : q.data.data.length === 0 ? (
        <Typography color="textSecondary">
          No Fee Account movement from {q.data.start_date} to {q.data.end_date}.
        </Typography>
      ) : (
        <Box sx={{ maxHeight: 280, overflow: 'auto' }}>
          <Table size="small" aria-label="Fee income by period">
            <TableHead>
              <TableRow>
                <TableCell>{group === 'day' ? 'Day' : 'Month'}</TableCell>
                <TableCell align="right">Net change</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {q.data.data.map((d) => (
                <TableRow key={d.period}>
                  <TableCell>{d.period}</TableCell>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {euro(d.amount)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}

/**
 * The Fee Module (DECISIONS.md): every merchant's and brand's fee, changed with a reason and with its history,
 * and the fee income per day or month.
 */
export function FeeModulePage() {
  const url = useUrlParams();
  const list = useSearchedList(
    url,
    PER_PAGE,
    'Name or email contains',
    (page, search) => feeListQuery({ per_page: PER_PAGE, page, search }),
    (a) => a,
  );
  const [editing, setEditing] = useState<FeeRow | null>(null);
  const [history, setHistory] = useState<FeeRow | null>(null);
  const action: RowAction<FeeRow> = {
    label: 'Action',
    cell: (r) => (
      <Stack direction="row" spacing={1}>
        <Button size="small" variant="outlined" onClick={() => setEditing(r)} aria-label={`Edit the fee of ${r.name}`}>
          Edit
        </Button>
        <Button size="small" onClick={() => setHistory(r)} aria-label={`Fee history of ${r.name}`}>
          History
        </Button>
      </Stack>
    ),
  };

  return (
    <>
      <PageTitle>Fee Module</PageTitle>
      <IncomeCard />
      <SearchedTable
        id="fee-module"
        label="Fees of merchants and brands"
        columns={COLUMNS}
        action={action}
        list={list}
      />
      {editing ? <EditFeeDialog row={editing} onClose={() => setEditing(null)} /> : null}
      {history ? <FeeHistoryDialog row={history} onClose={() => setHistory(null)} /> : null}
    </>
  );
}
