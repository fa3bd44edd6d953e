import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { fromDrizzle, fromPglite, PgBoss, type Job } from 'pg-boss';
import { z } from 'zod';
import type { Database, Tx } from './db.ts';
import { withParsedDates } from './pglite-client.ts';

/** A job's id field: a row id, a positive whole number. */
const rowId = z.number().int().positive();
/** A job that carries nothing (a schedule's run); extra fields are kept as sent. */
const nothing = z.looseObject({});

/**
 * Every job, declared once: its name and the schema of its payload. `send` takes a payload of that type, and a
 * worker's handler gets one parsed by that schema (a payload that does not match fails the job, logged, rather
 * than running it on a guess). The handler of each is bound in workers.ts, in a map that must name every job here.
 */
export const JOBS = {
  'payout.submit': z.object({ payoutId: rowId }),
  'transfer.submit': z.object({ transferId: rowId }),
  'refund.submit': z.object({ refundId: rowId }),
  'reward.submit': z.object({ rewardId: rowId }),
  'accounting.submit': z.object({ transactionId: rowId }),
  'batch.stage': z.object({ batchId: z.string().min(1) }),
  'batch.execute': z.object({ batchId: z.string().min(1) }),
  'batch.submit': z.object({ batchId: z.string().min(1) }),
  'export.run': z.object({ fileId: rowId }),
  'webhook.deliver': z.object({ deliveryId: rowId }),
  'provider.reconcile': nothing,
  'reports.monthly': nothing,
  'accounting.rules': nothing,
  'maintenance.prune': nothing,
  'maintenance.vacuum': nothing,
} as const satisfies Record<string, z.ZodType<object>>;

export type JobName = keyof typeof JOBS;
export type JobData<N extends JobName> = z.output<(typeof JOBS)[N]>;

/**
 * The job queue: pg-boss on the same PostgreSQL (or PGlite) as the data, so a job exists if and only if
 * the business row that asked for it committed (enqueue with `tx`), it survives restarts, and several
 * processes share the work. Handlers must be idempotent: a job may run again after a crash.
 */
export interface Jobs {
  boss: PgBoss;
  /** enqueue, inside the caller's transaction when `tx` is given */
  send<N extends JobName>(
    name: N,
    data: JobData<N>,
    opts?: { tx?: Tx; singletonKey?: string; startAfter?: number | Date; retryLimit?: number },
  ): Promise<string | null>;
  work<N extends JobName>(
    name: N,
    handler: (data: JobData<N>) => Promise<void>,
    opts?: { batchSize?: number; pollingIntervalSeconds?: number },
  ): Promise<void>;
  schedule(name: JobName, cron: string): Promise<void>;
  stop(): Promise<void>;
}

/** Every queue: one per job. */
export const QUEUES = Object.keys(JOBS) as JobName[];

// a job whose worker died (no heartbeat) is handed to another worker within about 20 seconds
const supervision = { superviseIntervalSeconds: 10, monitorIntervalSeconds: 10, maintenanceIntervalSeconds: 60 };

/**
 * Every queue's jobs carry a heartbeat: a worker refreshes it every 10 s while it works, and a job whose
 * heartbeat is 20 s old (its process died) is failed by the monitor and retried, so work a killed process
 * left half done resumes within about half a minute. Expiry is then only a backstop for a live worker
 * stuck for hours, never what decides that a long staging or export has died.
 */
export const QUEUE_OPTIONS = {
  retryLimit: 10,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 60,
  heartbeatSeconds: 20,
  expireInSeconds: 4 * 3600,
};

/**
 * On PostgreSQL a job wakes its workers the moment the transaction that enqueued it commits, in whichever process
 * they run: each queue notifies (pg-boss inlines a pg_notify into the job's INSERT, so it is sent at that commit
 * and never for a rolled-back one) and each process listens on one connection of its own. Polling every
 * POLL_SECONDS stays as the floor: it finds what a notification missed (a listener reconnecting) and jobs whose
 * start time comes later (retries). PGlite runs the workers in the same process and keeps to polling.
 */
const POLL_SECONDS = 0.5;

export async function createJobs(database: Database, log: FastifyBaseLogger): Promise<Jobs> {
  const listen = database.kind === 'postgres';
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({
          db: fromPglite(withParsedDates(database.pglite!)),
          backend: 'pglite',
          schema: 'pgboss',
          ...supervision,
        })
      : // one connection more than before: the listener holds its own
        new PgBoss({
          connectionString: database.url!,
          max: 5,
          schema: 'pgboss',
          useListenNotify: true,
          ...supervision,
        });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  boss.on('warning', (warning) => log.warn({ warning }, 'job queue warning'));
  await boss.start();
  const queueOptions = { ...QUEUE_OPTIONS, notify: listen };
  for (const q of QUEUES) {
    if (await boss.getQueue(q)) await boss.updateQueue(q, queueOptions);
    else await boss.createQueue(q, queueOptions).catch(() => boss.updateQueue(q, queueOptions));
  }
  const workers: string[] = [];
  return {
    boss,
    async send(name, data, opts = {}) {
      const options = {
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
        ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
        ...(opts.retryLimit !== undefined ? { retryLimit: opts.retryLimit } : {}),
        ...(opts.tx ? { db: fromDrizzle(opts.tx as never, sql as never) } : {}),
      };
      return boss.send(name, JOBS[name].parse(data) as object, options);
    },
    async work(name, handler, opts = {}) {
      const schema = JOBS[name] as unknown as z.ZodType<JobData<typeof name>>;
      const id = await boss.work(
        name,
        {
          batchSize: opts.batchSize ?? 20,
          pollingIntervalSeconds: opts.pollingIntervalSeconds ?? POLL_SECONDS,
          notifyPollingIntervalSeconds: opts.pollingIntervalSeconds ?? POLL_SECONDS,
        },
        async (jobs) => {
          // one failing job must not fail the others of the batch
          for (const job of jobs as Job<unknown>[]) {
            try {
              await handler(schema.parse(job.data));
            } catch (err) {
              log.error({ err, job: job.id, queue: name }, 'job failed; it will be retried');
              await boss.fail(name, job.id, { message: String((err as Error)?.message ?? err) }).catch(() => undefined);
            }
          }
        },
      );
      workers.push(id);
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {});
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5_000 }).catch(() => undefined);
    },
  };
}
