import { APPROVAL_STATUSES, type ApprovalRow, type ApprovalStatus } from '@obol/contract';
import {
  Alert,
  Button,
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { clearFilters } from '../../lib/filters.ts';
import { FIRST_PAGE, useClampPage, usePaging } from '../../lib/paging.ts';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';
import { CodeDialog } from '../../ui/CodeDialog.tsx';
import { ListTable, type Column } from '../../ui/ListTable.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { OneLine } from '../../ui/OneLine.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ListPager } from '../../ui/Pager.tsx';
import { StatusChip, StatusWithReason } from '../../ui/StatusChip.tsx';
import { approvalsQuery, requestApprovalCode, useDecide } from './api/approvals.ts';
import { FormActions } from '../../ui/FormActions.tsx';

const KIND_LABEL: Record<ApprovalRow['kind'], string> = {
  payout: 'Manual payout',
  batch: 'Batch',
  transfer: 'Transfer',
  '2d': '2D transfer',
};

/** what it is, in words: "Manual payout of €1,500.00 for Acme Payouts" */
const describe = (a: ApprovalRow) => `${KIND_LABEL[a.kind]} of ${euro(a.amount)} for ${a.holder_name}`;

/** The columns: made to fit 1366 px beside the Decide column (who made it and when share one). */
const columnsOf = (group: 'payments' | '2d'): Column<ApprovalRow>[] => [
  {
    id: 'what',
    label: 'What',
    width: 130,
    pinned: true,
    card: 'title',
    nowrap: true,
    cell: (a) => `${KIND_LABEL[a.kind]} ${a.object_id}`,
  },
  { id: 'amount', label: 'Amount', width: 110, pinned: true, nowrap: true, cell: (a) => euro(a.amount) },
  { id: 'holder', label: group === '2d' ? 'Company' : 'Merchant', width: 160, cell: (a) => a.holder_name },
  { id: 'description', label: 'Details', width: 210, cell: (a) => <OneLine text={a.description} maxWidth={200} /> },
  {
    id: 'made',
    label: 'Made',
    width: 180,
    cell: (a) => (
      <>
        {a.made_by}
        <Typography variant="body2" color="textSecondary" sx={{ whiteSpace: 'nowrap' }}>
          {localDateTime(a.made_at)}
        </Typography>
      </>
    ),
  },
  {
    id: 'status',
    label: 'Status',
    width: 145,
    pinned: true,
    card: 'status',
    cell: (a) =>
      a.status === 'Rejected' ? (
        <StatusWithReason status={a.status} reason={a.reason} />
      ) : (
        <StatusChip status={a.status} />
      ),
  },
  {
    id: 'decided',
    label: 'Decided By',
    width: 180,
    hidden: true,
    cell: (a) => (a.decided_by ? `${a.decided_by}, ${localDateTime(a.decided_at)}` : ''),
  },
];

const STATUS_OPTIONS = [
  { value: 0, label: 'Pending', status: 'Pending' },
  { value: 1, label: 'Approved', status: 'Approved' },
  { value: 2, label: 'Rejected', status: 'Rejected' },
  { value: 3, label: 'All', status: '' },
] as const;

/**
 * Pending approvals: payouts, batches and transfers at or above their merchant's threshold (or, on the 2D screen,
 * 2D transfers above their company's), reserved and waiting for a second person. The approver asks for their own
 * code and approves with it, or rejects with a reason (the money returns). Nobody decides what they made.
 */
export function ApprovalsPage({ group }: { group: 'payments' | '2d' }) {
  const columns = useMemo(() => columnsOf(group), [group]);
  const url = useUrlParams();
  const paging = usePaging(20, [20, 50, 100], url);
  const raw = url.params.get('status');
  const statusName: ApprovalStatus | '' = raw === 'all' ? '' : oneOf(raw, APPROVAL_STATUSES, 'Pending');
  const option = STATUS_OPTIONS.find((o) => o.status === statusName) ?? STATUS_OPTIONS[0];
  const q = useQuery({
    ...approvalsQuery({ group, status: statusName || undefined, page: paging.page, per_page: paging.perPage }),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.total;
  useClampPage(paging, total, !!q.data && !q.isPlaceholderData);
  const { notify } = useNotify();
  const decide = useDecide();
  const [approving, setApproving] = useState<ApprovalRow | null>(null);
  const [rejecting, setRejecting] = useState<ApprovalRow | null>(null);

  const startApprove = async (a: ApprovalRow) => {
    try {
      const r = await requestApprovalCode(a.id);
      notify('success', r.message[0] ?? 'Enter the code to approve');
      setApproving(a);
    } catch (err) {
      notify('error', errorMessage(err));
    }
  };
  const approve = async (code: string) => {
    if (!approving) return null;
    try {
      const r = await decide.approve.mutateAsync({ id: approving.id, code });
      notify('success', r.message[0]);
      setApproving(null);
      return null;
    } catch (err) {
      return err instanceof ApiError ? (err.fieldError('code') ?? err.display) : errorMessage(err);
    }
  };

  return (
    <>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between', mb: 2 }}
      >
        <div>
          <PageTitle>{group === '2d' ? '2D Approvals' : 'Approvals'}</PageTitle>
          <Typography variant="body2" color="textSecondary">
            {group === '2d'
              ? "2D transfers at or above their company's threshold wait here for a second 2D admin."
              : "Payouts, batches and transfers at or above their merchant's threshold wait here, reserved, for a second person."}
          </Typography>
        </div>
        <OptionSelect
          label="Status"
          value={option.value}
          options={STATUS_OPTIONS}
          onChange={(v) => {
            const s = STATUS_OPTIONS.find((o) => o.value === v)?.status ?? 'Pending';
            url.update({ status: s === 'Pending' ? null : s || 'all', ...FIRST_PAGE });
          }}
          minWidth={150}
        />
      </Stack>
      {q.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(q.error)}
        </Alert>
      ) : null}
      <Paper>
        <ListTable
          id={`approvals-${group}`}
          label={group === '2d' ? '2D approvals' : 'Approvals'}
          columns={columns}
          rows={q.data?.data ?? []}
          rowKey={(a) => a.id}
          loading={q.isLoading}
          empty={{
            text: statusName === 'Pending' ? 'Nothing waits for approval.' : undefined,
            clear: clearFilters(url, ['status']),
          }}
          sx={{ maxHeight: '65vh' }}
          action={{
            label: 'Decide',
            cell: (a) =>
              a.status !== 'Pending' ? null : a.own ? (
                <Tooltip title="You made it: another person decides">
                  <span>
                    <Button size="small" disabled>
                      Your own
                    </Button>
                  </span>
                </Tooltip>
              ) : (
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    variant="contained"
                    onClick={() => startApprove(a)}
                    aria-label={`Approve ${describe(a)}`}
                  >
                    Approve
                  </Button>
                  <Button size="small" onClick={() => setRejecting(a)} aria-label={`Reject ${describe(a)}`}>
                    Reject
                  </Button>
                </Stack>
              ),
          }}
        />
        <ListPager paging={paging} total={total} />
      </Paper>
      <CodeDialog
        open={!!approving}
        text={
          approving
            ? `Approve: ${describe(approving)}, made by ${approving.made_by}. It then goes to the provider.`
            : ''
        }
        onClose={() => setApproving(null)}
        onSubmit={approve}
      />
      <RejectDialog
        row={rejecting}
        onClose={() => setRejecting(null)}
        onReject={async (reason) => {
          const r = await decide.reject.mutateAsync({ id: rejecting!.id, reason });
          notify('success', r.message[0]);
          setRejecting(null);
        }}
      />
    </>
  );
}

/** Asks why: the reason is the failed payout's or transfer's message, and the maker reads it. */
function RejectDialog({
  row,
  onClose,
  onReject,
}: {
  row: ApprovalRow | null;
  onClose: () => void;
  onReject: (reason: string) => Promise<void>;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const close = () => {
    setReason('');
    setError('');
    onClose();
  };
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError('Enter a reason');
    setBusy(true);
    try {
      await onReject(reason.trim());
      setReason('');
      setError('');
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldError('reason') ?? err.display) : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!row} onClose={busy ? undefined : close} aria-labelledby={`${id}-title`} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>Reject and return the money</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {row ? `${describe(row)}, made by ${row.made_by}. The reserved amount goes back to its account.` : ''}
          </DialogContentText>
          <TextField
            label="Reason"
            fullWidth
            required
            autoFocus
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={!!error}
            helperText={error || 'The maker sees it on the payout or transfer.'}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </DialogContent>
        <FormActions onCancel={close} busy={busy} submit="Reject" />
      </form>
    </Dialog>
  );
}
