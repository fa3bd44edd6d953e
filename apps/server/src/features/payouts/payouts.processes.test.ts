import { eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, type Jobs } from '../../platform/jobs.ts';
import { createProviderClient } from '../../platform/provider.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Database } from '../../platform/db.ts';
import { seedDemo, syncReferenceData, userIdByEmail } from '../../seed.ts';
import { createTestDatabase, engine } from '../../test/harness.ts';
import { PROVIDER_KEY, startProviderProcess, startServerProcess, freePort, type Proc } from '../../test/processes.ts';
import { holderAccounts } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/service.ts';
import { journalEntries } from '../ledger/tables.ts';
import { reconcile } from '../provider/service.ts';
import { createPayout } from './service.ts';
import { payouts } from './tables.ts';
import { wordOf } from '../engine/status.ts';

// Several processes need a PostgreSQL server: these run on the TEST_DATABASE_URL pass of the suite.
describe.runIf(engine === 'postgres')('payouts worked by real server processes on PostgreSQL', () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;
  let jobs: Jobs;
  const procs: Proc[] = [];
  let merchantId: number;
  let createdBy: number;

  beforeAll(async () => {
    const t = await createTestDatabase();
    database = t.database;
    url = t.url!;
    drop = t.drop;
    await syncReferenceData(database.db);
    await seedDemo(database.db, 'Test@pass1');
    jobs = await createJobs(database, pino({ level: 'silent' }));
    merchantId = (await userIdByEmail(database.db, 'merchant@obol.example'))!;
    createdBy = (await userIdByEmail(database.db, 'payment-ops@obol.example'))!;
  });
  // a test that fails must not leave its processes working on the next test's payouts
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.kill('SIGKILL');
  });
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await jobs?.stop();
    await drop?.();
  });

  /** n payouts from the demo merchant: most complete, every 7th fails 'Brand does not match', every 11th is declined */
  async function makePayouts(n: number, tag: string) {
    const account = (await holderAccounts(database.db, merchantId)).payout!;
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const row = await database.db.transaction((tx) =>
        createPayout(tx, jobs, {
          merchantId,
          behalfOfId: merchantId,
          account,
          createdBy,
          feeBps: 150,
          merchantTransactionId: `${tag}-${i}`,
          beneficiaryName: `Beneficiary ${i}`,
          brand: i % 7 === 3 ? 'Globex Outlet' : 'Acme Brand',
          obolId: `1${String(i).padStart(8, '0')}`,
          reference: `${tag} ${i}`,
          amount: i % 11 === 5 ? 66_600 : 100 + i,
          idempotencyKey: `${tag}:${i}`,
        }),
      );
      ids.push(row.id);
    }
    return ids;
  }

  async function waitSettled(ids: number[], ms = 120_000) {
    const end = Date.now() + ms;
    for (;;) {
      const [{ n }] = (
        await database.db.execute(
          sql`SELECT count(*)::int AS n FROM payouts
            WHERE status = 'in_flight' AND id = ANY(${sql.param(ids)}::bigint[])`,
        )
      ).rows as { n: number }[];
      if (n === 0) return;
      if (Date.now() > end)
        throw new Error(`${n} payouts still Processing:\n${procs.map((p) => p.output()).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  /** Every payout settled exactly once, at the provider and in the ledger, and the books balance. */
  async function assertExactlyOnce(ids: number[], providerUrl: string) {
    const rows = await database.db.select().from(payouts).where(inArray(payouts.id, ids));
    expect(rows.every((r) => r.status === 'completed' || r.status === 'failed')).toBe(true);
    expect(rows.some((r) => r.status === 'failed' && r.failureMessage === 'Brand does not match')).toBe(true);
    const client = createProviderClient({ baseUrl: providerUrl, apiKey: PROVIDER_KEY });
    const statement = (await client.statement()).filter((i) => i.type === 'payout');
    const keys = new Set(rows.map((r) => r.idempotencyKey));
    const theirs = statement.filter((i) => keys.has(i.idempotency_key));
    // the provider paid each payout once
    expect(theirs).toHaveLength(ids.length);
    expect(new Set(theirs.map((i) => i.idempotency_key)).size).toBe(ids.length);
    for (const r of rows) {
      const entries = await database.db
        .select({ kind: journalEntries.kind })
        .from(journalEntries)
        .where(sql`${journalEntries.businessType} = 'payout' AND ${journalEntries.businessId} = ${String(r.id)}`);
      const kinds = entries.map((e) => e.kind).sort();
      expect(kinds).toEqual(
        r.status === 'completed' ? ['payout.complete', 'payout.reserve'] : ['payout.reserve', 'payout.reversal'],
      );
      const item = theirs.find((i) => i.idempotency_key === r.idempotencyKey)!;
      expect(item.status).toBe(wordOf('payout', r.status));
      expect(item.amount).toBe(r.amount);
    }
    const tb = await trialBalance(database.db);
    expect(tb.balanced).toBe(true);
    const deps = { db: database.db, provider: client, log: pino({ level: 'silent' }) } as unknown as Deps;
    const report = await reconcile(deps);
    expect(report.differences.filter((d) => d.reference && rows.some((r) => r.reference === d.reference))).toEqual([]);
  }

  it('two server processes working the same queue pay nothing twice', async () => {
    const portA = await freePort();
    const provider = await startProviderProcess({
      webhookUrl: `http://127.0.0.1:${portA}/api/provider/webhook`,
      settleMs: 100,
    });
    procs.push(provider);
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url, port: portA }));
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url }));
    const before = (await holderAccounts(database.db, merchantId)).payout!.balance;
    const ids = await makePayouts(120, 'two');
    await waitSettled(ids);
    await assertExactlyOnce(ids, provider.url);
    const rows = await database.db.select().from(payouts).where(inArray(payouts.id, ids));
    const spent = rows.filter((r) => r.status === 'completed').reduce((s, r) => s + r.amount + r.fee, 0);
    expect((await holderAccounts(database.db, merchantId)).payout!.balance).toBe(before - spent);
    for (const p of procs.splice(0)) await p.kill();
  }, 120_000);

  it('a server killed in the middle of settling payouts, once restarted, settles each exactly once', async () => {
    const port = await freePort();
    const provider = await startProviderProcess({
      webhookUrl: `http://127.0.0.1:${port}/api/provider/webhook`,
      settleMs: 50,
    });
    procs.push(provider);
    let server = await startServerProcess({ databaseUrl: url, providerUrl: provider.url, port });
    procs.push(server);
    const ids = await makePayouts(200, 'kill');
    // wait until settling is under way, then kill the server without warning
    const end = Date.now() + 60_000;
    for (;;) {
      const [{ n }] = (
        await database.db.execute(
          sql`SELECT count(*)::int AS n FROM payouts
            WHERE status <> 'in_flight' AND id = ANY(${sql.param(ids)}::bigint[])`,
        )
      ).rows as { n: number }[];
      if (n >= 20) break;
      if (Date.now() > end) throw new Error(`settling did not start:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.kill('SIGKILL');
    const unsettled = await database.db.select({ id: payouts.id }).from(payouts).where(eq(payouts.status, 'in_flight'));
    expect(unsettled.length).toBeGreaterThan(0);
    server = await startServerProcess({ databaseUrl: url, providerUrl: provider.url, port });
    procs.push(server);
    await waitSettled(ids, 150_000);
    await assertExactlyOnce(ids, provider.url);
  }, 240_000);
});
