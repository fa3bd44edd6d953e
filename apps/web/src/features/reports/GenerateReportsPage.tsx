import { REPORTS, type ReportKind } from '@obol/contract';
import { Alert, Box } from '@mui/material';
import { useState } from 'react';
import { hasPermission, useSession } from '../../lib/session.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { InvoiceCard } from './InvoiceCard.tsx';
import { ReportCard } from './ReportCard.tsx';

/**
 * Generate Reports (document 2, section 2.5): an accordion card per report, each only with its permission; the
 * file of a pulled report appears in Download Reports (Initiated, then Completed).
 */
export function GenerateReportsPage() {
  const session = useSession();
  const shown = REPORTS.filter((r) => hasPermission(session, r.permission));
  const invoices = hasPermission(session, 'User can generate invoices');
  const [open, setOpen] = useState<ReportKind | 'invoice' | null>(shown[0]?.kind ?? (invoices ? 'invoice' : null));
  return (
    <>
      <PageTitle>Generate the following reports</PageTitle>
      {shown.length || invoices ? (
        <Box sx={{ maxWidth: 1100 }}>
          {shown.map((r) => (
            <ReportCard
              key={r.kind}
              kind={r.kind}
              expanded={open === r.kind}
              onToggle={() => setOpen(open === r.kind ? null : r.kind)}
            />
          ))}
          {invoices ? (
            <InvoiceCard
              expanded={open === 'invoice'}
              onToggle={() => setOpen(open === 'invoice' ? null : 'invoice')}
            />
          ) : null}
        </Box>
      ) : (
        <Alert severity="info">Your role pulls no reports.</Alert>
      )}
    </>
  );
}
