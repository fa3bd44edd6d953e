import { TRX_MSG, failureReason, type TransactionDetails } from '@obol/contract';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { euro } from '../../lib/format.ts';
import { StatusChip, TONE_COLORS, type Tone } from '../../ui/StatusChip.tsx';
import { transactionDetails } from './api/transactionDetails.ts';
import { Facts } from '../../ui/Facts.tsx';

/** What the dialog shows of a transaction (the details answer, or a history row). */
export type DetailsData = Pick<
  TransactionDetails,
  | 'merchant_transaction_id'
  | 'intergiro_trx_id'
  | 'beneficiary_name'
  | 'brand'
  | 'account_id'
  | 'reference'
  | 'currency'
  | 'status'
  | 'failed_transaction'
> & { amount: number | null };

/** The banner: 'Transaction Successful' (green), the failure reason (red), nothing on a teal tint otherwise. */
export function bannerOf(d: Pick<DetailsData, 'status' | 'failed_transaction'>): { text: string; tone: Tone } {
  if (d.status === 'Completed') return { text: TRX_MSG.successful, tone: 'green' };
  if (d.status === 'Failed') return { text: failureReason(d), tone: 'red' };
  return { text: '', tone: 'teal' };
}

const dash = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '-' : v);

/**
 * The details of one transaction. `banner` (payout and completed lists) tints the top by status;
 * `reason` (batch history) lists the failure reason instead and names the provider id 'Transaction ID'.
 */
export function TransactionDialog({
  details,
  variant = 'banner',
  onClose,
}: {
  details: DetailsData | null;
  variant?: 'banner' | 'reason';
  onClose: () => void;
}) {
  // the last transaction stays on screen while the dialog closes
  const [last, setLast] = useState(details);
  if (details && details !== last) setLast(details);
  const d = details ?? last;
  const banner = d ? bannerOf(d) : null;
  const rows: [string, ReactNode][] = d
    ? [
        [variant === 'reason' ? 'Merchant Trx ID' : 'Merchant Transaction ID', dash(d.merchant_transaction_id)],
        [variant === 'reason' ? 'Transaction ID' : 'Intergiro Trx ID', dash(d.intergiro_trx_id)],
        ['Beneficiary Name', dash(d.beneficiary_name)],
        ['Brand', dash(d.brand)],
        ['Obol ID', dash(d.account_id)],
        ['Reference', dash(d.reference)],
        ['Currency', dash(d.currency)],
        ['Amount', euro(d.amount)],
        ['Status', <StatusChip key="status" status={d.status} />],
        ...(variant === 'reason' ? [['Reason', dash(failureReason(d))] as [string, ReactNode]] : []),
      ]
    : [];
  return (
    <Dialog open={!!details} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="transaction-details-title">
      <DialogTitle id="transaction-details-title">Transaction Details</DialogTitle>
      <DialogContent dividers>
        {variant === 'banner' && banner ? (
          <Box
            data-testid="details-banner"
            data-tone={banner.tone}
            sx={{
              bgcolor: TONE_COLORS[banner.tone].tint,
              borderLeft: 4,
              borderColor: TONE_COLORS[banner.tone].fg,
              borderRadius: 1,
              px: 2,
              py: 1.5,
              mb: 2,
              minHeight: 48,
            }}
          >
            <Typography sx={{ fontWeight: 600 }}>{banner.text}</Typography>
          </Box>
        ) : null}
        <Facts facts={rows} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * View Details through POST /api/transaction-details: the row `action` loads and opens the dialog, every row's
 * button disabled while a request runs. A failure only stops the spinner.
 */
export function useTransactionDetails() {
  const [details, setDetails] = useState<TransactionDetails | null>(null);
  const m = useMutation({
    mutationFn: (id: number) => transactionDetails({ id }),
    onSuccess: (d) => setDetails(d),
    onError: (err) => console.error('transaction details failed', err),
  });
  return {
    /** the list table's row action: View Details of that row, with a spinner while it loads */
    action: {
      label: 'Action',
      cell: (t: { id: number }) => (
        <ViewDetailsButton
          disabled={m.isPending}
          loading={m.isPending && m.variables === t.id}
          onClick={() => m.mutate(t.id)}
        />
      ),
    },
    dialog: <TransactionDialog details={details} onClose={() => setDetails(null)} />,
  };
}

/** The View Details action of a row. */
export function ViewDetailsButton({
  onClick,
  disabled,
  loading,
}: {
  onClick: () => void;
  disabled?: boolean;
  loading?: boolean;
}) {
  return (
    <Button
      size="small"
      variant="outlined"
      disabled={disabled}
      onClick={onClick}
      startIcon={loading ? <CircularProgress size={14} color="inherit" /> : undefined}
      sx={{ whiteSpace: 'nowrap' }}
    >
      View Details
    </Button>
  );
}
