import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../../../provider/src/app.ts';
import { outboxPath } from '../../test/outbox.ts';
import { completedPayin, merchantApiKey } from '../../test/payins.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { journalEntries } from '../ledger/tables.ts';
import { recoverMovements } from '../engine/recover.ts';
import { refundMovement } from './refunds.ts';
import { rewardMovement } from './rewards.ts';
import { payinRewards, payins, refunds } from './tables.ts';

// No job worker runs here and webhooks go to a port nobody listens on: what a process that died right after the
// commit of a refund or a reward leaves behind (Pending, never sent) must still be sent, and settled exactly once,
// from what the provider answers when asked.
let t: TestAppWithProvider;
let provider: Provider;
let admin: string;
let merchant: string;
let apiKey: string;
let account: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, webhooks: 'lost', provider: { settleMs: 20 } });
  provider = t.provider;
  admin = await t.signIn('admin@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  account = (await t.post('/api/login-user-account', {}, merchant)).body.payin_account_id;
  apiKey = await merchantApiKey(t, 'merchant@obol.example');
});
afterAll(async () => {
  await t?.close();
});

const balance = async () => (await t.post('/api/account-balance', { account_id: account }, merchant)).body.balance;
const kinds = async (businessType: string, id: number) =>
  (
    await t.deps.db
      .select({ kind: journalEntries.kind })
      .from(journalEntries)
      .where(and(eq(journalEntries.businessType, businessType), eq(journalEntries.businessId, String(id))))
  )
    .map((e) => e.kind)
    .sort();
/** Lets the simulator settle what it holds (its webhooks go nowhere). */
async function providerSettles(n: number) {
  for (let i = 0, done = 0; i < 100 && done < n; i++) {
    done += provider.settleNow();
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('refunds and rewards left Pending by a dead process and lost webhooks', () => {
  it('a refund is sent, then settled from the provider’s answer, once', async () => {
    const p = await completedPayin(t, apiKey, 2_100);
    const before = await balance();
    expect((await t.post('/api/generate-refund-code', { reference: p.providerId }, merchant)).status).toBe(200);
    const code = t.lastMailTo('merchant@obol.example')!.code!;
    expect((await t.post('/api/payin-refund', { reference: p.providerId, code }, merchant)).status).toBe(200);
    expect(await balance()).toBe(before - 2_100);
    // never sent: the first recovery sends it (under its key), the provider settles, the next recovery settles here
    expect((await recoverMovements(t.deps, refundMovement, 0)).settled).toBe(0);
    const [sent] = await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.id));
    expect(sent.providerId).toBeTruthy();
    await providerSettles(1);
    // two recoveries at once (as two processes would run them): settled once
    const [a, b] = await Promise.all([
      recoverMovements(t.deps, refundMovement, 0),
      recoverMovements(t.deps, refundMovement, 0),
    ]);
    expect(a.settled + b.settled).toBe(1);
    const [done] = await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.id));
    expect(done.status).toBe('completed');
    const [after] = await t.deps.db.select().from(payins).where(eq(payins.id, p.id));
    expect(after.refundStatus).toBe(1);
    expect(await balance()).toBe(before - 2_100);
    expect(await kinds('refund', done.id)).toEqual(['refund.complete', 'refund.reserve']);
    expect(await outboxPath(t.deps.db, 'refund', done.id)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'completed'],
    ]);
    expect(await outboxPath(t.deps.db, 'payin', p.id)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'completed'],
    ]);
    expect((await recoverMovements(t.deps, refundMovement, 0)).settled).toBe(0);
  });

  it('a reward is paid, then settled from the provider’s answer, once; a refused one comes back once', async () => {
    const ok = await completedPayin(t, apiKey, 3_000, { user_obol_id: '100000001', reward_amount: 300 });
    const refused = await completedPayin(t, apiKey, 70_000, { user_obol_id: '300000005', reward_amount: 66_600 });
    const rewardOf = async (payinId: number) =>
      (await t.deps.db.select().from(payinRewards).where(eq(payinRewards.payinId, payinId)))[0];
    const before = await balance();
    for (const p of [ok, refused])
      expect((await t.post('/api/payin-rewards', { id: (await rewardOf(p.id)).id }, merchant)).status).toBe(200);
    expect(await balance()).toBe(before - 300 - 66_600);
    expect((await recoverMovements(t.deps, rewardMovement, 0)).settled).toBe(0);
    expect((await rewardOf(ok.id)).providerId).toBeTruthy();
    await providerSettles(2);
    const [a, b] = await Promise.all([
      recoverMovements(t.deps, rewardMovement, 0),
      recoverMovements(t.deps, rewardMovement, 0),
    ]);
    expect(a.settled + b.settled).toBe(2);
    const [rOk, rRefused] = [await rewardOf(ok.id), await rewardOf(refused.id)];
    expect(rOk).toMatchObject({ status: 'Rewarded', payoutStatus: 'completed' });
    expect(rRefused).toMatchObject({ status: 'NotRewarded', payoutStatus: 'failed', reason: 'Declined by provider' });
    expect(await balance()).toBe(before - 300);
    expect(await kinds('reward', rOk.id)).toEqual(['reward.complete', 'reward.reserve']);
    expect(await kinds('reward', rRefused.id)).toEqual(['reward.reserve', 'reward.reversal']);
    expect(await outboxPath(t.deps.db, 'reward', rOk.id)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'completed'],
    ]);
    expect(await outboxPath(t.deps.db, 'reward', rRefused.id)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'failed'],
    ]);
    expect((await recoverMovements(t.deps, rewardMovement, 0)).settled).toBe(0);
    const tb = (await t.post('/api/trial-balance', {}, admin)).body;
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });
});
