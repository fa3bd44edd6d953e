import {
  ACCOUNTING_STATUS_OPTIONS,
  formatCents,
  type AccountingStatus,
  type AccountingTransferType,
} from '@obol/contract';
import { Box } from '@mui/material';
import type { ReactNode } from 'react';
import { euro } from '../../lib/format.ts';
import { StatusChip, StatusWithReason, type Tone } from '../../ui/StatusChip.tsx';

/** cents with the account's currency: '€1,234.56' for EUR, '1,234.56 USD' otherwise. */
export const money = (cents: number, currency: string) =>
  !currency || currency === 'EUR' ? euro(cents) : `${formatCents(cents)} ${currency}`;

export const TRANSFER_TYPE_LABELS: Record<AccountingTransferType, string> = {
  external_transfer: 'External',
  internal_transfer: 'Internal',
};

/** A switchable record's status: Active (green) or Inactive. */
export const activeChip = (status: number) => <StatusChip status={status === 1 ? 'Active' : 'Inactive'} />;

/** The question of a switch or a deletion, with its warning on a line of its own. */
export function question(text: string, warning?: string): ReactNode {
  if (!warning) return text;
  return (
    <>
      {text}
      <Box component="strong" sx={{ display: 'block', mt: 1, color: 'text.primary' }}>
        {warning}
      </Box>
    </>
  );
}

/** The tones of document 2, section 4: Completed green, Rejected and Failed red, the pending ones amber. */
const TONES: Record<AccountingStatus, Tone> = {
  COMPLETED: 'green',
  REJECTED: 'red',
  FAILED: 'red',
  PENDING_APPROVAL: 'amber',
  PENDING: 'amber',
  REFUNDED: 'amber',
};

export const statusLabel = (status: AccountingStatus) =>
  ACCOUNTING_STATUS_OPTIONS.find((o) => 'status' in o && o.status === status)?.label ?? status;

/** A 2D transaction's status chip; a Failed or Rejected one has its reason in a tooltip. */
export function AccountingStatusChip({ status, reason }: { status: AccountingStatus; reason: string | null }) {
  const shown = status === 'FAILED' || (status === 'REJECTED' && reason) ? reason : null;
  return <StatusWithReason status={statusLabel(status)} reason={shown} tone={TONES[status]} />;
}
