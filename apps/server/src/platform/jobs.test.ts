import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, engine } from '../test/harness.ts';
import { rowsOf, type Database } from './db.ts';
import { createJobs, type Jobs } from './jobs.ts';

// Two job queues on one PostgreSQL database stand for two processes: one enqueues, the other works.
describe.runIf(engine === 'postgres')('a job enqueued on PostgreSQL', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let producer: Jobs;
  let worker: Jobs;
  const ran: { key: string; at: number }[] = [];

  beforeAll(async () => {
    const t = await createTestDatabase();
    database = t.database;
    drop = t.drop;
    producer = await createJobs(database, pino({ level: 'silent' }));
    worker = await createJobs(database, pino({ level: 'silent' }));
    // a poll every 60 s: only the notification can start a job within this test's time
    await worker.work(
      'maintenance.prune',
      async (data) => {
        ran.push({ key: String(data.key), at: Date.now() });
      },
      { pollingIntervalSeconds: 60 },
    );
    // the worker's first fetch, at its start, finds nothing; from here on it waits
    await new Promise((r) => setTimeout(r, 500));
  });
  afterAll(async () => {
    await worker?.stop();
    await producer?.stop();
    await drop?.();
  });

  const until = async (done: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
  };

  it('wakes a worker of another process when its transaction commits, not at the next poll', async () => {
    let committedAt = 0;
    await database.db.transaction(async (tx) => {
      await producer.send('maintenance.prune', { key: 'committed' }, { tx });
      // held open: the job is not there for anyone before the commit
      await tx.execute(sql`SELECT pg_sleep(0.3)`);
      expect(ran).toEqual([]);
    });
    committedAt = Date.now();
    await until(() => ran.some((r) => r.key === 'committed'), 15_000);
    const run = ran.find((r) => r.key === 'committed');
    expect(run, 'the job ran before the next poll (60 s)').toBeDefined();
    expect(run!.at).toBeGreaterThanOrEqual(committedAt - 50);
  });

  it('and one rolled back is never worked', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await producer.send('maintenance.prune', { key: 'rolled back' }, { tx });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await producer.send('maintenance.prune', { key: 'after' });
    await until(() => ran.some((r) => r.key === 'after'), 15_000);
    expect(ran.map((r) => r.key)).toEqual(['committed', 'after']);
  });
});

// The job table (JOBS): a payload is checked against its job's schema where it is sent.
describe('a job sent with a payload its job does not declare', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let jobs: Jobs;
  beforeAll(async () => {
    const t = await createTestDatabase();
    database = t.database;
    drop = t.drop;
    jobs = await createJobs(database, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await jobs?.stop();
    await drop?.();
  });

  it('is refused before it is queued', async () => {
    await expect(jobs.send('export.run', { fileId: -1 })).rejects.toThrow();
    await expect(jobs.send('batch.stage', { batchId: 42 } as never)).rejects.toThrow();
    const queued = async () =>
      rowsOf<{ n: number | string }>(
        await database.db.execute(sql`SELECT count(*) AS n FROM pgboss.job WHERE name = 'export.run'`),
      )[0].n;
    expect(Number(await queued())).toBe(0);
    expect(await jobs.send('export.run', { fileId: 1 })).toBeTruthy();
    expect(Number(await queued())).toBe(1);
  });
});
