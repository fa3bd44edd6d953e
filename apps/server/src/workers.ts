import { sql } from 'drizzle-orm';
import type { Deps } from './platform/deps.ts';
import { submitPayout } from './features/payouts/service.ts';
import { recoverTransfers, submitTransfer } from './features/transfers/settle.ts';
import { recoverPayins } from './features/payins/settle.ts';
import { recoverRefunds, submitRefund } from './features/payins/refunds.ts';
import { recoverRewards, submitReward } from './features/payins/rewards.ts';
import { recoverInFlight, RECOVER_EVERY_MS } from './features/payouts/recovery.ts';
import { reconcile } from './features/provider/service.ts';
import { stageBatch } from './features/batches/stage.ts';
import { closeStagingReaders, warmStagingReader } from './features/batches/stage-reader.ts';
import { executeBatch, submitBatch } from './features/batches/execute.ts';
import { runExport } from './features/downloads/service.ts';
import { pruneThrottles } from './platform/housekeeping.ts';
import { runDueSchedules } from './features/reports/schedules.ts';
import { recoverAccountingTransactions, submitAccountingTransaction } from './features/accounting/settlement.ts';
import { runDueRules } from './features/accounting/rules.ts';

/** Starts this process's job workers and schedules. Every server process may run them; pg-boss shares the work. */
export async function startWorkers(deps: Deps): Promise<() => Promise<void>> {
  // payouts, transfers and pay-ins a dead process, a lost answer or a lost webhook left in flight: at start, then
  // every 15 s
  let recovering = false;
  const recover = () => {
    if (recovering) return;
    recovering = true;
    recoverInFlight(deps)
      .then(() => recoverTransfers(deps))
      .then(() => recoverPayins(deps))
      .then(() => recoverRefunds(deps))
      .then(() => recoverRewards(deps))
      .then(() => recoverAccountingTransactions(deps))
      .catch((err: unknown) =>
        deps.log.warn({ err }, 'payout, transfer, pay-in, refund, reward or 2D recovery failed; it runs again shortly'),
      )
      .finally(() => (recovering = false));
  };
  const sweeper = setInterval(recover, RECOVER_EVERY_MS);
  sweeper.unref();
  recover();
  await deps.jobs.work<{ payoutId: number }>(
    'payout.submit',
    (data) => submitPayout(deps, deps.provider, data.payoutId),
    {
      batchSize: 50,
    },
  );
  await deps.jobs.work<{ refundId: number }>(
    'refund.submit',
    (data) => submitRefund(deps, deps.provider, data.refundId),
    { batchSize: 10 },
  );
  await deps.jobs.work<{ rewardId: number }>(
    'reward.submit',
    (data) => submitReward(deps, deps.provider, data.rewardId),
    { batchSize: 10 },
  );
  await deps.jobs.work<{ transferId: number }>(
    'transfer.submit',
    (data) => submitTransfer(deps, deps.provider, data.transferId),
    { batchSize: 10 },
  );
  await deps.jobs.work<{ transactionId: number }>(
    'accounting.submit',
    (data) => submitAccountingTransaction(deps, deps.provider, data.transactionId),
    { batchSize: 10 },
  );
  // the staging reader's thread, started now so that the first upload does not wait for it (stage-reader.ts)
  warmStagingReader();
  await deps.jobs.work<{ batchId: string }>('batch.stage', (d) => stageBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ batchId: string }>('batch.execute', (d) => executeBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ batchId: string }>('batch.submit', (d) => submitBatch(deps, d.batchId), { batchSize: 1 });
  await deps.jobs.work<{ fileId: number }>('export.run', (d) => runExport(deps, d.fileId), { batchSize: 1 });
  await deps.jobs.work('provider.reconcile', async () => {
    await reconcile(deps);
  });
  await deps.jobs.schedule('provider.reconcile', '*/15 * * * *');
  // monthly reports: on the first of the month (UTC), and once at start for a month missed while the server was down
  await deps.jobs.work('reports.monthly', async () => {
    const pulled = await runDueSchedules(deps);
    if (pulled) deps.log.info({ pulled }, 'monthly reports pulled');
  });
  await deps.jobs.schedule('reports.monthly', '5 0 1 * *');
  await deps.jobs.send('reports.monthly', {}, { singletonKey: 'reports.monthly:start' });
  // accounting rules: every minute, and once at start for a period missed while the server was down (each period
  // is claimed once across processes: rules.ts runDueRules)
  await deps.jobs.work('accounting.rules', async () => {
    const ran = await runDueRules(deps);
    if (ran) deps.log.info({ ran }, 'accounting rules ran');
  });
  await deps.jobs.schedule('accounting.rules', '* * * * *');
  await deps.jobs.send('accounting.rules', {}, { singletonKey: 'accounting.rules:start' });
  // rate-limit windows, quiet sign-in throttles and old passkey challenges that no longer decide anything
  await deps.jobs.work('maintenance.prune', async () => {
    const pruned = await pruneThrottles(deps);
    deps.log.info({ pruned }, 'throttle rows pruned');
  });
  await deps.jobs.schedule('maintenance.prune', '23 * * * *');
  if (deps.database.kind === 'pglite') {
    // PGlite has no autovacuum
    await deps.jobs.work('maintenance.vacuum', async () => {
      await deps.db.execute(sql`VACUUM ANALYZE`);
    });
    await deps.jobs.schedule('maintenance.vacuum', '17 3 * * *');
  }
  return async () => {
    clearInterval(sweeper);
    await closeStagingReaders();
  };
}
