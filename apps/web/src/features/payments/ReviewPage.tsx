import type { CurrentBatch } from '@obol/contract';
import { Alert, Box, Button, Pagination, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { euro } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { StagedTable } from './review/StagedTable.tsx';
import { PER_PAGE, useLeaveSettledBatch, useReviewActions, useReviewData } from './review/useReview.ts';
import { StatusChip } from '../../ui/StatusChip.tsx';

/** The review of the current batch: its staged rows, fixed or deleted, then executed with a code. */
export function ReviewPage() {
  const session = useSession();
  // set once the batch is executed: the page is on its way to /recent-batches, not back to /payments
  const [leaving, setLeaving] = useState(false);
  const batch = session?.batch;
  if (!batch) return leaving ? null : <Navigate to="/payments" replace />;
  return <BatchReview batch={batch} leaving={leaving} onLeave={() => setLeaving(true)} />;
}

function BatchReview({ batch, leaving, onLeave }: { batch: CurrentBatch; leaving: boolean; onLeave: () => void }) {
  const [page, setPage] = useState(1);
  const { rows, totals, balance } = useReviewData(batch, page);
  const review = useReviewActions(batch, totals.data?.amount, balance.data?.balance, onLeave);
  useLeaveSettledBatch(batch, rows.data?.batch.batch_status, leaving, onLeave);
  const confirm = useConfirm();
  const askDelete = (ids: number[]) =>
    confirm.ask({
      title: ids.length === 1 ? 'Delete this transaction?' : `Delete ${ids.length} transactions?`,
      text: `${ids.length === 1 ? 'It is' : 'They are'} removed from the batch; this cannot be undone.`,
      confirmLabel: 'Delete',
      action: () => review.remove(ids),
    });
  const askClear = () =>
    confirm.ask({
      title: 'Clear this batch?',
      text: 'Its rows will be declined, and you go back to Payments to upload a new file.',
      confirmLabel: 'Clear batch',
      action: review.clear,
    });
  const data = rows.data;
  const missing = data?.missingTransaction === 1 ? 'one' : data?.missingTransaction;
  const pages = Math.max(1, Math.ceil((data?.transaction.total ?? 0) / PER_PAGE));
  if (data && !rows.isPlaceholderData && page > pages) setPage(pages);
  const subtotal = (totals.data?.amount ?? 0) + (totals.data?.fee ?? 0);
  const canExecute =
    !!data &&
    data.pendingTransaction > 0 &&
    data.missingTransaction === 0 &&
    (balance.data?.balance ?? 0) >= subtotal &&
    !review.busy;
  const shownName = (review.fileName ?? batch.file_name).replace(/\.csv$/i, '');

  return (
    <>
      <PageTitle>Uploaded Transactions</PageTitle>
      <Paper sx={{ p: 2, mb: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: { md: 'center' } }}>
          <TextField
            label="File name"
            size="small"
            value={shownName}
            onChange={(e) => review.setFileName(e.target.value.replace(/\W+/g, ''))}
            onBlur={review.rename}
            onKeyDown={(e) => e.key === 'Enter' && review.rename()}
          />
          <Typography>
            For <strong>{batch.merchant_name}</strong>
          </Typography>
          <Typography>Available balance: {balance.data ? euro(balance.data.balance) : '-'}</Typography>
          <StatusChip status="Executable" tone="green" label={`Executable: ${data?.pendingTransaction ?? 0}`} />
          <StatusChip status="Inexecutable" tone="red" label={`Inexecutable: ${data?.failedTransaction ?? 0}`} />
        </Stack>
      </Paper>
      {data && data.failedTransaction > 0 ? (
        <Alert severity="warning" sx={{ mb: 2 }} aria-label="Inexecutable transactions">
          {data.failedTransaction} transaction{data.failedTransaction === 1 ? ' cannot' : 's cannot'} be executed:
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {(data.failedByReason ?? []).map((r) => (
              <li key={r.reason}>
                {r.count} × {r.reason}
              </li>
            ))}
          </Box>
          {data.missingTransaction > 0
            ? `Fix or delete the ${missing} missing a required field before executing.`
            : 'Fix or delete them, or execute the others without them.'}
        </Alert>
      ) : null}
      <Paper>
        <StagedTable
          rows={data?.transaction.data ?? []}
          totals={totals.data}
          selected={review.selected}
          onSelect={review.setSelected}
          editing={review.editing}
          onEdit={review.setEditing}
          onSave={review.saveRow}
          onDelete={askDelete}
          balance={balance.data?.balance}
        />
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
            <Button
              color="error"
              variant="outlined"
              disabled={!review.selected.length}
              onClick={() => askDelete(review.selected)}
            >
              Delete selected
            </Button>
            <Button onClick={askClear}>Clear</Button>
            <Button variant="contained" disabled={!canExecute} onClick={review.execute}>
              Execute Transactions
            </Button>
          </Stack>
          <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
        </Box>
      </Paper>
      <CodeDialog
        open={review.codeOpen}
        text={`Approve batch ${batch.batch_id}: ${euro(subtotal)} including the fee.`}
        onClose={() => review.setCodeOpen(false)}
        onSubmit={review.confirm}
      />
      {confirm.dialog}
    </>
  );
}
