import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeCents } from '@obol/contract';
import { signWebhook } from '../../../../provider/src/signature.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { holderReference } from '../ledger/accounts.ts';
import { payouts } from '../payouts/tables.ts';
import { activityLog } from '../../platform/tables.ts';
import { idempotencyKeys } from '../../platform/tables.ts';
import { users } from '../users/tables.ts';
import { userIdByEmail } from '../../seed.ts';

let t: TestAppWithProvider;
let providerUrl: string;
let merchantToken: string;
let ref: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 100 } });
  providerUrl = t.providerUrl;
  merchantToken = await t.signIn('merchant@obol.example');
  ref = holderReference((await userIdByEmail(t.deps.db, 'merchant@obol.example'))!);
});
afterAll(async () => {
  await t?.close();
});

const balance = async () =>
  (await t.post('/api/account-balance', { account_reference: ref }, merchantToken)).body.balance as number;
const control = (body: object) =>
  fetch(`${providerUrl}/_control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function requestCode(amount: number, obol_id: string) {
  const r = await t.post('/api/request-code', { transaction_type: 'Manual Payout', amount, obol_id }, merchantToken);
  expect(r.status).toBe(200);
  return t.lastMailTo('merchant@obol.example')!.code!;
}
let seq = 0;
const payoutBody = (over: Record<string, unknown> = {}) => ({
  idempotency_key: randomUUID(),
  account_reference: ref,
  merchant_transaction_id: `MT-${Date.now()}-${seq++}`,
  beneficiary_name: 'Ana Novak',
  obol_id: '100000001',
  brand: 'Acme Brand',
  currency: 'EUR',
  reference: 'Invoice 1',
  amount: 1234,
  ...over,
});
async function waitStatus(id: number, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, id));
    if (p.status !== 'in_flight') return p;
    if (Date.now() > end) throw new Error(`payout ${id} still Processing`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('wallet checker', () => {
  it('answers the wallet holder, and the first error for an unknown id', async () => {
    const ok = await t.post('/api/wallet-checker', { obol_id: '100000001' }, merchantToken);
    expect(ok.status).toBe(200);
    expect(ok.body.user_info).toMatchObject({
      obol_id: '100000001',
      first_name: expect.any(String),
      last_name: expect.any(String),
    });
    const unknown = await t.post('/api/wallet-checker', { obol_id: '900000000' }, merchantToken);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error[0]).toBe('Invalid Obol Id');
    expect((await t.post('/api/wallet-checker', {}, merchantToken)).status).toBe(400);
  });
});

describe('a manual payout approved by its e-mailed code', () => {
  it('reserves amount and fee, is paid by the provider, and settles Completed', async () => {
    const before = await balance();
    const body = payoutBody({ amount: 10_000 });
    const code = await requestCode(body.amount, body.obol_id);
    const fee = feeCents(10_000, 150);
    const r = await t.post('/api/create-payout', { ...body, code, total_payable: 10_000 + fee }, merchantToken);
    expect(r.status).toBe(201);
    expect(r.body.batch_id).toBeTruthy();
    expect(await balance()).toBe(before - 10_000 - fee);
    const settled = await waitStatus(r.body.payout.id);
    expect(settled.status).toBe('completed');
    expect(settled.providerId).toBeTruthy();
    expect(await balance()).toBe(before - 10_000 - fee);
    // a replay answers the first result and moves nothing
    const replay = await t.post('/api/create-payout', { ...body, code, total_payable: 10_000 + fee }, merchantToken);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(r.body);
    expect(await balance()).toBe(before - 10_000 - fee);
    // the same key with another payload is a conflict
    expect((await t.post('/api/create-payout', { ...body, amount: 9_999, code }, merchantToken)).status).toBe(409);
    const tb = await t.post('/api/trial-balance', {}, await t.signIn('admin@obol.example'));
    expect(tb.body.balanced).toBe(true);
  });

  it('returns the money of a failed payout by a reversing entry', async () => {
    const before = await balance();
    // wallets 2........ belong to another brand: the provider fails it with 'Brand does not match'
    const body = payoutBody({ obol_id: '200000001', amount: 5_000 });
    const code = await requestCode(body.amount, body.obol_id);
    const r = await t.post('/api/create-payout', { ...body, code }, merchantToken);
    expect(r.status).toBe(201);
    const settled = await waitStatus(r.body.payout.id);
    expect(settled.status).toBe('failed');
    expect(settled.failureMessage).toBe('Brand does not match');
    expect(await balance()).toBe(before);
  });

  it('approves only the amount and wallet it was issued for', async () => {
    const before = await balance();
    const code = await requestCode(1_000, '100000002');
    const otherAmount = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000002', amount: 2_000 }), code },
      merchantToken,
    );
    expect(otherAmount.status).toBe(422);
    expect(otherAmount.body.error[0]).toBe('This code does not approve this transaction');
    const code2 = await requestCode(1_000, '100000002');
    const otherWallet = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000003', amount: 1_000 }), code: code2 },
      merchantToken,
    );
    expect(otherWallet.status).toBe(422);
    expect(await balance()).toBe(before);
  });

  it('refuses a wrong, an expired and a reused code, moving nothing', async () => {
    const before = await balance();
    const code = await requestCode(700, '100000004');
    const wrong = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000004', amount: 700 }), code: code === '000000' ? '111111' : '000000' },
      merchantToken,
    );
    expect(wrong.status).toBe(422);
    const body = payoutBody({ obol_id: '100000004', amount: 700 });
    expect((await t.post('/api/create-payout', { ...body, code }, merchantToken)).status).toBe(201);
    const reused = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000004', amount: 700 }), code },
      merchantToken,
    );
    expect(reused.status).toBe(422);
    const code3 = await requestCode(800, '100000004');
    await t.deps.db.execute(
      sql`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE purpose = 'manual_payout' AND used_at IS NULL`,
    );
    expect(
      (
        await t.post(
          '/api/create-payout',
          { ...payoutBody({ obol_id: '100000004', amount: 800 }), code: code3 },
          merchantToken,
        )
      ).status,
    ).toBe(422);
    expect(await balance()).toBe(before - 700 - feeCents(700, 150));
  });

  it("refuses beyond the balance, another tenant's account, an unknown brand, a repeated transaction id, an unknown wallet", async () => {
    const before = await balance();
    const big = before + 1;
    const c1 = await requestCode(big, '100000005');
    const r1 = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000005', amount: big }), code: c1 },
      merchantToken,
    );
    expect(r1.status).toBe(422);
    expect(r1.body.fields.amount).toEqual(['Must not exceed available balance']);
    const m2 = holderReference((await userIdByEmail(t.deps.db, 'merchant2@obol.example'))!);
    const c2 = await requestCode(100, '100000005');
    expect(
      (
        await t.post(
          '/api/create-payout',
          { ...payoutBody({ account_reference: m2, obol_id: '100000005', amount: 100 }), code: c2 },
          merchantToken,
        )
      ).status,
    ).toBe(404);
    const r3 = await t.post(
      '/api/create-payout',
      { ...payoutBody({ brand: 'Globex Outlet', obol_id: '100000005', amount: 100 }), code: c2 },
      merchantToken,
    );
    expect(r3.status).toBe(422);
    expect(r3.body.fields.brand).toEqual(['Brand name does not exist']);
    const c4 = await requestCode(100, '900000005');
    const r4 = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '900000005', amount: 100 }), code: c4 },
      merchantToken,
    );
    expect(r4.status).toBe(400);
    expect(r4.body.error).toEqual(['Invalid Obol Id']);
    const [existing] = await t.deps.db.select().from(payouts).limit(1);
    const c5 = await requestCode(100, '100000005');
    const r5 = await t.post(
      '/api/create-payout',
      {
        ...payoutBody({ merchant_transaction_id: existing.merchantTransactionId, obol_id: '100000005', amount: 100 }),
        code: c5,
      },
      merchantToken,
    );
    expect(r5.status).toBe(422);
    const bad = await t.post('/api/create-payout', { ...payoutBody({ amount: 1.5 }), code: '123456' }, merchantToken);
    expect(bad.status).toBe(400);
    expect(bad.body.fields.amount).toEqual(['Must be a whole number']);
    expect(
      (await t.post('/api/create-payout', { ...payoutBody({ amount: 0 }), code: '123456' }, merchantToken)).body.fields
        .amount,
    ).toEqual(['Must be greater than 0']);
    expect(
      (await t.post('/api/create-payout', { ...payoutBody(), code: '1', idempotency_key: undefined }, merchantToken))
        .body.fields,
    ).toHaveProperty('idempotency_key');
    expect(await balance()).toBe(before);
    // a role without the manual payout permission
    expect(
      (await t.post('/api/create-payout', { ...payoutBody(), code: '123456' }, await t.signIn('finance@obol.example')))
        .status,
    ).toBe(403);
  });
});

describe('the provider edge', () => {
  it('retries a failing provider with the same key, and the payout is paid once', async () => {
    await control({ fail_next: 2, drop_after_accept_next: 0 });
    const body = payoutBody({ obol_id: '100000006', amount: 300 });
    const code = await requestCode(300, '100000006');
    const r = await t.post('/api/create-payout', { ...body, code }, merchantToken);
    expect(r.status).toBe(201);
    expect((await waitStatus(r.body.payout.id)).status).toBe('completed');
    await control({ drop_after_accept_next: 1 });
    const body2 = payoutBody({ obol_id: '100000007', amount: 301 });
    const code2 = await requestCode(301, '100000007');
    const r2 = await t.post('/api/create-payout', { ...body2, code: code2 }, merchantToken);
    expect((await waitStatus(r2.body.payout.id)).status).toBe('completed');
    const st = (await (
      await fetch(`${providerUrl}/statement`, { headers: { authorization: `Bearer ${t.providerKey}` } })
    ).json()) as { items: { idempotency_key: string }[] };
    for (const id of [r.body.payout.id, r2.body.payout.id]) {
      const [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, id));
      expect(st.items.filter((i) => i.idempotency_key === p.idempotencyKey)).toHaveLength(1);
    }
  });

  it('refuses webhooks with a bad signature, and applies a duplicate event once', async () => {
    const body = JSON.stringify({
      event_id: 'e-1',
      type: 'payout.completed',
      data: { id: 'po_x', idempotency_key: 'nope' },
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/provider/webhook',
      headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook('wrong', body) },
      payload: body,
    });
    expect(bad.statusCode).toBe(401);
    const good = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/provider/webhook',
        headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(t.webhookSecret, body) },
        payload: body,
      });
    expect((await good()).json().message).toEqual(['ignored']);
    expect((await good()).json().message).toEqual(['duplicate']);
  });

  it('moves nothing on a forged webhook, even one signed with the (well-known) secret', async () => {
    await control({ paused_settlement: true });
    try {
      const before = await balance();
      const body = payoutBody({ obol_id: '100000021', amount: 2_500 });
      const code = await requestCode(2_500, '100000021');
      const r = await t.post('/api/create-payout', { ...body, code }, merchantToken);
      expect(r.status).toBe(201);
      let [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, r.body.payout.id));
      for (let i = 0; i < 100 && !p.providerId; i++) {
        await new Promise((res) => setTimeout(res, 50));
        [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, r.body.payout.id));
      }
      const forged = JSON.stringify({
        event_id: `evt_forged_${randomUUID()}`,
        type: 'payout.failed',
        data: { id: p.providerId, idempotency_key: p.idempotencyKey, status: 'Failed', message: 'Declined' },
      });
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/provider/webhook',
        headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(t.webhookSecret, forged) },
        payload: forged,
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().message).toEqual(['ignored']);
      [p] = await t.deps.db.select().from(payouts).where(eq(payouts.id, r.body.payout.id));
      expect(p.status).toBe('in_flight');
      expect(await balance()).toBe(before - 2_500 - feeCents(2_500, 150));
      await control({ paused_settlement: false });
      expect((await waitStatus(p.id)).status).toBe('completed');
      expect(await balance()).toBe(before - 2_500 - feeCents(2_500, 150));
    } finally {
      await control({ paused_settlement: false });
    }
  });

  it('records a payout in the transaction that moves its money: one activity record, with the payout', async () => {
    const code = await requestCode(610, '100000022');
    const r = await t.post(
      '/api/create-payout',
      { ...payoutBody({ obol_id: '100000022', amount: 610 }), code },
      merchantToken,
    );
    expect(r.status).toBe(201);
    const rows = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'payout.create'), eq(activityLog.targetId, String(r.body.payout.id))));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'success', statusCode: 201, targetType: 'payout' });
  });

  it('answers a replay from the stored answer, and lets a claim its dead process left be taken over', async () => {
    const body = payoutBody({ obol_id: '100000023', amount: 620 });
    const [user] = await t.deps.db.select().from(users).where(eq(users.email, 'merchant@obol.example'));
    // a claim of a process that died before its transaction committed: nothing of it exists but the claim
    await t.deps.db.insert(idempotencyKeys).values({
      userId: user.id,
      key: body.idempotency_key,
      command: 'create-payout',
      requestHash: 'x',
    });
    const code = await requestCode(620, '100000023');
    // a fresh claim (of another request hash) is a conflict, never a second run
    expect((await t.post('/api/create-payout', { ...body, code }, merchantToken)).status).toBe(409);
    const { hashPayload } = await import('../../platform/hash.ts');
    const { code: _c, ...payload } = { ...body, code, amount: 620, currency: 'EUR' };
    void _c;
    await t.deps.db
      .update(idempotencyKeys)
      .set({ requestHash: hashPayload({ command: 'create-payout', payload }) })
      .where(eq(idempotencyKeys.key, body.idempotency_key));
    expect((await t.post('/api/create-payout', { ...body, code }, merchantToken)).body.error).toEqual([
      'This request is still being processed',
    ]);
    await t.deps.db.execute(
      sql`UPDATE idempotency_keys SET created_at = now() - interval '3 minutes' WHERE key = ${body.idempotency_key}`,
    );
    const r = await t.post('/api/create-payout', { ...body, code }, merchantToken);
    expect(r.status).toBe(201);
    const [stored] = await t.deps.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, body.idempotency_key));
    expect(stored.response).toEqual(r.body);
  });

  it('refuses a signed webhook whose text cannot be stored, with a 400 and nothing recorded', async () => {
    const body = JSON.stringify({
      event_id: `evt_nul_${randomUUID()}`,
      type: 'payout.completed',
      data: { id: 'po_\u0000', idempotency_key: 'k\ud800' },
    });
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/provider/webhook',
      headers: { 'content-type': 'application/json', 'x-provider-signature': signWebhook(t.webhookSecret, body) },
      payload: body,
    });
    expect(r.statusCode).toBe(400);
    expect(Object.keys(r.json().fields)).toEqual(['data.id', 'data.idempotency_key']);
  });

  it('settles once whatever duplicate and out-of-order webhooks arrive', async () => {
    await control({ duplicate_webhooks: true, out_of_order_webhooks: true });
    const before = await balance();
    const ids: number[] = [];
    for (const [wallet, amount] of [
      ['100000011', 401],
      ['200000011', 402],
      ['100000012', 403],
    ] as const) {
      const code = await requestCode(amount, wallet);
      const r = await t.post('/api/create-payout', { ...payoutBody({ obol_id: wallet, amount }), code }, merchantToken);
      expect(r.status).toBe(201);
      ids.push(r.body.payout.id);
    }
    const settled = await Promise.all(ids.map((id) => waitStatus(id)));
    await new Promise((r) => setTimeout(r, 1500));
    await control({ duplicate_webhooks: false, out_of_order_webhooks: false });
    expect(settled.map((p) => p.status)).toEqual(['completed', 'failed', 'completed']);
    const spent = settled.filter((p) => p.status === 'completed').reduce((s, p) => s + p.amount + p.fee, 0);
    expect(await balance()).toBe(before - spent);
    const admin = await t.signIn('admin@obol.example');
    expect((await t.post('/api/trial-balance', {}, admin)).body.balanced).toBe(true);
  });

  it('reconciles the statement with the books and reports every difference', async () => {
    const admin = await t.signIn('admin@obol.example');
    const clean = await t.post('/api/reconcile', {}, admin);
    expect(clean.status).toBe(200);
    expect(clean.body.differences).toEqual([]);
    expect(clean.body.checked).toBeGreaterThan(0);
    const [p] = await t.deps.db.select().from(payouts).where(eq(payouts.status, 'completed')).limit(1);
    await t.deps.db.update(payouts).set({ status: 'failed' }).where(eq(payouts.id, p.id));
    const dirty = await t.post('/api/reconcile', {}, admin);
    expect(dirty.body.differences).toEqual([
      expect.objectContaining({ kind: 'status_mismatch', ours: 'Failed', theirs: 'Completed' }),
    ]);
    await t.deps.db.update(payouts).set({ status: 'completed' }).where(eq(payouts.id, p.id));
    expect((await t.post('/api/reconciliation-report', {}, admin)).body.report.differences).toHaveLength(1);
    expect((await t.post('/api/reconcile', {}, merchantToken)).status).toBe(403);
  });
});

describe('the Admin pays from the Fee Account on behalf of a merchant', () => {
  const feeBalance = async (admin: string) =>
    (await t.post('/api/account-balance', { account_reference: 'Fee Account' }, admin)).body.balance as number;

  it('takes the merchant’s brands and ids, charges no fee, and moves only the Fee Account', async () => {
    const admin = await t.signIn('admin@obol.example');
    const merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
    const accounts = await t.post('/api/merchant-accounts', { id: 0 }, admin);
    expect(accounts.body.data).toEqual([expect.objectContaining({ account_reference: 'Fee Account' })]);
    const fees = await feeBalance(admin);
    expect(fees).toBeGreaterThanOrEqual(50);
    const merchantBefore = await balance();
    const body = payoutBody({ account_reference: 'Fee Account', behalf_of_id: merchantId, amount: 50 });
    expect(
      (
        await t.post(
          '/api/request-code',
          { transaction_type: 'Manual Payout', amount: 50, obol_id: body.obol_id },
          admin,
        )
      ).status,
    ).toBe(200);
    const code = t.lastMailTo('admin@obol.example')!.code!;
    // a brand of another merchant is not this merchant's
    const wrongBrand = await t.post('/api/create-payout', { ...body, brand: 'Globex Outlet', code }, admin);
    expect(wrongBrand.status).toBe(422);
    const r = await t.post('/api/create-payout', { ...body, code, total_payable: 50 }, admin);
    expect(r.status).toBe(201);
    expect(r.body.payout).toMatchObject({ amount: 50, fee: 0 });
    expect(await feeBalance(admin)).toBe(fees - 50);
    expect(await balance()).toBe(merchantBefore);
    // the merchant sees what was paid on its behalf
    const list = await t.post(
      '/api/payout-transactions',
      { merchant_id: body.merchant_transaction_id, page: 1, per_page: 10 },
      merchantToken,
    );
    expect(list.body.transactions.data).toEqual([
      expect.objectContaining({ merchant_transaction_id: body.merchant_transaction_id, account_used: 'Fee Account' }),
    ]);
  });

  it('a batch paid from the Fee Account is the Admin’s to run, never the merchant’s', async () => {
    const admin = await t.signIn('admin@obol.example');
    const merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
    const up = await t.upload(
      '/api/upload-transactions',
      { file_name: 'fee.csv', behalf_of_id: String(merchantId), account_reference: 'Fee Account' },
      {
        name: 'fee.csv',
        content: `beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\nAna,100000001,FEE-${Date.now()},Acme Brand,r,10\n`,
      },
      admin,
    );
    expect(up.status).toBe(200);
    const batchId = up.body.batch_id as string;
    for (let i = 0; i < 100; i++) {
      const p = await t.post('/api/batch-progress', { id: batchId }, admin);
      if (p.body.status === 'Pending') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const rows = await t.post('/api/staged-transactions', { batch_id: batchId }, admin);
    expect(rows.body).toMatchObject({ pendingTransaction: 1, failedTransaction: 0 });
    const theirs = await t.post('/api/execute-batch', { batch_id: batchId, amount: 10 }, merchantToken);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toEqual(['Account not registered']);
    expect((await t.post('/api/execute-batch', { batch_id: batchId, amount: 10 }, admin)).status).toBe(200);
  });
});
