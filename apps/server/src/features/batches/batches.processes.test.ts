import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { feeCents } from '@obol/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { createProviderClient } from '../../platform/provider.ts';
import { seedDemo, syncReferenceData, userIdByEmail } from '../../seed.ts';
import { createTestDatabase, DEMO_PASSWORD, engine, startTestApp, type TestApp } from '../../test/harness.ts';
import { freePort, PROVIDER_KEY, startProviderProcess, startServerProcess, type Proc } from '../../test/processes.ts';
import { holderReference } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/service.ts';
import { journalEntries } from '../ledger/tables.ts';
import { payouts } from '../payouts/tables.ts';
import { batches, stagedTransactions } from './tables.ts';
import { wordOf } from '../engine/status.ts';

// A server process killed with SIGKILL in the middle of the work, on PostgreSQL. The test drives the API
// from an app of its own (no workers) on the same database; the jobs run in the server processes.
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';

describe.runIf(engine === 'postgres')('work a killed server left half done', () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;
  let driver: TestApp;
  let merchant: string;
  let merchantId: number;
  let ref: string;
  const procs: Proc[] = [];
  // uploads wait in the file store: with a folder, every process must see the same one (FILES_DIR)
  const filesDir = mkdtempSync(path.join(tmpdir(), 'obol-files-'));

  beforeAll(async () => {
    const t = await createTestDatabase();
    database = t.database;
    url = t.url!;
    drop = t.drop;
    await syncReferenceData(database.db);
    await seedDemo(database.db, DEMO_PASSWORD);
  }, 120_000);
  async function killAll() {
    for (const p of procs.splice(0)) await p.kill('SIGKILL');
  }
  afterEach(killAll);
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await driver?.close();
    await drop?.();
  });

  async function start(providerUrl: string) {
    const server = await startServerProcess({
      databaseUrl: url,
      providerUrl,
      env: { PAYOUT_RECOVERY_SECONDS: '5', FILES_DIR: filesDir },
    });
    procs.push(server);
    return server;
  }

  async function until<T>(what: string, ms: number, probe: () => Promise<T | null | undefined | false>) {
    const end = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v) return v;
      if (Date.now() > end)
        throw new Error(`${what} within ${ms} ms:\n${procs.map((p) => p.output()).join('\n---\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('a batch being paid when the server dies, with every webhook lost, settles exactly once within a minute of restart', async () => {
    // the simulator's webhooks go to a port nobody listens on: only the recovery can settle anything
    const provider = await startProviderProcess({
      webhookUrl: `http://127.0.0.1:${await freePort()}/api/provider/webhook`,
      settleMs: 50,
    });
    procs.push(provider);
    driver = await startTestApp(
      { LOG_LEVEL: 'error', PROVIDER_API_KEY: PROVIDER_KEY, FILES_DIR: filesDir },
      {
        database,
        providerUrl: provider.url,
      },
    );
    merchant = await driver.signIn('merchant@obol.example');
    merchantId = (await userIdByEmail(database.db, 'merchant@obol.example'))!;
    ref = holderReference(merchantId);
    let server = await start(provider.url);
    // 400 rows; every 9th to another brand's wallet (the provider fails it)
    const rows = Array.from(
      { length: 400 },
      (_, i) =>
        `Payee ${i},${i % 9 === 4 ? 2 : 1}${String(i).padStart(8, '0')},KILL-${i},Acme Brand,Invoice ${i},${100 + i}`,
    );
    const up = await driver.upload(
      '/api/upload-transactions',
      { file_name: 'kill.csv', behalf_of_id: String(merchantId), account_reference: ref },
      { name: 'kill.csv', content: `${HEADER}\n${rows.join('\n')}\n` },
      merchant,
    );
    expect(up.status, up.text).toBe(200);
    const batchId = up.body.batch_id as string;
    await until('staged', 60_000, async () => {
      const p = await driver.post('/api/batch-progress', { id: batchId }, merchant);
      if (p.status !== 200) throw new Error(`staging: ${p.status} ${p.text}`);
      return p.body.status === 'Pending';
    });
    const before = (await driver.post('/api/account-balance', { account_reference: ref }, merchant)).body
      .balance as number;
    expect((await driver.post('/api/execute-batch', { batch_id: batchId }, merchant)).status).toBe(200);
    const code = driver.lastMailTo('merchant@obol.example')!.code!;
    const ok = await driver.post('/api/confirm-batch', { batch_id: batchId, code }, merchant);
    expect(ok.status, ok.text).toBe(200);
    const total = rows.reduce((s, _r, i) => s + 100 + i, 0);
    expect(ok.body).toMatchObject({ amount: total, fee: feeCents(total, 150) });
    // kill it while the payouts are being sent to the provider
    await until('sending under way', 60_000, async () => {
      const [{ n }] = await database.db
        .select({ n: count() })
        .from(payouts)
        .where(and(eq(payouts.batchId, batchId), sql`${payouts.providerId} IS NOT NULL`));
      return n >= 40;
    });
    await server.kill('SIGKILL');
    const left = await database.db
      .select({ n: count() })
      .from(payouts)
      .where(and(eq(payouts.batchId, batchId), eq(payouts.status, 'in_flight')));
    const [b0] = await database.db.select().from(batches).where(eq(batches.batchId, batchId));
    expect(b0.status === 'Processing' || left[0].n > 0).toBe(true);
    const restarted = Date.now();
    server = await start(provider.url);
    await until('every payout settled', 60_000, async () => {
      const [b] = await database.db.select().from(batches).where(eq(batches.batchId, batchId));
      const [{ n }] = await database.db
        .select({ n: count() })
        .from(payouts)
        .where(and(eq(payouts.batchId, batchId), eq(payouts.status, 'in_flight')));
      return b.status === 'Completed' && n === 0;
    });
    expect(Date.now() - restarted).toBeLessThan(60_000);

    // exactly once: at the provider, in our payouts, in the ledger; the books balance
    const ours = await database.db.select().from(payouts).where(eq(payouts.batchId, batchId));
    expect(ours).toHaveLength(400);
    const client = createProviderClient({ baseUrl: provider.url, apiKey: PROVIDER_KEY });
    const theirs = await client.lookupPayouts(ours.map((p) => p.idempotencyKey));
    expect(theirs).toHaveLength(400);
    const statement = (await client.statement()).filter((i) => i.type === 'payout');
    expect(new Set(statement.map((i) => i.idempotency_key)).size).toBe(statement.length);
    const byKey = new Map(theirs.map((i) => [i.idempotency_key, i]));
    for (const p of ours) {
      expect(wordOf('payout', p.status)).toBe(byKey.get(p.idempotencyKey)!.status);
      const kinds = (
        await database.db
          .select({ kind: journalEntries.kind })
          .from(journalEntries)
          .where(and(eq(journalEntries.businessType, 'payout'), eq(journalEntries.businessId, String(p.id))))
      ).map((e) => e.kind);
      expect(kinds).toEqual(p.status === 'completed' ? ['payout.complete'] : ['payout.reversal']);
    }
    const failed = ours.filter((p) => p.status === 'failed');
    expect(failed.length).toBe(rows.filter((_r, i) => i % 9 === 4).length);
    const paid = total - failed.reduce((s, p) => s + p.amount, 0);
    const after = (await driver.post('/api/account-balance', { account_reference: ref }, merchant)).body.balance;
    expect(after).toBe(before - paid - feeCents(paid, 150));
    expect((await trialBalance(database.db)).balanced).toBe(true);
    await killAll();
  }, 300_000);

  it('a staging job killed mid-way resumes within a minute, and stages every row once', async () => {
    const provider = await startProviderProcess({ webhookUrl: 'http://127.0.0.1:9/none', settleMs: 50 });
    procs.push(provider);
    let server = await start(provider.url);
    const n = 60_000;
    const lines = Array.from(
      { length: n },
      (_, i) => `Payee ${i},100000001,STAGE-${i},Acme Brand,Invoice ${i},${1 + (i % 50)}`,
    );
    const up = await driver.upload(
      '/api/upload-transactions',
      { file_name: 'stage.csv', behalf_of_id: String(merchantId), account_reference: ref },
      { name: 'stage.csv', content: `${HEADER}\n${lines.join('\n')}\n` },
      merchant,
    );
    expect(up.status, up.text).toBe(200);
    const batchId = up.body.batch_id as string;
    await until('staging under way', 60_000, async () => {
      const [b] = await database.db.select().from(batches).where(eq(batches.batchId, batchId));
      return b.processedRows > 0 && b.processedRows < n;
    });
    await server.kill('SIGKILL');
    const restarted = Date.now();
    server = await start(provider.url);
    await until('staged after the restart', 90_000, async () => {
      const [b] = await database.db.select().from(batches).where(eq(batches.batchId, batchId));
      return b.status === 'Pending';
    });
    expect(Date.now() - restarted).toBeLessThan(60_000);
    const [{ staged }] = await database.db
      .select({ staged: count() })
      .from(stagedTransactions)
      .where(eq(stagedTransactions.batchId, batchId));
    expect(staged).toBe(n);
    await killAll();
  }, 300_000);
});
