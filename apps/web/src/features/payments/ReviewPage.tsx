import { MSG } from '@obol/contract';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import SaveIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  IconButton,
  Pagination,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { api, ApiError } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';

type Field = { value: string; error: string | null };
interface StagedRow {
  id: number;
  row_number: number;
  beneficiary_name: Field;
  obol_id: Field;
  merchant_transaction_id: Field;
  brand: Field;
  reference: Field;
  amount: Field;
  status: 'Pending' | 'Failed';
}
interface StagedPage {
  transaction: { data: StagedRow[]; total: number };
  missingTransaction: number;
  pendingTransaction: number;
  failedTransaction: number;
  batch: { file_name: string; batch_status: string };
}
const COLUMNS = [
  ['beneficiary_name', 'Beneficiary name'],
  ['obol_id', 'Obol ID'],
  ['merchant_transaction_id', 'Merchant transaction id'],
  ['brand', 'Brand'],
  ['reference', 'Reference'],
  ['amount', 'Amount (cents)'],
] as const;
type Col = (typeof COLUMNS)[number][0];
const PER_PAGE = 10;

/** Row-edit rules of the review screen: amount above 0, whole, at most 10 characters; others required, at most 50. */
export function rowEditError(col: Col, v: string): string | null {
  if (!v.trim()) return MSG.required;
  if (col === 'amount') {
    if (v.length > 10) return 'Max 10 characters allowed';
    if (!/^-?\d+(\.\d+)?$/.test(v.trim())) return 'Must be a whole number';
    const n = Number(v);
    if (n <= 0) return 'Must be greater than 0';
    if (!Number.isInteger(n)) return 'Must be a whole number';
    return null;
  }
  return v.length > 50 ? 'Max 50 characters allowed' : null;
}

export function ReviewPage() {
  const session = useSession();
  const navigate = useNavigate();
  const { notify } = useNotify();
  const qc = useQueryClient();
  const batch = session?.batch;
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ id: number; values: Record<Col, string> } | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [codeOpen, setCodeOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // set once the batch is executed: the page is on its way to /recent-batches, not back to /payments
  const [leaving, setLeaving] = useState(false);
  const batchId = batch?.batch_id ?? '';
  const rows = useQuery({
    queryKey: ['staged', batchId, page],
    queryFn: () => api<StagedPage>('/api/staged-transactions', { batch_id: batchId, per_page: PER_PAGE, page }),
    enabled: !!batchId,
    placeholderData: keepPreviousData,
  });
  const totals = useQuery({
    queryKey: ['batch-amount', batchId],
    queryFn: () =>
      api<{ amount: number; fee: number }>('/api/batch-amount', {
        batch_id: batchId,
        account_reference: batch?.account_reference,
      }),
    enabled: !!batchId,
  });
  const balance = useQuery({
    queryKey: ['balance', batch?.account_reference],
    queryFn: () => api<{ balance: number }>('/api/account-balance', { account_reference: batch!.account_reference }),
    enabled: !!batch?.account_reference,
  });
  if (!batch) return leaving ? null : <Navigate to="/payments" replace />;

  const refresh = () =>
    qc.invalidateQueries({ predicate: (q) => ['staged', 'batch-amount'].includes(String(q.queryKey[0])) });
  const fail = (err: unknown) => notify('error', err instanceof ApiError ? err.display : MSG.somethingWrong);
  const data = rows.data;
  const pages = Math.max(1, Math.ceil((data?.transaction.total ?? 0) / PER_PAGE));
  if (data && !rows.isPlaceholderData && page > pages) setPage(pages);
  const subtotal = (totals.data?.amount ?? 0) + (totals.data?.fee ?? 0);
  const canExecute =
    !!data &&
    data.pendingTransaction > 0 &&
    data.missingTransaction === 0 &&
    (balance.data?.balance ?? 0) >= subtotal &&
    !busy;
  const shownName = (fileName ?? batch.file_name).replace(/\.csv$/i, '');

  const rename = async () => {
    if (fileName === null) return;
    const clean = fileName.replace(/\W+/g, '');
    try {
      const r = await api<{ file_name: string; message: string[] }>('/api/rename-batch', {
        batch_id: batchId,
        file_name: clean,
        merchant_name: batch.merchant_name,
      });
      sessionStore.setBatch({ ...batch, file_name: r.file_name });
      notify('success', r.message[0]);
    } catch (err) {
      fail(err);
    }
    setFileName(null);
  };
  const saveRow = async () => {
    if (!editing) return;
    const errors = COLUMNS.map(([c]) => rowEditError(c, editing.values[c])).filter(Boolean);
    if (errors.length) return notify('error', errors[0]!);
    try {
      const r = await api<{ message: string[] }>('/api/update-transaction', {
        id: editing.id,
        batch_id: batchId,
        ...editing.values,
      });
      notify('success', r.message[0]);
      setEditing(null);
      refresh();
    } catch (err) {
      fail(err);
    }
  };
  const remove = async (ids: number[]) => {
    try {
      if (ids.length === 1)
        await api('/api/delete-transaction', { id: ids[0], batch_id: batchId, merchant_name: batch.merchant_name });
      else await api('/api/delete-transactions', { id: ids, batch_id: batchId, merchant_name: batch.merchant_name });
      notify('success', ids.length === 1 ? 'Transaction deleted' : `${ids.length} transactions deleted`);
      setSelected([]);
      refresh();
    } catch (err) {
      fail(err);
    }
  };
  const clear = async () => {
    try {
      await api('/api/clear-batch', { batch_id: batchId, merchant_name: batch.merchant_name });
      sessionStore.setBatch(null);
      navigate('/payments');
    } catch (err) {
      fail(err);
    }
  };
  const execute = async () => {
    setBusy(true);
    try {
      const r = await api<{ message: string[] }>('/api/execute-batch', {
        batch_id: batchId,
        amount: totals.data?.amount,
        merchant_name: batch.merchant_name,
      });
      notify('success', r.message[0]);
      setCodeOpen(true);
    } catch (err) {
      if (err instanceof ApiError && [400, 404].includes(err.status))
        notify('error', err.body?.error?.[0] ?? MSG.somethingWrong);
      else fail(err);
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (code: string) => {
    try {
      const r = await api<{ message: string[] }>('/api/confirm-batch', {
        batch_id: batchId,
        code,
        merchant_name: batch.merchant_name,
      });
      notify('success', r.message[0]);
      setCodeOpen(false);
      setLeaving(true);
      // Recent Batches clears the current batch once it is shown: clearing it here would let this route's
      // guard send the user back to /payments before the navigation lands
      navigate('/recent-batches', { state: { clearBatch: batchId } });
      return null;
    } catch (err) {
      if (err instanceof ApiError && err.fieldError('code')) return err.fieldError('code')!;
      fail(err);
      setCodeOpen(false);
      return null;
    }
  };

  return (
    <>
      <PageTitle>Uploaded Transactions</PageTitle>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'center' } }}>
          <TextField
            label="File name"
            size="small"
            value={shownName}
            onChange={(e) => setFileName(e.target.value.replace(/\W+/g, ''))}
            onBlur={rename}
            onKeyDown={(e) => e.key === 'Enter' && rename()}
          />
          <Typography>
            For <strong>{batch.merchant_name}</strong>
          </Typography>
          <Typography>Available balance: {balance.data ? euro(balance.data.balance) : '-'}</Typography>
          <Chip color="success" label={`Executable: ${data?.pendingTransaction ?? 0}`} />
          <Chip color="error" label={`Inexecutable: ${data?.failedTransaction ?? 0}`} />
        </Stack>
      </Paper>
      {data && data.missingTransaction > 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {data.missingTransaction} transaction{data.missingTransaction === 1 ? ' misses' : 's miss'} a required field:
          fix or delete {data.missingTransaction === 1 ? 'it' : 'them'} before executing.
        </Alert>
      ) : null}
      <Paper>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    inputProps={{ 'aria-label': 'Select all on this page' }}
                    checked={
                      !!data?.transaction.data.length && data.transaction.data.every((r) => selected.includes(r.id))
                    }
                    onChange={(e) => setSelected(e.target.checked ? data!.transaction.data.map((r) => r.id) : [])}
                  />
                </TableCell>
                {COLUMNS.map(([, label]) => (
                  <TableCell key={label}>{label}</TableCell>
                ))}
                <TableCell>Status</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {!data?.transaction.data.length ? (
                <TableRow>
                  <TableCell colSpan={9} align="center">
                    No Record Found
                  </TableCell>
                </TableRow>
              ) : (
                data.transaction.data.map((r) => {
                  const isEditing = editing?.id === r.id;
                  return (
                    <TableRow key={r.id} hover selected={selected.includes(r.id)}>
                      <TableCell padding="checkbox">
                        <Checkbox
                          inputProps={{ 'aria-label': `Select row ${r.row_number}` }}
                          checked={selected.includes(r.id)}
                          onChange={(e) =>
                            setSelected(e.target.checked ? [...selected, r.id] : selected.filter((x) => x !== r.id))
                          }
                        />
                      </TableCell>
                      {COLUMNS.map(([c, label]) =>
                        isEditing ? (
                          <TableCell key={c}>
                            <TextField
                              size="small"
                              value={editing.values[c]}
                              error={!!rowEditError(c, editing.values[c])}
                              helperText={rowEditError(c, editing.values[c])}
                              onChange={(e) =>
                                setEditing({ ...editing, values: { ...editing.values, [c]: e.target.value } })
                              }
                              slotProps={{ htmlInput: { maxLength: c === 'amount' ? 10 : 50, 'aria-label': label } }}
                            />
                          </TableCell>
                        ) : (
                          <TableCell key={c} sx={r[c].error ? { color: 'error.main', fontWeight: 600 } : undefined}>
                            {r[c].error ? (
                              <Tooltip title={r[c].error}>
                                <span>{r[c].value || '(empty)'}</span>
                              </Tooltip>
                            ) : (
                              r[c].value
                            )}
                          </TableCell>
                        ),
                      )}
                      <TableCell>
                        <Chip size="small" color={r.status === 'Pending' ? 'warning' : 'error'} label={r.status} />
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        {isEditing ? (
                          <>
                            <IconButton aria-label={`Save row ${r.row_number}`} onClick={saveRow}>
                              <SaveIcon />
                            </IconButton>
                            <IconButton aria-label="Cancel edit" onClick={() => setEditing(null)}>
                              <CloseIcon />
                            </IconButton>
                          </>
                        ) : (
                          <>
                            <IconButton
                              aria-label={`Edit row ${r.row_number}`}
                              onClick={() =>
                                setEditing({
                                  id: r.id,
                                  values: Object.fromEntries(COLUMNS.map(([c]) => [c, r[c].value])) as Record<
                                    Col,
                                    string
                                  >,
                                })
                              }
                            >
                              <EditIcon />
                            </IconButton>
                            <IconButton aria-label={`Delete row ${r.row_number}`} onClick={() => remove([r.id])}>
                              <DeleteIcon />
                            </IconButton>
                          </>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })
              )}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={9}>
                  <Stack direction="row" spacing={3}>
                    <span>Amount: {euro(totals.data?.amount ?? 0)}</span>
                    <Tooltip title="The batch fee is applied on the summed amount of all transactions of the batch">
                      <span>Fee: {euro(totals.data?.fee ?? 0)}</span>
                    </Tooltip>
                    <strong>Total: {euro(subtotal)}</strong>
                  </Stack>
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </TableContainer>
        <Box
          sx={{
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'center',
            p: 2,
            flexWrap: 'wrap',
            gap: 2,
          }}
        >
          <Stack direction="row" spacing={2}>
            <Button color="error" variant="outlined" disabled={!selected.length} onClick={() => remove(selected)}>
              Delete selected
            </Button>
            <Button onClick={clear}>Clear</Button>
            <Button variant="contained" disabled={!canExecute} onClick={execute}>
              Execute Transactions
            </Button>
          </Stack>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
        </Box>
      </Paper>
      <CodeDialog
        open={codeOpen}
        title="Two Factor Code"
        text={`Approve batch ${batchId}: ${euro(subtotal)} including the fee.`}
        onClose={() => setCodeOpen(false)}
        onSubmit={confirm}
      />
    </>
  );
}
