/** A route that composes two features: the batch list (batches) and the completed transactions (transactions). */
import { Box, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { BatchList } from '../../features/batches/BatchList.tsx';
import { CompletedTransactions } from '../../features/transactions/CompletedTransactions.tsx';

type TabKey = 'batches' | 'completed';

/** Batch Transactions: the batch list (default) and the completed transactions with their fees. */
export function BatchTransactionsPage() {
  const [tab, setTab] = useState<TabKey>('batches');
  return (
    <>
      <PageTitle>Batch Transactions</PageTitle>
      <Tabs value={tab} onChange={(_, v: TabKey) => setTab(v)} sx={{ mb: 2 }} aria-label="Batch transactions views">
        <Tab label="Batches" value="batches" id="tab-batches" aria-controls="tabpanel-batches" />
        <Tab label="Completed Transactions" value="completed" id="tab-completed" aria-controls="tabpanel-completed" />
      </Tabs>
      <Box role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'batches' ? <BatchList mode="all" /> : <CompletedTransactions />}
      </Box>
    </>
  );
}
