import { TRANSFER_STATUS_OPTIONS, type TransferRow } from '@obol/contract';
import DescriptionOutlinedIcon from '@mui/icons-material/DescriptionOutlined';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useState } from 'react';
import { euro, localDateTime } from '../../lib/format.ts';
import { usePaging, usePagedList } from '../../lib/paging.ts';
import { dateSort, urlOption } from '../../lib/urlOption.ts';
import { useUrlParams } from '../../lib/urlState.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { beneficiaryColumn } from '../../ui/beneficiaryColumn.ts';
import { ListControls } from '../../ui/ListControls.tsx';
import type { Column } from '../../ui/ListTable.tsx';
import { OptionSelect } from '../../ui/OptionSelect.tsx';
import { PagedTable } from '../../ui/PagedTable.tsx';
import { StatusWithReason } from '../../ui/StatusChip.tsx';
import { transfersQuery, useExportTransfers } from './api/transfers.ts';
import { OneLine } from '../../ui/OneLine.tsx';
import { clearFilters } from '../../lib/filters.ts';
import { useLinkAction } from '../../ui/EmptyState.tsx';

const COLUMNS: Column<TransferRow>[] = [
  beneficiaryColumn(170),
  {
    id: 'iban',
    label: 'IBAN',
    nowrap: true,
    width: 210,
    cell: (t) => <OneLine text={t.iban} maxWidth={150} copy={`Copy the IBAN ${t.iban}`} />,
  },
  { id: 'bic', label: 'BIC', hidden: true, nowrap: true, cell: (t) => t.bic },
  { id: 'amount', label: 'Amount', pinned: true, nowrap: true, width: 100, cell: (t) => euro(t.amount) },
  { id: 'merchant', label: 'Merchant/Brand', priority: 3, width: 160, cell: (t) => t.merchant_name },
  { id: 'transfer_by', label: 'Transfer By', hidden: true, cell: (t) => t.transfer_by },
  { id: 'account_used', label: 'Account Used', hidden: true, cell: (t) => t.account_used },
  { id: 'account_id', label: 'Account ID', hidden: true, nowrap: true, cell: (t) => t.account_id },
  {
    id: 'status',
    label: 'Status',
    pinned: true,
    card: 'status',
    width: 140,
    cell: (t) => (
      <StatusWithReason
        status={t.status}
        reason={t.status === 'Declined' ? t.detail || 'Declined by the bank' : null}
      />
    ),
  },
  { id: 'created_at', label: 'Date', nowrap: true, width: 180, cell: (t) => localDateTime(t.created_at) },
];

/** Transfer Transactions: the transfers of the caller's scope, 20 a page, by date, status filter, export. */
export function TransferTransactionsPage() {
  const url = useUrlParams();
  const paging = usePaging(20, [20, 50, 100], url);
  const status = urlOption(url, 'status', TRANSFER_STATUS_OPTIONS, 'status');
  const sort = dateSort(url);
  const selection = { status: status.chosen.value, sortby: sort.sort };
  const [purpose, setPurpose] = useState<TransferRow | null>(null);
  const exporting = useExportTransfers();
  const transfer = useLinkAction('/amount-transfer', 'Transfer an amount');
  const list = usePagedList(
    paging,
    transfersQuery({ ...selection, page: paging.page, per_page: paging.perPage }),
    (a) => a,
    { kind: 'transfer' },
  );

  return (
    <>
      <ListControls
        title="Transfer Transactions"
        list={list}
        onExport={(format) => exporting.mutateAsync({ ...selection, format })}
        // the export is the screen's own (the server asks for the screen's permission, as the spec names no other)
        exportRight="User can view transfer amount screen"
      >
        <OptionSelect label="Sort by date" {...sort.select} minWidth={160} />
        <OptionSelect label="Status" {...status.select} />
      </ListControls>
      <PagedTable
        id="transfer-transactions"
        label="Transfer transactions"
        columns={COLUMNS}
        list={list}
        empty={{ clear: clearFilters(url, ['status']), create: transfer }}
        sx={{ maxHeight: '65vh' }}
        action={{
          label: 'Purpose',
          cell: (t) => (
            <ActionButton
              text="Purpose"
              label={`Purpose of payment of the transfer to ${t.beneficiary_name}`}
              icon={<DescriptionOutlinedIcon fontSize="small" />}
              onClick={() => setPurpose(t)}
            />
          ),
        }}
      />
      <Dialog open={!!purpose} onClose={() => setPurpose(null)} fullWidth maxWidth="xs">
        <DialogTitle>Purpose of payment</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="textSecondary" sx={{ mb: 1 }}>
            {purpose ? `${euro(purpose.amount)} to ${purpose.beneficiary_name}` : ''}
          </Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {purpose?.message || 'No purpose was given.'}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPurpose(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
