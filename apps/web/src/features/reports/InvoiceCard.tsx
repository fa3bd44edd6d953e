import { currentMonth, INVOICE_FIRST_MONTH } from '@obol/contract';
import { TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { exportErrorMessage } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { issueInvoice } from './api/reports.ts';
import { HolderPicker } from './HolderPicker.tsx';
import { invoiceReady, type Choice } from './reportForm.ts';
import { PullButton, ReportSection } from './ReportSection.tsx';

/**
 * Invoices: a merchant and a month (2022-12 to this month); the PDF is issued with the next number of the year, or
 * is the one issued before for that month, and lands in Download Reports.
 */
export function InvoiceCard({ expanded, onToggle }: { expanded: boolean; onToggle: () => void }) {
  const { notify, notifyDownload } = useNotify();
  const client = useQueryClient();
  const [merchant, setMerchant] = useState<Choice | null>(null);
  const [month, setMonth] = useState('');
  const max = currentMonth();
  const issue = useMutation({
    mutationFn: () => issueInvoice({ name: merchant!.name, merchant_id: merchant!.id, date: month }),
    onSuccess: async (r) => {
      notifyDownload('reports', `Invoice ${r.invoice.number}: ${r.message[0]}`);
      await client.invalidateQueries({ queryKey: queryKeys.downloadFiles });
    },
    onError: (err) => notify('error', exportErrorMessage(err)),
  });
  const ready = invoiceReady(merchant, month, max);
  return (
    <ReportSection
      id="report-invoice"
      title="Invoices"
      description="A merchant's monthly invoice of fees, as a PDF numbered without gaps"
      expanded={expanded}
      onToggle={onToggle}
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
      <PullButton ready={ready} pending={issue.isPending} onClick={() => issue.mutate()} />
    </ReportSection>
  );
}
