/** A route that composes two features: the batch list (batches) and the completed transactions (transactions). */
import { Box, Tab, Tabs } from '@mui/material';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { BatchList } from '../../features/batches/BatchList.tsx';
import { CompletedTransactions } from '../../features/transactions/CompletedTransactions.tsx';
import { oneOf, useUrlParams } from '../../lib/urlState.ts';

const TABS = ['batches', 'completed'] as const;
type TabKey = (typeof TABS)[number];

/**
 * Batch Transactions: the batch list (default) and the completed transactions with their fees. The tab is in the
 * URL (`tab=completed`); a change of tab starts the other list afresh (its own filters and page).
 */
export function BatchTransactionsPage() {
  const { params, setAll } = useUrlParams();
  const tab = oneOf(params.get('tab'), TABS, 'batches');
  return (
    <>
      <PageTitle>Batch Transactions</PageTitle>
      <Tabs
        value={tab}
        onChange={(_, v: TabKey) => setAll(v === 'batches' ? {} : { tab: v })}
        sx={{ mb: 2 }}
        aria-label="Batch transactions views"
      >
        <Tab label="Batches" value="batches" id="tab-batches" aria-controls="tabpanel-batches" />
        <Tab label="Completed Transactions" value="completed" id="tab-completed" aria-controls="tabpanel-completed" />
      </Tabs>
      <Box role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'batches' ? <BatchList key="batches" mode="all" /> : <CompletedTransactions key="completed" />}
      </Box>
    </>
  );
}
