import { currentMonth, INVOICE_FIRST_MONTH } from '@obol/contract';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  CircularProgress,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { issueInvoice } from './api/reports.ts';
import { HolderPicker } from './HolderPicker.tsx';
import { invoiceReady, type Choice } from './reportForm.ts';

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
    onError: (err) => notify('error', errorMessage(err)),
  });
  const ready = invoiceReady(merchant, month, max);
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
