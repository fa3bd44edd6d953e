import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { sessionStore } from '../../lib/session.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { BatchList } from './BatchList.tsx';

export type { BatchRow } from './BatchList.tsx';

/** Batches of the last 24 hours. */
export function RecentBatchesPage() {
  const location = useLocation();
  // arriving from an executed batch: it is no longer the current one
  useEffect(() => {
    const executed = (location.state as { clearBatch?: string } | null)?.clearBatch;
    if (executed && sessionStore.get()?.batch?.batch_id === executed) sessionStore.setBatch(null);
  }, [location.state]);
  return (
    <>
      <PageTitle>Recent Batches</PageTitle>
      <BatchList mode="recent" />
    </>
  );
}
