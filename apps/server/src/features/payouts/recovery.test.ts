import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../../../provider/src/app.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { outboxPath } from '../../test/outbox.ts';
import { makePayouts } from '../../test/payouts.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderAccounts } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/service.ts';
import { journalEntries } from '../ledger/tables.ts';
import { reconcile } from '../provider/service.ts';
import { recoverMovements } from '../engine/recover.ts';
import { submitMovement } from '../engine/submit.ts';
import { payoutMovement } from '../batches/payout-movement.ts';
import { payouts } from './tables.ts';

// Webhooks never arrive here: the simulator posts them to a port nobody listens on. Every payout must still
// settle, exactly once, from what the provider answers when asked.
let t: TestAppWithProvider;
let provider: Provider;
let merchantId: number;

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, webhooks: 'lost', provider: { settleMs: 20 } });
  provider = t.provider;
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
});
afterAll(async () => {
  await t?.close();
});

const make = (n: number) => makePayouts(t.deps, merchantId, n, 'REC');
const rowsOf = (ids: number[]) => t.deps.db.select().from(payouts).where(inArray(payouts.id, ids)).orderBy(payouts.id);
const settledAtProvider = async (n: number) => {
  for (let i = 0; i < 100 && provider.settleNow() < n; i++) await new Promise((r) => setTimeout(r, 20));
};

describe('payouts in flight, with every webhook lost', () => {
  it('are settled from the provider’s answer, once, including one the provider never received', async () => {
    const balanceBefore = (await holderAccounts(t.deps.db, merchantId)).payout!.balance;
    const ids = await make(9);
    // the provider receives eight of them; the last one was never sent (its process died first)
    for (const id of ids.slice(0, 8)) await submitMovement(t.deps, payoutMovement, id);
    await settledAtProvider(0);
    await new Promise((r) => setTimeout(r, 100));
    const first = await recoverMovements(t.deps, payoutMovement, 0);
    expect(first).toMatchObject({ asked: 9, settled: 8, resent: 1 });
    await new Promise((r) => setTimeout(r, 100));
    const second = await recoverMovements(t.deps, payoutMovement, 0);
    expect(second).toMatchObject({ asked: 1, settled: 1 });
    const rows = await rowsOf(ids);
    expect(rows.map((r) => r.status)).toEqual(ids.map((_, i) => (i % 3 === 2 ? 'failed' : 'completed')));
    expect(rows.every((r) => r.providerId)).toBe(true);
    // nothing moves twice: a third run finds nothing, and each payout has its two entries
    expect(await recoverMovements(t.deps, payoutMovement, 0)).toMatchObject({ asked: 0 });
    for (const r of rows) {
      const kinds = (
        await t.deps.db
          .select({ kind: journalEntries.kind })
          .from(journalEntries)
          .where(eq(journalEntries.businessId, String(r.id)))
      )
        .map((e) => e.kind)
        .sort();
      expect(kinds).toEqual(
        r.status === 'completed' ? ['payout.complete', 'payout.reserve'] : ['payout.reserve', 'payout.reversal'],
      );
      expect(await outboxPath(t.deps.db, 'payout', r.id)).toEqual([
        [null, 'in_flight'],
        ['in_flight', r.status],
      ]);
    }
    const spent = rows.filter((r) => r.status === 'completed').reduce((s, r) => s + r.amount + r.fee, 0);
    expect((await holderAccounts(t.deps.db, merchantId)).payout!.balance).toBe(balanceBefore - spent);
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });

  it('leaves a payout the provider is still working on in flight', async () => {
    await fetch(`${t.config.providerUrl}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paused_settlement: true }),
    });
    try {
      const [id] = await make(1);
      await submitMovement(t.deps, payoutMovement, id);
      await t.deps.db.update(payouts).set({ providerId: null }).where(eq(payouts.id, id));
      const r = await recoverMovements(t.deps, payoutMovement, 0);
      expect(r).toMatchObject({ asked: 1, settled: 0, accepted: 1 });
      const [p] = await rowsOf([id]);
      expect(p.status).toBe('in_flight');
      expect(p.providerId).toBeTruthy();
    } finally {
      await fetch(`${t.config.providerUrl}/_control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ paused_settlement: false }),
      });
    }
  });

  it('are settled by reconciliation when its statement proves them, and reported otherwise', async () => {
    const ids = await make(4);
    for (const id of ids) await submitMovement(t.deps, payoutMovement, id);
    await settledAtProvider(0);
    await new Promise((r) => setTimeout(r, 100));
    const report = await reconcile(t.deps);
    expect(report.settled).toBeGreaterThanOrEqual(4);
    expect(report.differences.filter((d) => d.kind === 'unsettled_in_ledger')).toEqual([]);
    const rows = await rowsOf(ids);
    expect(rows.every((r) => r.status !== 'in_flight')).toBe(true);
    expect((await trialBalance(t.deps.db)).balanced).toBe(true);
  });
});
