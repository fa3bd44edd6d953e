import { randomUUID } from 'node:crypto';
import { APPROVAL_MSG, feeCents, PENDING_APPROVAL } from '@obol/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog } from '../../platform/tables.ts';
import { userIdByEmail } from '../../seed.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { batches } from '../batches/tables.ts';
import { holderReference } from '../ledger/accounts.ts';
import { payouts } from '../payouts/tables.ts';
import { transfers } from '../transfers/tables.ts';
import { approvals } from './tables.ts';

const THRESHOLD = 100_000;
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';
let t: TestAppWithProvider;
let admin: string;
let manager: string;
let supervisor: string;
let merchant: string;
let accountant: string;
let merchantId: number;
let ref: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, workers: true, provider: { settleMs: 50 } });
  admin = await t.signIn('admin@obol.example');
  manager = await t.signIn('manager@obol.example');
  supervisor = await t.signIn('supervisor-a@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  accountant = await t.signIn('accountant@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  ref = holderReference(merchantId);
});
afterAll(async () => {
  await t?.close();
});

const balance = async () =>
  (await t.post('/api/account-balance', { account_reference: ref }, merchant)).body.balance as number;
let seq = 0;
/** A manual payout by `token`, its code requested and used as the maker would. */
async function manualPayout(amount: number, token: string, email: string) {
  const body = {
    idempotency_key: randomUUID(),
    account_reference: ref,
    merchant_transaction_id: `AP-${Date.now()}-${seq++}`,
    beneficiary_name: 'Ana Novak',
    obol_id: '100000001',
    brand: 'Acme Brand',
    currency: 'EUR',
    reference: 'Invoice 9',
    amount,
  };
  const code = await t.post(
    '/api/request-code',
    { transaction_type: 'Manual Payout', amount, obol_id: '100000001' },
    token,
  );
  expect(code.status, code.text).toBe(200);
  return t.post('/api/create-payout', { ...body, code: t.lastMailTo(email)!.code! }, token);
}
const payoutRow = async (id: number) => (await t.deps.db.select().from(payouts).where(eq(payouts.id, id)))[0];
async function settledPayout(id: number, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const p = await payoutRow(id);
    if (p.status !== 'in_flight' && p.status !== 'held') return p;
    if (Date.now() > end) throw new Error(`payout ${id} still ${p.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** The approver asks their own code and approves with it. */
async function approveWithCode(id: number, token: string, email: string) {
  const r = await t.post('/api/request-approval-code', { id }, token);
  expect(r.status, r.text).toBe(200);
  return t.post('/api/approve', { id, code: t.lastMailTo(email)!.code! }, token);
}
const trialBalanceOk = async () => {
  const tb = (await t.post('/api/trial-balance', {}, admin)).body;
  return tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts;
};

describe('the approval threshold', () => {
  it('is set and read by the Admin only, for a merchant that exists, and logged', async () => {
    expect((await t.post('/api/approval-policy', { holder_id: merchantId, threshold: 5 }, merchant)).status).toBe(403);
    expect((await t.post('/api/approval-policy', { holder_id: merchantId, threshold: -1 }, admin)).body.fields).toEqual(
      {
        threshold: ['Threshold must be a whole number of cents, 0 or more'],
      },
    );
    expect((await t.post('/api/approval-policy', { holder_id: 999_999, threshold: 5 }, admin)).status).toBe(404);
    const brandId = (await userIdByEmail(t.deps.db, 'brand@obol.example'))!;
    expect((await t.post('/api/approval-policy', { holder_id: brandId, threshold: 5 }, admin)).status).toBe(404);
    const set = await t.post('/api/approval-policy', { holder_id: merchantId, threshold: THRESHOLD }, admin);
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ message: [APPROVAL_MSG.policySaved], policy: { threshold: THRESHOLD } });
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/approval-policy?holder_id=${merchantId}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(read.json().policy).toMatchObject({ holder_type: 'merchant', holder_id: merchantId, threshold: THRESHOLD });
    const [logged] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'approval.policy'), eq(activityLog.targetId, String(merchantId))));
    expect(logged.after).toEqual({ threshold: THRESHOLD });
  });
});

describe('a manual payout at or above the threshold', () => {
  it('goes straight to the provider below it; at it, is reserved and waits for a second person', async () => {
    const below = await manualPayout(THRESHOLD - 1, merchant, 'merchant@obol.example');
    expect(below.status, below.text).toBe(201);
    expect(below.body.payout.status).toBe('Processing');
    expect(below.body.approval_id).toBeUndefined();

    const before = await balance();
    const held = await manualPayout(THRESHOLD, merchant, 'merchant@obol.example');
    expect(held.status, held.text).toBe(202);
    expect(held.body).toMatchObject({ message: [APPROVAL_MSG.pending], payout: { status: PENDING_APPROVAL } });
    const fee = held.body.payout.fee as number;
    expect(fee).toBe(feeCents(THRESHOLD, 150));
    // reserved: the money cannot be spent twice while it waits
    expect(await balance()).toBe(before - THRESHOLD - fee);
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await payoutRow(held.body.payout.id);
    expect(waiting.status).toBe('held');
    expect(waiting.providerId).toBeNull();
    const [batch] = await t.deps.db.select().from(batches).where(eq(batches.batchId, held.body.batch_id));
    expect(batch.status).toBe(PENDING_APPROVAL);

    // the merchant has no approver's permission; the supervisor sees it waiting
    expect((await t.post('/api/approvals', {}, merchant)).status).toBe(403);
    const list = await t.post('/api/approvals', { status: 'Pending' }, supervisor);
    expect(list.body.data[0]).toMatchObject({
      id: held.body.approval_id,
      kind: 'payout',
      object_id: String(held.body.payout.id),
      holder_name: 'Acme Payouts',
      amount: THRESHOLD,
      status: 'Pending',
      made_by: 'Acme Payouts',
      own: false,
    });
    expect(list.body.pending).toBeGreaterThanOrEqual(1);

    // a wrong code, then the approver's own: released to the provider, it settles
    const id = held.body.approval_id as number;
    expect((await t.post('/api/request-approval-code', { id }, manager)).status).toBe(200);
    expect((await t.post('/api/approve', { id, code: '000000' }, manager)).status).toBe(422);
    const ok = await approveWithCode(id, manager, 'manager@obol.example');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ message: [APPROVAL_MSG.approved], approval: { status: 'Approved' } });
    expect((await settledPayout(held.body.payout.id)).status).toBe('completed');
    expect((await t.deps.db.select().from(batches).where(eq(batches.batchId, held.body.batch_id)))[0].status).toBe(
      'Completed',
    );
    // decided once
    expect((await t.post('/api/reject', { id, reason: 'late' }, supervisor)).status).toBe(409);
    const steps = await t.deps.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.targetId, String(id)));
    expect(steps.map((s) => s.action).sort()).toEqual(
      expect.arrayContaining(['approval.approve', 'approval.request-code']),
    );
    expect(await trialBalanceOk()).toBe(true);
  });

  it('is never approved or rejected by its maker', async () => {
    const held = await manualPayout(THRESHOLD + 1, admin, 'admin@obol.example');
    expect(held.status, held.text).toBe(202);
    const id = held.body.approval_id as number;
    const mine = await t.post('/api/approvals', { status: 'Pending' }, admin);
    expect(mine.body.data.find((a: { id: number }) => a.id === id).own).toBe(true);
    expect((await t.post('/api/request-approval-code', { id }, admin)).body.error).toEqual([APPROVAL_MSG.ownApproval]);
    expect((await t.post('/api/reject', { id, reason: 'mine' }, admin)).status).toBe(403);
    // nor by the database: the row's check refuses a decider who is its maker
    const adminId = (await userIdByEmail(t.deps.db, 'admin@obol.example'))!;
    await expect(
      t.deps.db.update(approvals).set({ status: 'Approved', decidedBy: adminId }).where(eq(approvals.id, id)),
    ).rejects.toThrow();
    const r = await t.post('/api/reject', { id, reason: 'Not this week' }, manager);
    expect(r.status, r.text).toBe(200);
  });

  it('rejected: fails with the reason and its reserve returns', async () => {
    const before = await balance();
    const held = await manualPayout(THRESHOLD * 2, merchant, 'merchant@obol.example');
    expect(held.status, held.text).toBe(202);
    expect(await balance()).toBeLessThan(before);
    expect((await t.post('/api/reject', { id: held.body.approval_id, reason: ' ' }, supervisor)).body.fields).toEqual({
      reason: [APPROVAL_MSG.reason],
    });
    const r = await t.post('/api/reject', { id: held.body.approval_id, reason: 'Unknown beneficiary' }, supervisor);
    expect(r.status, r.text).toBe(200);
    expect(r.body.approval).toMatchObject({ status: 'Rejected', reason: 'Unknown beneficiary' });
    const p = await payoutRow(held.body.payout.id);
    expect(p.status).toBe('failed');
    expect(p.failureMessage).toMatch(/^Rejected by .+: Unknown beneficiary$/);
    expect(p.providerId).toBeNull();
    expect(await balance()).toBe(before);
    expect(await trialBalanceOk()).toBe(true);
  });

  it('approve and reject at the same moment: exactly one wins, the money moves once or returns once', async () => {
    for (let round = 0; round < 3; round++) {
      const before = await balance();
      const held = await manualPayout(THRESHOLD + 10 + round, merchant, 'merchant@obol.example');
      expect(held.status, held.text).toBe(202);
      const id = held.body.approval_id as number;
      expect((await t.post('/api/request-approval-code', { id }, manager)).status).toBe(200);
      const code = t.lastMailTo('manager@obol.example')!.code!;
      const [a, r] = await Promise.all([
        t.post('/api/approve', { id, code }, manager),
        t.post('/api/reject', { id, reason: 'race' }, supervisor),
      ]);
      expect([a.status, r.status].sort()).toEqual([200, 409]);
      const final = await settledPayout(held.body.payout.id);
      if (a.status === 200) {
        expect(final.status).toBe('completed');
        expect(await balance()).toBe(before - held.body.payout.amount - held.body.payout.fee);
      } else {
        expect(final.status).toBe('failed');
        expect(await balance()).toBe(before);
      }
    }
    expect(await trialBalanceOk()).toBe(true);
  });
});

describe('a batch whose total is at or above the threshold', () => {
  it('is reserved on execution and makes no payouts until approved', async () => {
    const rows = [
      `Ana,100000001,APB-${Date.now()}-1,Acme Brand,r,60000`,
      `Bo,100000002,APB-${Date.now()}-2,Acme Brand,r,50000`,
    ];
    const up = await t.upload(
      '/api/upload-transactions',
      { file_name: 'big.csv', behalf_of_id: String(merchantId), account_reference: ref },
      { name: 'big.csv', content: `${HEADER}\n${rows.join('\n')}\n` },
      merchant,
    );
    expect(up.status, up.text).toBe(200);
    const batchId = up.body.batch_id as string;
    for (let i = 0; i < 100; i++) {
      const p = await t.post('/api/batch-progress', { id: batchId }, merchant);
      if (p.body.status === 'Pending' && p.body.processedJobs === p.body.totalJobs) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = await balance();
    expect((await t.post('/api/execute-batch', { batch_id: batchId, amount: 110_000 }, merchant)).status).toBe(200);
    const code = t.lastMailTo('merchant@obol.example')!.code!;
    const ok = await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant);
    expect(ok.status, ok.text).toBe(202);
    expect(ok.body).toMatchObject({ message: [APPROVAL_MSG.pending], amount: 110_000 });
    expect(await balance()).toBe(before - 110_000 - ok.body.fee);
    await new Promise((r) => setTimeout(r, 500));
    expect((await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId))).length).toBe(0);
    const listed = await t.post('/api/batches', { search: batchId }, merchant);
    expect(listed.body.data[0].batch_status).toBe(PENDING_APPROVAL);

    const approved = await approveWithCode(ok.body.approval_id, supervisor, 'supervisor-a@obol.example');
    expect(approved.status, approved.text).toBe(200);
    for (let i = 0; i < 100; i++) {
      const made = await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId));
      if (made.length === 2 && made.every((p) => p.status === 'completed')) break;
      if (i === 99) throw new Error('batch payouts did not settle');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await balance()).toBe(before - 110_000 - ok.body.fee);
    expect(await trialBalanceOk()).toBe(true);
  });
});

describe('a transfer at or above the threshold', () => {
  it('waits reserved, and a rejection returns it Declined', async () => {
    const info = (await t.post('/api/login-user-account', {}, merchant)).body;
    const body = {
      beneficiary_name: 'Acme Supplies GmbH',
      iban: 'DE89370400440532013000',
      bic: 'DEUTDEFF',
      amount: THRESHOLD,
      account_id: info.account_id,
      message: 'Large invoice',
    };
    const sent = await t.post('/api/send-otp', { transaction_type: 'Amount Transfer', ...body }, accountant);
    expect(sent.status, sent.text).toBe(200);
    const before = await balance();
    const r = await t.post(
      '/api/amount-transfer',
      { ...body, code: t.lastMailTo('accountant@obol.example')!.code!, idempotency_key: randomUUID() },
      accountant,
    );
    expect(r.status, r.text).toBe(202);
    expect(r.body.transfer.status).toBe(PENDING_APPROVAL);
    expect(await balance()).toBe(before - THRESHOLD);
    const rejected = await t.post('/api/reject', { id: r.body.approval_id, reason: 'Wrong IBAN' }, manager);
    expect(rejected.status, rejected.text).toBe(200);
    const [row] = await t.deps.db.select().from(transfers).where(eq(transfers.id, r.body.transfer.id));
    expect(row.status).toBe('failed');
    expect(await balance()).toBe(before);
    expect(await trialBalanceOk()).toBe(true);
  });
});
