import { sql } from 'drizzle-orm';
import type { Deps } from './platform/deps.ts';
import { QUEUES, type JobData, type JobName } from './platform/jobs.ts';
import { payoutMovement } from './features/batches/payout-movement.ts';
import { recoverMovements, RECOVER_EVERY_MS } from './features/engine/recover.ts';
import { submitMovement } from './features/engine/submit.ts';
import { transferMovement } from './features/transfers/movement.ts';
import { refundMovement } from './features/payins/refunds.ts';
import { rewardMovement } from './features/payins/rewards.ts';
import { MOVEMENTS } from './features/provider/movements.ts';
import { reconcile } from './features/provider/service.ts';
import { stageBatch } from './features/batches/stage.ts';
import { closeStagingReaders, warmStagingReader } from './features/batches/stage-reader.ts';
import { executeBatch, submitBatch } from './features/batches/execute.ts';
import { runExport } from './features/downloads/service.ts';
import { deliver } from './features/webhooks/deliver.ts';
import { tidyWebhooks } from './features/webhooks/tidy.ts';
import { dispatchWebhooks, DISPATCH_EVERY_MS, webhookCursorEventId } from './features/webhooks/dispatch.ts';
import {
  activityCursorEventId,
  MOVING_MS,
  recordMoneyEvents,
  RECORD_EVERY_MS,
  RECORD_PAGE,
} from './features/activity/money.ts';
import { pruneMoneyEvents } from './features/engine/prune.ts';
import { movedWithin } from './features/engine/events.ts';
import { pruneRateLimits } from './platform/housekeeping.ts';
import { pruneLoginThrottle } from './features/auth/throttle.ts';
import { pruneChallenges } from './features/passkeys/registration.ts';
import { runDueSchedules } from './features/reports/schedules.ts';
import { accountingMovement } from './features/accounting/settlement.ts';
import { runDueRules } from './features/accounting/rules.ts';

/**
 * Deletes the throttle rows that no longer decide anything (each by its owner, one statement each): rate-limit
 * windows, quiet sign-in throttles, old passkey challenges. Answers how many of each went.
 */
export async function pruneThrottles(deps: Pick<Deps, 'db' | 'config'>) {
  return {
    rateLimits: await pruneRateLimits(deps),
    loginThrottle: await pruneLoginThrottle(deps),
    passkeyChallenges: await pruneChallenges(deps.db),
  };
}

/**
 * Deletes the outbox's events every reader is done with: the readers that keep a cursor (the webhooks' dispatch,
 * the activity log) hand in where they are; open screens are covered by the engine's age limit.
 */
export async function pruneOutbox(deps: Pick<Deps, 'db'>) {
  const consumed = [await webhookCursorEventId(deps), await activityCursorEventId(deps)];
  return { moneyEvents: await pruneMoneyEvents(deps.db, consumed) };
}

/** What a job does, how many a worker takes at once, and the schedule it runs on, if any. */
interface Handler<N extends JobName> {
  run(data: JobData<N>): Promise<void>;
  batchSize?: number;
  cron?: string;
}

/**
 * The handler of every job of the job table (platform/jobs.ts JOBS): the type requires one for each, so a job is
 * declared there once (name and payload) and handled here once.
 */
function handlers(deps: Deps): { [N in JobName]: Handler<N> } {
  return {
    'payout.submit': { run: (d) => submitMovement(deps, payoutMovement, d.payoutId), batchSize: 50 },
    'refund.submit': { run: (d) => submitMovement(deps, refundMovement, d.refundId), batchSize: 10 },
    'reward.submit': { run: (d) => submitMovement(deps, rewardMovement, d.rewardId), batchSize: 10 },
    'transfer.submit': { run: (d) => submitMovement(deps, transferMovement, d.transferId), batchSize: 10 },
    'accounting.submit': {
      run: (d) => submitMovement(deps, accountingMovement, d.transactionId),
      batchSize: 10,
    },
    'batch.stage': { run: (d) => stageBatch(deps, d.batchId) },
    'batch.execute': { run: (d) => executeBatch(deps, d.batchId) },
    'batch.submit': { run: (d) => submitBatch(deps, d.batchId) },
    'export.run': { run: (d) => runExport(deps, d.fileId) },
    'webhook.deliver': { run: (d) => deliver(deps, d.deliveryId), batchSize: 10 },
    'provider.reconcile': {
      run: async () => {
        await reconcile(deps);
      },
      batchSize: 20,
      cron: '*/15 * * * *',
    },
    // monthly reports: on the first of the month (UTC)
    'reports.monthly': {
      run: async () => {
        const pulled = await runDueSchedules(deps);
        if (pulled) deps.log.info({ pulled }, 'monthly reports pulled');
      },
      batchSize: 20,
      cron: '5 0 1 * *',
    },
    // accounting rules: every minute (each period is claimed once across processes: rules.ts runDueRules)
    'accounting.rules': {
      run: async () => {
        const ran = await runDueRules(deps);
        if (ran) deps.log.info({ ran }, 'accounting rules ran');
      },
      batchSize: 20,
      cron: '* * * * *',
    },
    // rate-limit windows, quiet sign-in throttles and old passkey challenges that no longer decide anything; outbox
    // events every reader has read; old webhook delivery logs, deliveries whose job was lost, and the demo shop's
    // day-old events
    'maintenance.prune': {
      run: async () => {
        const pruned = await pruneThrottles(deps);
        deps.log.info({ pruned }, 'throttle rows pruned');
        const outbox = await pruneOutbox(deps);
        if (outbox.moneyEvents) deps.log.info(outbox, 'outbox events pruned');
        const webhooks = await tidyWebhooks(deps);
        if (webhooks.pruned || webhooks.requeued || webhooks.demoShop)
          deps.log.info(webhooks, 'webhook deliveries tidied');
      },
      batchSize: 20,
      cron: '23 * * * *',
    },
    // PGlite has no autovacuum; a PostgreSQL server vacuums itself (the job is never scheduled there)
    'maintenance.vacuum': {
      run: async () => {
        await deps.db.execute(sql`VACUUM ANALYZE`);
      },
      batchSize: 20,
      cron: deps.database.kind === 'pglite' ? '17 3 * * *' : undefined,
    },
  };
}

/** Starts this process's job workers and schedules. Every server process may run them; pg-boss shares the work. */
export async function startWorkers(deps: Deps): Promise<() => Promise<void>> {
  // payouts, transfers, refunds, rewards, 2D transfers and pay-ins a dead process, a lost answer or a lost webhook
  // left in flight: at start, then every 15 s
  let recovering = false;
  const recover = () => {
    if (recovering) return;
    recovering = true;
    // the one recover path, over every kind the engine moves; one kind failing does not hold the others back
    (async () => {
      for (const m of MOVEMENTS)
        await recoverMovements(deps, m).catch((err: unknown) =>
          deps.log.warn({ err, kind: m.kind }, `${m.kind} recovery failed; it runs again shortly`),
        );
    })().finally(() => (recovering = false));
  };
  const sweeper = setInterval(recover, RECOVER_EVERY_MS);
  sweeper.unref();
  // merchants' webhooks: new outbox events become deliveries (each a job) within about a second
  let dispatching = false;
  const dispatch = () => {
    if (dispatching) return;
    dispatching = true;
    dispatchWebhooks(deps)
      .catch((err: unknown) => deps.log.warn({ err }, 'webhook dispatch failed; it runs again shortly'))
      .finally(() => (dispatching = false));
  };
  const dispatcher = setInterval(dispatch, DISPATCH_EVERY_MS);
  dispatcher.unref();
  // the activity log: committed outbox events become its records within about a second
  let recording = false;
  let closed = false;
  const record = async () => {
    if (recording) return;
    recording = true;
    try {
      // a full page says more are waiting (a large batch's events): go on at once rather than a page a second,
      // unless money is moving now: then the commands come first and the rest waits for the next tick
      while (
        !closed &&
        (await recordMoneyEvents(deps, RECORD_PAGE)) === RECORD_PAGE &&
        !(await movedWithin(deps.db, MOVING_MS))
      );
    } catch (err) {
      deps.log.warn({ err }, 'recording money events failed; it runs again shortly');
    } finally {
      recording = false;
    }
  };
  const recorder = setInterval(() => void record(), RECORD_EVERY_MS);
  recorder.unref();
  recover();
  // the staging reader's thread, started now so that the first upload does not wait for it (stage-reader.ts)
  warmStagingReader();
  const table = handlers(deps);
  for (const name of QUEUES) {
    const h = table[name] as Handler<typeof name>;
    await deps.jobs.work(name, h.run, { batchSize: h.batchSize ?? 1 });
    if (h.cron) await deps.jobs.schedule(name, h.cron);
  }
  // once at start, for a month or a rule's period missed while the server was down
  await deps.jobs.send('reports.monthly', {}, { singletonKey: 'reports.monthly:start' });
  await deps.jobs.send('accounting.rules', {}, { singletonKey: 'accounting.rules:start' });
  return async () => {
    clearInterval(sweeper);
    clearInterval(dispatcher);
    clearInterval(recorder);
    closed = true;
    await closeStagingReaders();
  };
}
