import { sql } from 'drizzle-orm';
import type { Deps } from './platform/deps.ts';
import { submitPayout, sweepUnsubmitted } from './features/payouts/service.ts';
import { reconcile } from './features/provider/service.ts';
import { executeBatch, stageBatch, submitBatch } from './features/batches/service.ts';
import { runExport } from './features/downloads/service.ts';

/** Starts this process's job workers and schedules. Every server process may run them; pg-boss shares the work. */
export async function startWorkers(deps: Deps): Promise<() => void> {
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepUnsubmitted(deps)
      .catch((err) => deps.log.warn({ err }, 'payout sweep failed; it runs again shortly'))
      .finally(() => (sweeping = false));
  }, 15_000);
  sweeper.unref();
  await deps.jobs.work<{ payoutId: number }>(
    'payout.submit',
    (data) => submitPayout(deps, deps.provider, data.payoutId),
    {
      batchSize: 50,
    },
  );
  await deps.jobs.work<{ batchId: string }>('batch.stage', (d) => stageBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ batchId: string }>('batch.execute', (d) => executeBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ batchId: string }>('batch.submit', (d) => submitBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ fileId: number }>('export.run', (d) => runExport(deps, d.fileId), { batchSize: 1 });
  await deps.jobs.work('provider.reconcile', async () => {
    await reconcile(deps);
  });
  await deps.jobs.schedule('provider.reconcile', '*/15 * * * *');
  if (deps.database.kind === 'pglite') {
    // PGlite has no autovacuum
    await deps.jobs.work('maintenance.vacuum', async () => {
      await deps.db.execute(sql`VACUUM ANALYZE`);
    });
    await deps.jobs.schedule('maintenance.vacuum', '17 3 * * *');
  }
  return () => clearInterval(sweeper);
}
