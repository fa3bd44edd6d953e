import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { createJobs, type Jobs } from '../../platform/jobs.ts';
import { seedDemo, syncReferenceData } from '../../seed.ts';
import { createTestDatabase, engine } from '../../test/harness.ts';
import { freePort, startProviderProcess, startServerProcess, type Proc } from '../../test/processes.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { postEntry, trialBalance } from '../ledger/service.ts';
import { accounts } from '../ledger/tables.ts';
import { runDueRules } from './rules.ts';
import { accountingRules, companies, companyAccounts, companyBeneficiaries } from './tables.ts';

const DAY = 86_400_000;

// Several processes need a PostgreSQL server: these run on the TEST_DATABASE_URL pass of the suite.
describe.runIf(engine === 'postgres')('accounting rules run by real server processes on PostgreSQL', () => {
  let database: Database;
  let url: string;
  let drop: () => Promise<void>;
  let jobs: Jobs;
  let provider: Proc;
  const procs: Proc[] = [];
  let company: number;
  let from: number;
  let to: number;
  let beneficiary: number;

  beforeAll(async () => {
    const t = await createTestDatabase();
    database = t.database;
    url = t.url!;
    drop = t.drop;
    await syncReferenceData(database.db);
    await seedDemo(database.db, 'Test@pass1');
    jobs = await createJobs(database, pino({ level: 'silent' }));
    const port = await freePort();
    provider = await startProviderProcess({
      webhookUrl: `http://127.0.0.1:${port}/api/provider/webhook`,
      settleMs: 100,
    });
    // an approved company with two accounts (as /consent-approve opens them) and a beneficiary
    await database.db.transaction(async (tx) => {
      const [c] = await tx
        .insert(companies)
        .values({
          name: 'Process Co',
          email: 'ops@process.example',
          apiKeyEnc: 'sealed',
          apiKeyHash: 'process-co',
          status: 1,
          consent: 'Approved',
        })
        .returning();
      company = c.id;
      const ids: number[] = [];
      for (const n of [1, 2]) {
        const [ledger] = await tx
          .insert(accounts)
          .values({ kind: 'company', accountId: `CMP-P-${n}`, accountReference: 'COMPANY-P', name: `Process ${n}` })
          .returning();
        const [a] = await tx
          .insert(companyAccounts)
          .values({
            companyId: c.id,
            providerAccountId: `CA-P-${n}`,
            name: `Account ${n}`,
            iban: n === 1 ? 'DE89370400440532013000' : 'DE02120300000000202051',
            bic: 'PBNKDEFFXXX',
            ledgerAccountId: ledger.id,
          })
          .returning();
        ids.push(a.id);
        await postEntry(tx, {
          idempotencyKey: `test-open:${n}`,
          kind: 'company.opening',
          postings: [
            { accountId: await platformAccountId(tx, 'provider'), amount: -10_000_000 },
            { accountId: ledger.id, amount: 10_000_000 },
          ],
        });
      }
      [from, to] = ids;
      const [b] = await tx
        .insert(companyBeneficiaries)
        .values({
          companyId: c.id,
          providerBeneficiaryId: 'BEN-1',
          name: 'Northwind Supplies GmbH',
          iban: 'DE82370400440123456789',
          bic: 'COBADEFFXXX',
        })
        .returning();
      beneficiary = b.id;
    });
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.kill('SIGKILL');
  });
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await provider?.kill('SIGKILL');
    await jobs?.stop();
    await drop?.();
  });

  /** n daily rules made at `createdAt`: every other one external, the rest internal */
  async function makeRules(n: number, tag: string, createdAt: Date) {
    const rows = await database.db
      .insert(accountingRules)
      .values(
        Array.from({ length: n }, (_, i) => ({
          companyId: company,
          ruleName: `${tag} ${i}`,
          reference: `${tag} ${i}`,
          accountId: from,
          transferType: i % 2 ? 'internal_transfer' : 'external_transfer',
          beneficiaryId: i % 2 ? null : beneficiary,
          toAccountId: i % 2 ? to : null,
          percentage: i % 3 === 0,
          amount: i % 3 === 0 ? 10 : 100 + i,
          interval: '00:00',
          intervalType: 'daily',
          createdAt,
        })),
      )
      .returning({ id: accountingRules.id });
    return rows.map((r) => r.id);
  }
  const runsPerRule = async (ids: number[]) =>
    (
      await database.db.execute(
        sql`SELECT rule_id, period, count(*)::int AS n FROM accounting_transactions
          WHERE rule_id = ANY(${sql.param(ids)}::int[]) GROUP BY rule_id, period`,
      )
    ).rows as { rule_id: number; period: string; n: number }[];
  async function waitRuns(ids: number[], ms = 90_000) {
    const end = Date.now() + ms;
    for (;;) {
      const runs = await runsPerRule(ids);
      if (runs.length >= ids.length) return runs;
      if (Date.now() > end) throw new Error(`${runs.length} of ${ids.length} rules ran`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const today = () => new Date().toISOString().slice(0, 10);

  it('two server processes and a third runner at once run each rule once for its period', async () => {
    const ids = await makeRules(12, 'both', new Date(Date.now() - 2 * DAY));
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url }));
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url }));
    // and this process too, four times at once, as the processes start theirs
    const deps = { db: database.db, jobs, log: pino({ level: 'silent' }) } as unknown as Deps;
    await Promise.all([1, 2, 3, 4].map(() => runDueRules(deps)));
    const runs = await waitRuns(ids);
    // give every runner time to try again
    await new Promise((r) => setTimeout(r, 3_000));
    const after = await runsPerRule(ids);
    expect(after).toHaveLength(ids.length);
    for (const r of after) expect(r).toMatchObject({ n: 1, period: today() });
    expect(runs.length).toBe(ids.length);
    const tb = await trialBalance(database.db);
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  }, 180_000);

  it('a rule due while every server was down runs once when one comes back, and a second one adds nothing', async () => {
    // made yesterday at noon, while no server runs: today's 00:00 run is missed
    const midnight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const ids = await makeRules(6, 'down', new Date(midnight - DAY / 2));
    expect(await runsPerRule(ids)).toHaveLength(0);
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url }));
    await waitRuns(ids);
    procs.push(await startServerProcess({ databaseUrl: url, providerUrl: provider.url }));
    await new Promise((r) => setTimeout(r, 3_000));
    const runs = await runsPerRule(ids);
    expect(runs).toHaveLength(ids.length);
    for (const r of runs) expect(r).toMatchObject({ n: 1, period: today() });
  }, 180_000);
});
