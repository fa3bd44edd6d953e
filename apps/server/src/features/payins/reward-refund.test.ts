import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_MSG, REWARD_MSG } from '@obol/contract';
import { rowsOf } from '../../platform/db.ts';
import { engine } from '../../test/harness.ts';
import { merchantApiKey } from '../../test/payins.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { settleMovement } from '../engine/settle.ts';
import { refundMovement } from './refunds.ts';
import { payinRewards, payins, refunds } from './tables.ts';

// A reward and a refund of one pay-in: never both paid out of a refund. A reward is refused once the pay-in is
// refunded or being refunded; a refund is refused while the reward's payment is in flight and allowed once it is
// paid (the reward stays with the payer, and the answer says so); the two at the same moment: exactly one wins.
let t: TestAppWithProvider;
let providerUrl: string;
let merchant: string;
let acmeKey: string;
let acmePayin: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 50 } });
  providerUrl = t.providerUrl;
  // each round asks for a refund code
  t.config.limits.approvalCode = { limit: 1_000, seconds: 600 };
  acmeKey = await merchantApiKey(t, 'merchant@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  acmePayin = (await t.post('/api/login-user-account', {}, merchant)).body.payin_account_id;
});
afterAll(async () => {
  await t?.close();
});

async function api(path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${t.address}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const control = (body: unknown) =>
  fetch(`${providerUrl}/_control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const balance = async () =>
  (await t.post('/api/account-balance', { account_id: acmePayin }, merchant)).body.balance as number;

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const payinRow = async (requestId: string) =>
  (await t.deps.db.select().from(payins).where(eq(payins.providerId, requestId)))[0];
const rewardRow = async (payinId: number) =>
  (await t.deps.db.select().from(payinRewards).where(eq(payinRewards.payinId, payinId)))[0];

/** A completed pay-in of 40.00 promising a reward of 2.50: its request id, row id and reward id. */
async function completedWithReward() {
  const token = (await api('/api/token', { 'x-api-key': acmeKey }, {})).body.access_token as string;
  const link = await api(
    '/api/create-payin-link',
    { authorization: `Bearer ${token}` },
    {
      amount: 4_000,
      reference: `rr-${randomUUID().slice(0, 8)}`,
      first_name: 'Ana',
      last_name: 'Novak',
      date_of_birth: '1990-04-12',
      user_obol_id: '100000001',
      reward_amount: 250,
    },
  );
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const requestId = link.body.request_id as string;
  await fetch(`${providerUrl}/pay/${requestId}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'first_name=Ana&last_name=Novak&date_of_birth=1990-04-12',
    redirect: 'manual',
  });
  const p = await until('pay-in completed', async () => {
    const row = await payinRow(requestId);
    return row.status === 'completed' && row;
  });
  return { requestId, payinId: p.id, rewardId: (await rewardRow(p.id)).id };
}

async function refundCode(requestId: string) {
  const r = await t.post('/api/generate-refund-code', { reference: requestId }, merchant);
  expect(r.status, r.text).toBe(200);
  return t.lastMailTo('merchant@obol.example')!.code!;
}
const refund = (requestId: string, code: string) =>
  t.post('/api/payin-refund', { reference: requestId, code }, merchant);
const reward = (id: number) => t.post('/api/payin-rewards', { id }, merchant);
const trialBalanced = async () => {
  const admin = await t.signIn('admin@obol.example');
  const tb = (await t.post('/api/trial-balance', {}, admin)).body;
  return tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts;
};

describe('a refund first', () => {
  it('refuses the reward while the refund is in flight and once it completed', async () => {
    const p = await completedWithReward();
    await control({ paused_settlement: true });
    try {
      const r = await refund(p.requestId, await refundCode(p.requestId));
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({ refund_status: 2, reward_kept: 0, message: [REFUND_MSG.refunded] });
      const before = await balance();
      const refused = await reward(p.rewardId);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toEqual([REWARD_MSG.refunded]);
      expect(refused.body.fields.id).toEqual([REWARD_MSG.refunded]);
      // nothing moved, and the list says why the button is off
      expect(await balance()).toBe(before);
      expect(await rewardRow(p.payinId)).toMatchObject({ status: 'NotRewarded', payoutStatus: null });
      const listed = await t.post('/api/payin-rewards', { search: (await payinRow(p.requestId)).reference }, merchant);
      expect(listed.body.data[0]).toMatchObject({ refund_status: 2, reward_status: 'NotRewarded' });
    } finally {
      await control({ paused_settlement: false });
    }
    await until('refund completed', async () => (await payinRow(p.requestId)).refundStatus === 1);
    const after = await reward(p.rewardId);
    expect(after.status).toBe(422);
    expect(after.body.error).toEqual([REWARD_MSG.refunded]);
    expect(await trialBalanced()).toBe(true);
  });

  it('a declined refund leaves the reward payable', async () => {
    const p = await completedWithReward();
    await control({ paused_settlement: true });
    try {
      const r = await refund(p.requestId, await refundCode(p.requestId));
      expect(r.status, r.text).toBe(200);
      const [{ idempotencyKey }] = await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.payinId));
      expect(
        await settleMovement(t.deps, refundMovement, {
          key: idempotencyKey,
          status: 'Failed',
          message: 'Card account closed',
        }),
      ).toBe('applied');
    } finally {
      await control({ paused_settlement: false });
    }
    expect((await payinRow(p.requestId)).refundStatus).toBe(0);
    const paid = await reward(p.rewardId);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.message).toEqual([REWARD_MSG.updated]);
  });
});

describe('a reward first', () => {
  it('refuses a refund while the reward is being paid, and allows it once paid: the reward stays with the payer', async () => {
    const p = await completedWithReward();
    await control({ paused_settlement: true });
    let code: string;
    try {
      code = await refundCode(p.requestId);
      const before = await balance();
      expect((await reward(p.rewardId)).status).toBe(200);
      // the reward's payment is in flight: the code and the refund are refused, nothing moves
      const early = await t.post('/api/generate-refund-code', { reference: p.requestId }, merchant);
      expect(early.status).toBe(422);
      expect(early.body.fields.reference).toEqual([REFUND_MSG.rewardInFlight]);
      const refused = await refund(p.requestId, code);
      expect(refused.status).toBe(422);
      expect(refused.body.fields.reference).toEqual([REFUND_MSG.rewardInFlight]);
      expect(await balance()).toBe(before - 250);
      expect((await payinRow(p.requestId)).refundStatus).toBe(3);
      expect(await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.payinId))).toEqual([]);
    } finally {
      await control({ paused_settlement: false });
    }
    await until('reward paid', async () => (await rewardRow(p.payinId)).payoutStatus === 'completed');
    const before = await balance();
    const r = await refund(p.requestId, await refundCode(p.requestId));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      message: [REFUND_MSG.refunded, REFUND_MSG.rewardKept(250)],
      refund_status: 2,
      reward_kept: 250,
    });
    expect(REFUND_MSG.rewardKept(250)).toContain('€2.50');
    // the whole pay-in goes back; the reward is not taken back and stays Rewarded
    expect(await balance()).toBe(before - 4_000);
    await until('refund completed', async () => (await payinRow(p.requestId)).refundStatus === 1);
    expect(await rewardRow(p.payinId)).toMatchObject({ status: 'Rewarded', payoutStatus: 'completed' });
    expect(await trialBalanced()).toBe(true);
  });
});

describe('a reward and a refund at the same moment', () => {
  /** The outcome of one race: exactly one of the two went through, and the books say which. */
  async function checkOne(
    p: Awaited<ReturnType<typeof completedWithReward>>,
    rw: { status: number },
    rf: { status: number },
  ) {
    expect([rw.status, rf.status].sort()).toEqual([200, 422]);
    const payin = await payinRow(p.requestId);
    const rewardNow = await rewardRow(p.payinId);
    const refundRows = await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.payinId));
    if (rw.status === 200) {
      expect(rewardNow.status).toBe('Rewarded');
      expect(payin.refundStatus).toBe(3);
      expect(refundRows).toEqual([]);
    } else {
      expect(rewardNow).toMatchObject({ status: 'NotRewarded', payoutStatus: null });
      expect(payin.refundStatus).not.toBe(3);
      expect(refundRows).toHaveLength(1);
    }
    return rw.status === 200 ? 'reward' : 'refund';
  }

  it('lets exactly one through, whichever comes first', async () => {
    const winners = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const p = await completedWithReward();
      const code = await refundCode(p.requestId);
      // alternate which request leaves first
      const [rw, rf] =
        i % 2
          ? await Promise.all([reward(p.rewardId), refund(p.requestId, code)])
          : await Promise.all([refund(p.requestId, code), reward(p.rewardId)]).then(([a, b]) => [b, a]);
      winners.add(await checkOne(p, rw, rf));
    }
    expect(winners.size).toBeGreaterThan(0);
    await until('everything settled', async () => {
      const open = await t.deps.db.select().from(refunds).where(eq(refunds.status, 'in_flight'));
      const paying = await t.deps.db.select().from(payinRewards).where(eq(payinRewards.payoutStatus, 'in_flight'));
      return open.length === 0 && paying.length === 0;
    });
    expect(await trialBalanced()).toBe(true);
  });

  // both requests made to wait at the pay-in's row lock (held here), then let go together: the second to get the
  // lock must see what the first committed. A guard read before the lock would let both through.
  it.runIf(engine === 'postgres')('lets exactly one through when both wait on the pay-in together', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const dbName = rowsOf<{ d: string }>(await t.deps.db.execute(sql`SELECT current_database() AS d`))[0].d;
    const u = new URL(url);
    u.pathname = `/${dbName}`;
    for (let i = 0; i < 4; i++) {
      const p = await completedWithReward();
      const code = await refundCode(p.requestId);
      const holder = new pg.Client({ connectionString: u.toString() });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM payins WHERE id = $1 FOR UPDATE', [p.payinId]);
        const racing = Promise.all([reward(p.rewardId), refund(p.requestId, code)]);
        // both are waiting for the lock
        await until('both waiting', async () => {
          const r = await holder.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
            [dbName],
          );
          return r.rows[0].n >= 2;
        });
        await holder.query('COMMIT');
        const [rw, rf] = await racing;
        await checkOne(p, rw, rf);
      } finally {
        await holder.end();
      }
    }
    expect(await trialBalanced()).toBe(true);
  });
});
