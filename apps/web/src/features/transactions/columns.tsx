import { failureReason, type CompletedRow, type HistoryRow, type PayoutRow } from '@obol/contract';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Tooltip } from '@mui/material';
import { euro, localDateTime } from '../../lib/format.ts';
import { beneficiaryColumn } from '../../ui/beneficiaryColumn.ts';
import type { Column } from '../../ui/ListTable.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { OneLine } from '../../ui/OneLine.tsx';

const dash = (v: string | null | undefined) => v || '-';

/** A payout's status: a key column, at the top right of a phone card. */
const statusColumn = <T extends { status: string }>(width: number): Column<T> => ({
  id: 'status',
  label: 'Status',
  pinned: true,
  card: 'status',
  width,
  cell: (t) => <StatusChip status={t.status} />,
});

export const BATCH_FEE_TIP = 'The batch fee is applied on the summed amount of all transactions sharing a batch_id.';

/**
 * The payout list's columns. The name, amount and status are key columns (always shown); the ones people read
 * less start hidden so the list fits a 1366 px screen without sideways scrolling (the Columns menu shows them).
 */
export const PAYOUT_COLUMNS: Column<PayoutRow>[] = [
  beneficiaryColumn(190),
  { id: 'brand', label: 'Brand', width: 130, cell: (t) => t.brand },
  { id: 'behalf_of', label: 'Behalf Of', width: 130, hidden: true, cell: (t) => dash(t.behalf_of) },
  { id: 'uploaded_by', label: 'Uploaded By', width: 130, hidden: true, cell: (t) => dash(t.uploaded_by) },
  { id: 'account_used', label: 'Account Used', width: 150, hidden: true, cell: (t) => dash(t.account_used) },
  {
    id: 'merchant_trx',
    label: 'Merchant Transaction ID',
    width: 190,
    hidden: true,
    cell: (t) => t.merchant_transaction_id,
  },
  { id: 'intergiro_trx', label: 'Intergiro Trx ID', width: 170, hidden: true, cell: (t) => dash(t.intergiro_trx_id) },
  { id: 'reference', label: 'Reference', width: 130, cell: (t) => t.reference },
  { id: 'obol_id', label: 'Obol ID', width: 110, hidden: true, cell: (t) => t.account_id },
  { id: 'amount', label: 'Amount', width: 95, pinned: true, nowrap: true, cell: (t) => euro(t.amount) },
  statusColumn(120),
  { id: 'updated_at', label: 'Updated At', width: 180, nowrap: true, cell: (t) => localDateTime(t.updated_at) },
];

const feeTip = (
  <Tooltip title={BATCH_FEE_TIP}>
    <Box
      component="span"
      // an information icon: a named image (a bare span may not carry the label the tooltip gives it)
      role="img"
      tabIndex={0}
      sx={{ display: 'inline-flex', ml: 0.5, verticalAlign: 'middle', color: 'text.secondary' }}
    >
      <InfoOutlinedIcon fontSize="small" />
    </Box>
  </Tooltip>
);

/** The completed transactions' columns. */
export const COMPLETED_COLUMNS: Column<CompletedRow>[] = [
  {
    id: 'batch_id',
    label: 'Batch ID',
    nowrap: true,
    width: 190,
    cell: (t) => <OneLine text={dash(t.batch_id)} maxWidth={160} />,
  },
  beneficiaryColumn(170),
  { id: 'brand', label: 'Brand', width: 100, cell: (t) => t.brand },
  {
    id: 'fee',
    label: 'Batch Fee / Fee',
    nowrap: true,
    width: 176,
    headerExtra: feeTip,
    cell: (t) => `${euro(t.batch_fee ?? 0)} / ${euro(t.fee ?? 0)}`,
  },
  { id: 'amount', label: 'Amount', pinned: true, nowrap: true, width: 95, cell: (t) => euro(t.amount) },
  { id: 'reference', label: 'Reference', priority: 3, width: 110, cell: (t) => t.reference },
  { id: 'behalf_of', label: 'Behalf Of', width: 130, hidden: true, cell: (t) => dash(t.behalf_of) },
  { id: 'uploaded_by', label: 'Uploaded By', width: 130, hidden: true, cell: (t) => dash(t.uploaded_by) },
  { id: 'account_used', label: 'Account Used', width: 150, hidden: true, cell: (t) => dash(t.account_used) },
  statusColumn(130),
  {
    id: 'updated_at',
    label: 'Updated At',
    nowrap: true,
    priority: 3,
    width: 180,
    cell: (t) => localDateTime(t.updated_at),
  },
];

/** The columns of a batch's transaction history. */
export const HISTORY_COLUMNS: Column<HistoryRow>[] = [
  beneficiaryColumn(170),
  { id: 'obol_id', label: 'Obol ID', priority: 3, width: 110, cell: (t) => t.account_id },
  {
    id: 'trx_id',
    label: 'Transaction ID',
    nowrap: true,
    width: 230,
    cell: (t) =>
      t.intergiro_trx_id ? (
        <>
          {t.intergiro_trx_id}
          <CopyButton text={t.intergiro_trx_id} label={`Copy transaction id ${t.intergiro_trx_id}`} />
        </>
      ) : (
        '-'
      ),
  },
  { id: 'currency', label: 'Currency', width: 90, hidden: true, cell: (t) => t.currency },
  { id: 'amount', label: 'Amount', pinned: true, nowrap: true, width: 100, cell: (t) => euro(t.amount) },
  { id: 'timestamp', label: 'Timestamp', nowrap: true, width: 180, cell: (t) => localDateTime(t.updated_at) },
  statusColumn(130),
  { id: 'reason', label: 'Reason', width: 150, cell: (t) => failureReason(t) || '-' },
];
