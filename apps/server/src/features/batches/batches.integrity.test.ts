import { randomUUID } from 'node:crypto';
import { feeCents } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../platform/db.ts';
import { engine } from '../../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderReference } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/service.ts';
import { journalEntries, postings } from '../ledger/tables.ts';
import { payouts } from '../payouts/tables.ts';
import { applyProviderEvents } from '../provider/service.ts';
import { batches } from './tables.ts';

// The races of issue 11, from outside, through the API: on PostgreSQL the requests of each trial really run at
// the same moment (a pool of 20 connections); on PGlite they are serialised, and the same rules must hold.
const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';
const TRIALS = 5;
let t: TestAppWithProvider;
let merchant: string;
let admin: string;
let merchantId: number;
let ref: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, workers: true, provider: { settleMs: 50 } });
  // these trials ask for many codes and upload many files on purpose: the per-user limits are not under test
  t.config.limits.approvalCode.limit = 1000;
  t.config.limits.upload.limit = 1000;
  merchant = await t.signIn('merchant@obol.example');
  admin = await t.signIn('admin@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  ref = holderReference(merchantId);
}, 120_000);
// stopping the workers waits for the jobs still settling; on a loaded machine that took over a minute
afterAll(async () => {
  await t?.close();
}, 120_000);

const balance = async () =>
  (await t.post('/api/account-balance', { account_reference: ref }, merchant)).body.balance as number;

async function uploadStaged(csv: string, token = merchant) {
  const up = await t.upload(
    '/api/upload-transactions',
    { file_name: 'race.csv', behalf_of_id: String(merchantId), account_reference: ref },
    { name: 'race.csv', content: csv },
    token,
  );
  expect(up.status, up.text).toBe(200);
  const batchId = up.body.batch_id as string;
  for (let i = 0; i < 200; i++) {
    const p = await t.post('/api/batch-progress', { id: batchId }, token);
    if (p.body.status === 'Pending') return batchId;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`batch ${batchId} was not staged`);
}

async function approvalCode(batchId: string, token = merchant, email = 'merchant@obol.example') {
  const ask = await t.post('/api/execute-batch', { batch_id: batchId }, token);
  expect(ask.status, ask.text).toBe(200);
  return t.lastMailTo(email)!.code!;
}

async function settled(batchId: string, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    // payouts first, then the batch: a payout's settlement updates both in one transaction, so a batch read
    // after the last payout left Processing already carries that payout's return
    const left = await t.deps.db
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.batchId, batchId), eq(payouts.status, 'in_flight')));
    const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
    if (b.status === 'Completed' && left.length === 0) return b;
    if (Date.now() > end) throw new Error(`batch ${batchId} is ${b.status} with ${left.length} payouts in flight`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the batch reserved in the ledger equals what its payouts carry, and the books balance. */
async function assertReserveMatchesPayouts(batchId: string) {
  const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  const [reserve] = rowsOf<{ clearing: number | string }>(
    await t.deps.db.execute(sql`
      SELECT p.amount AS clearing FROM ${journalEntries} e JOIN ${postings} p ON p.entry_id = e.id
      JOIN accounts a ON a.id = p.account_id
      WHERE e.idempotency_key = ${`batch:${batchId}:reserve`} AND a.kind = 'payout_clearing'`),
  );
  const [paid] = rowsOf<{ total: number | string }>(
    await t.deps.db.execute(sql`SELECT coalesce(sum(amount), 0) AS total FROM payouts WHERE batch_id = ${batchId}`),
  );
  expect(Number(reserve.clearing)).toBe(b.amount);
  expect(Number(paid.total)).toBe(b.amount);
  expect((await trialBalance(t.deps.db)).balanced).toBe(true);
}

describe('a staged row edited while its batch is being confirmed', () => {
  it.each(Array.from({ length: TRIALS }, (_, i) => i))(
    'trial %i: either the edit lands first and the code no longer fits, or the batch runs with what was approved',
    async (trial) => {
      const tag = `EDIT-${trial}-${randomUUID().slice(0, 8)}`;
      const batchId = await uploadStaged(
        `${HEADER}\nAna Novak,100000001,${tag}-1,Acme Brand,Invoice,500\nBen Berg,100000002,${tag}-2,Acme Brand,Invoice,300\n`,
      );
      const rows = (await t.post('/api/staged-transactions', { batch_id: batchId }, merchant)).body.transaction.data;
      const code = await approvalCode(batchId);
      const [confirm, edit] = await Promise.all([
        t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant),
        t.post(
          '/api/update-transaction',
          {
            id: rows[0].id,
            batch_id: batchId,
            beneficiary_name: 'Ana Novak',
            obol_id: '100000001',
            merchant_transaction_id: `${tag}-1`,
            brand: 'Acme Brand',
            amount: '900400',
            reference: 'Invoice',
          },
          merchant,
        ),
      ]);
      // never both: the row edited after the total was approved is never paid unreserved
      expect([confirm.status === 200, edit.status === 200]).not.toEqual([true, true]);
      expect(confirm.status === 200 || edit.status === 200).toBe(true);
      if (confirm.status === 200) {
        expect(edit.status).toBe(409);
        expect(confirm.body.amount).toBe(800);
        await settled(batchId);
        await assertReserveMatchesPayouts(batchId);
      } else {
        expect([409, 422]).toContain(confirm.status);
        const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
        expect(b.status).toBe('Pending');
        expect(b.executedAt).toBeNull();
        const moved = await t.deps.db
          .select({ id: journalEntries.id })
          .from(journalEntries)
          .where(eq(journalEntries.idempotencyKey, `batch:${batchId}:reserve`));
        expect(moved).toEqual([]);
      }
    },
  );

  it('a delete or a clear racing the confirmation is refused the same way', async () => {
    const tag = `DEL-${randomUUID().slice(0, 8)}`;
    const batchId = await uploadStaged(
      `${HEADER}\nAna Novak,100000001,${tag}-1,Acme Brand,Invoice,500\nBen Berg,100000002,${tag}-2,Acme Brand,Invoice,300\n`,
    );
    const rows = (await t.post('/api/staged-transactions', { batch_id: batchId }, merchant)).body.transaction.data;
    const code = await approvalCode(batchId);
    const [confirm, del, clear] = await Promise.all([
      t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant),
      t.post('/api/delete-transaction', { id: rows[1].id, batch_id: batchId }, merchant),
      t.post('/api/clear-batch', { batch_id: batchId }, merchant),
    ]);
    const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
    if (confirm.status === 200) {
      expect(clear.status).toBe(409);
      await settled(batchId);
      await assertReserveMatchesPayouts(batchId);
    } else {
      expect(b.executedAt).toBeNull();
      expect(del.status === 200 || clear.status === 200).toBe(true);
    }
  });
});

describe('one merchant transaction id', () => {
  async function payoutCode(token: string, email: string, amount: number) {
    const r = await t.post(
      '/api/request-code',
      { transaction_type: 'Manual Payout', amount, obol_id: '100000001' },
      token,
    );
    expect(r.status, r.text).toBe(200);
    return t.lastMailTo(email)!.code!;
  }
  const body = (mtid: string, code: string) => ({
    idempotency_key: randomUUID(),
    account_reference: ref,
    merchant_transaction_id: mtid,
    beneficiary_name: 'Ana Novak',
    obol_id: '100000001',
    brand: 'Acme Brand',
    reference: 'Invoice',
    amount: 700,
    code,
  });

  it.each(Array.from({ length: TRIALS }, (_, i) => i))(
    'trial %i: sent by the merchant and an admin at the same moment, is paid once',
    async (trial) => {
      const mtid = `TWO-${trial}-${randomUUID().slice(0, 8)}`;
      const before = await balance();
      const mine = await payoutCode(merchant, 'merchant@obol.example', 700);
      const theirs = await payoutCode(admin, 'admin@obol.example', 700);
      const answers = await Promise.all([
        t.post('/api/create-payout', body(mtid, mine), merchant),
        t.post('/api/create-payout', body(mtid, theirs), admin),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
      const refused = answers.find((a) => a.status === 422)!;
      expect(refused.body.fields.merchant_transaction_id).toEqual(['Merchant transaction id already exists']);
      const rows = await t.deps.db
        .select()
        .from(payouts)
        .where(and(eq(payouts.merchantId, merchantId), eq(payouts.merchantTransactionId, mtid)));
      expect(rows).toHaveLength(1);
      expect(await balance()).toBe(before - 700 - rows[0].fee);
    },
  );

  it('uploaded twice: the second file is flagged against the first, and cannot be executed', async () => {
    const tag = `TWICE-${randomUUID().slice(0, 8)}`;
    const csv = `${HEADER}\nAna Novak,100000001,${tag}-1,Acme Brand,Invoice,400\nBen Berg,100000002,${tag}-2,Acme Brand,Invoice,600\n`;
    const first = await uploadStaged(csv);
    const second = await uploadStaged(csv);
    const s = await t.post('/api/staged-transactions', { batch_id: second }, merchant);
    expect(s.body).toMatchObject({ pendingTransaction: 0, failedTransaction: 2 });
    expect(
      s.body.transaction.data.map(
        (r: { merchant_transaction_id: { error: string } }) => r.merchant_transaction_id.error,
      ),
    ).toEqual(['Merchant transaction id already exists', 'Merchant transaction id already exists']);
    expect((await t.post('/api/execute-batch', { batch_id: second }, merchant)).status).toBe(422);
    const code = await approvalCode(first);
    expect((await t.post('/api/confirm-batch', { batch_id: first, code }, merchant)).status).toBe(200);
    await settled(first);
    await assertReserveMatchesPayouts(first);
  });

  it('staged, then paid by a manual payout: at execution the row becomes a Failed payout and its money returns', async () => {
    const mtid = `LATE-${randomUUID().slice(0, 8)}`;
    const batchId = await uploadStaged(
      `${HEADER}\nAna Novak,100000001,${mtid},Acme Brand,Invoice,2000\nBen Berg,100000002,${mtid}-b,Acme Brand,Invoice,3000\n`,
    );
    const manual = await payoutCode(merchant, 'merchant@obol.example', 700);
    expect((await t.post('/api/create-payout', body(mtid, manual), merchant)).status).toBe(201);
    const before = await balance();
    const code = await approvalCode(batchId);
    const ok = await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ amount: 5000, fee: feeCents(5000, 150) });
    await settled(batchId);
    const rows = await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId));
    const dup = rows.find((r) => r.merchantTransactionId === mtid)!;
    expect(dup).toMatchObject({
      status: 'failed',
      duplicateMtid: true,
      failureMessage: 'Merchant transaction id already exists',
    });
    expect(dup.providerId).toBeNull();
    // only the paid row keeps its amount and the fee on it
    expect(await balance()).toBe(before - 3000 - feeCents(3000, 150));
    const paid = await t.deps.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.merchantId, merchantId), eq(payouts.merchantTransactionId, mtid)));
    expect(paid.filter((p) => !p.duplicateMtid)).toHaveLength(1);
    await assertReserveMatchesPayouts(batchId);
  });

  it.runIf(engine === 'postgres')(
    'the same file staged by two workers at once and both executed: each id is paid once',
    async () => {
      const { stageBatch } = await import('./stage.ts');
      const tag = `PAR-${randomUUID().slice(0, 8)}`;
      const lines = Array.from(
        { length: 40 },
        (_, i) => `Ana Novak,1000000${String(10 + i)},${tag}-${i},Acme Brand,Invoice,${100 + i}`,
      );
      const csv = `${HEADER}\n${lines.join('\n')}\n`;
      const [a, b] = await Promise.all([uploadStaged(csv), uploadStaged(csv)]);
      // whatever the staging jobs saw of each other, stage both again at the same moment
      await t.deps.db
        .update(batches)
        .set({ status: 'Processing' })
        .where(sql`${batches.batchId} IN (${a}, ${b})`);
      const file = Buffer.from(csv);
      for (const id of [a, b]) {
        const w = await t.deps.files.create(`uploads/${id}.csv`);
        w.stream.end(file);
        await w.commit();
      }
      await Promise.all([stageBatch(t.deps, a), stageBatch(t.deps, b)]);
      const before = await balance();
      let executed = 0;
      for (const id of [a, b]) {
        const s = await t.post('/api/staged-transactions', { batch_id: id, per_page: 100 }, merchant);
        if (s.body.pendingTransaction === 0) continue;
        const code = await approvalCode(id);
        expect((await t.post('/api/confirm-batch', { batch_id: id, code }, merchant)).status).toBe(200);
        executed += 1;
        await settled(id, 60_000);
        await assertReserveMatchesPayouts(id);
      }
      expect(executed).toBeGreaterThan(0);
      const per = rowsOf<{ m: string; n: number | string }>(
        await t.deps.db.execute(sql`
          SELECT merchant_transaction_id AS m, count(*) AS n FROM payouts
          WHERE merchant_id = ${merchantId} AND merchant_transaction_id LIKE ${`${tag}-%`} AND NOT duplicate_mtid
          GROUP BY 1`),
      );
      expect(per).toHaveLength(40);
      expect(per.every((r) => Number(r.n) === 1)).toBe(true);
      const total = lines.reduce((s, _l, i) => s + 100 + i, 0);
      const completed = await t.deps.db
        .select()
        .from(payouts)
        .where(and(sql`${payouts.merchantTransactionId} LIKE ${`${tag}-%`}`, eq(payouts.duplicateMtid, false)));
      expect(completed.reduce((s, p) => s + p.amount, 0)).toBe(total);
      expect(await balance()).toBe(before - total - feeCents(total, 150));
    },
    120_000,
  );
});

describe('a failed payout of a batch', () => {
  it('returns its amount and its share of the batch fee: the fee kept is the fee on what was paid', async () => {
    const tag = `FEE-${randomUUID().slice(0, 8)}`;
    // 'Globex Outlet' wallets (2........) refuse Acme Brand payouts: 'Brand does not match'
    const batchId = await uploadStaged(
      `${HEADER}\nAna Novak,100000001,${tag}-1,Acme Brand,Invoice,10001\nBen Berg,200000002,${tag}-2,Acme Brand,Invoice,3333\nCleo Costa,200000003,${tag}-3,Acme Brand,Invoice,4444\n`,
    );
    const before = await balance();
    const code = await approvalCode(batchId);
    const ok = await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant);
    expect(ok.status).toBe(200);
    const total = 10001 + 3333 + 4444;
    expect(ok.body.fee).toBe(feeCents(total, 150));
    const b = await settled(batchId);
    expect(await balance()).toBe(before - 10001 - feeCents(10001, 150));
    expect(b).toMatchObject({ amountReturned: 3333 + 4444, feeReturned: feeCents(total, 150) - feeCents(10001, 150) });
    await assertReserveMatchesPayouts(batchId);
  });
});

type PayoutRow = typeof payouts.$inferSelect;
const control = (body: object) =>
  fetch(`${t.config.providerUrl}/_control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The batch's payouts once the (paused) provider has taken every one of them. */
async function takenPayouts(batchId: string, count: number) {
  let rows: PayoutRow[] = [];
  for (let i = 0; i < 200 && !(rows.length === count && rows.every((r) => r.providerId)); i++) {
    await new Promise((r) => setTimeout(r, 50));
    rows = await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId)).orderBy(payouts.id);
  }
  expect(rows.map((r) => r.providerId)).toEqual(rows.map(() => expect.any(String)));
  expect(rows).toHaveLength(count);
  return rows;
}

/** The provider's word on these payouts: those to another brand's wallets (2........) failed. */
const providerWord = (rows: PayoutRow[]) =>
  rows.map((r) => ({
    id: r.providerId!,
    idempotency_key: r.idempotencyKey,
    reference: r.reference,
    amount: r.amount,
    currency: 'EUR',
    created_at: r.createdAt.toISOString(),
    status: r.obolId.startsWith('2') ? ('Failed' as const) : ('Completed' as const),
    ...(r.obolId.startsWith('2') ? { message: 'Brand does not match' } : {}),
  }));

/** One webhook event per payout, each with an event id of its own. */
const eventsOf = (word: ReturnType<typeof providerWord>) =>
  word.map((w) => ({
    event_id: `evt_${randomUUID()}`,
    type: w.status === 'Failed' ? 'payout.failed' : 'payout.completed',
    created_at: new Date().toISOString(),
    data: { id: w.id, idempotency_key: w.idempotency_key, status: w.status, amount: w.amount, reference: w.reference },
  }));

describe('failed payouts of a batch settled by one webhook batch', () => {
  it('return together exactly what they return one by one, and a later delivery of the same events moves nothing', async () => {
    const tag = `ONE-${randomUUID().slice(0, 8)}`;
    // the provider takes the payouts but settles none yet: the events are posted here, all in one batch
    expect((await control({ paused_settlement: true })).status).toBe(200);
    try {
      const batchId = await uploadStaged(
        `${HEADER}\nAna Novak,100000001,${tag}-1,Acme Brand,Invoice,10001\nBen Berg,200000002,${tag}-2,Acme Brand,Invoice,3333\nCleo Costa,200000003,${tag}-3,Acme Brand,Invoice,4444\n`,
      );
      const before = await balance();
      const code = await approvalCode(batchId);
      expect((await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant)).status).toBe(200);
      const rows = await takenPayouts(batchId, 3);
      // the provider's word: the two to another brand's wallets failed
      const word = providerWord(rows);
      const lookup = vi.spyOn(t.deps.provider, 'lookupPayouts').mockResolvedValue(word);
      const events = eventsOf(word);
      try {
        expect(await applyProviderEvents(t.deps, events)).toEqual(['applied', 'applied', 'applied']);
        expect(lookup).toHaveBeenCalledTimes(1);
      } finally {
        lookup.mockRestore();
      }
      // the same shares as one by one in payout id order: the first its part, the second the rest
      const total = 10001 + 3333 + 4444;
      const fee = feeCents(total, 150);
      const first = fee - feeCents(total - 3333, 150);
      const second = fee - feeCents(10001, 150) - first;
      const refunds = rowsOf<{ business_id: string; fee: number | string }>(
        await t.deps.db.execute(sql`
          SELECT e.business_id, -p.amount AS fee FROM ${journalEntries} e JOIN ${postings} p ON p.entry_id = e.id
          JOIN accounts a ON a.id = p.account_id
          WHERE e.kind = 'payout.reversal' AND a.kind = 'fee' AND a.owner_id IS NULL
            AND e.business_id IN (${String(rows[1].id)}, ${String(rows[2].id)})
          ORDER BY e.business_id::bigint`),
      );
      expect(refunds.map((r) => [Number(r.business_id), Number(r.fee)])).toEqual([
        [rows[1].id, first],
        [rows[2].id, second],
      ]);
      const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
      expect(b).toMatchObject({ amountReturned: 3333 + 4444, feeReturned: first + second });
      expect(await balance()).toBe(before - 10001 - feeCents(10001, 150));
      // the provider settles them now and delivers its own events: the payouts are settled, nothing moves
      expect((await control({ paused_settlement: false })).status).toBe(200);
      await settled(batchId);
      await new Promise((r) => setTimeout(r, 300));
      expect(await balance()).toBe(before - 10001 - feeCents(10001, 150));
      await assertReserveMatchesPayouts(batchId);
    } finally {
      await control({ paused_settlement: false });
    }
  });
});

describe('webhook batches settling payouts of one batch at the same moment', () => {
  it('return each failed payout once, with the fee kept on what was paid, and settle each payout once', async () => {
    const tag = `RACE-${randomUUID().slice(0, 8)}`;
    // eight payouts, every other one to another brand's wallet (failed by the provider), settled by three webhook
    // batches at once: two halves, and all eight again under new event ids in reverse order
    const amounts = [1001, 2002, 3003, 4004, 5005, 6006, 7007, 8008];
    const lines = amounts.map((a, i) => `Payee ${i},${i % 2 ? 2 : 1}0000000${i},${tag}-${i},Acme Brand,Invoice,${a}`);
    expect((await control({ paused_settlement: true })).status).toBe(200);
    try {
      const batchId = await uploadStaged(`${HEADER}\n${lines.join('\n')}\n`);
      const before = await balance();
      const code = await approvalCode(batchId);
      expect((await t.post('/api/confirm-batch', { batch_id: batchId, code }, merchant)).status).toBe(200);
      const rows = await takenPayouts(batchId, 8);
      const word = providerWord(rows);
      const lookup = vi
        .spyOn(t.deps.provider, 'lookupPayouts')
        .mockImplementation(async (keys: string[]) => word.filter((w) => keys.includes(w.idempotency_key)));
      const events = eventsOf(word);
      let outcomes: string[][];
      try {
        outcomes = await Promise.all([
          applyProviderEvents(t.deps, events.slice(0, 4)),
          applyProviderEvents(t.deps, events.slice(4)),
          applyProviderEvents(t.deps, eventsOf(word).reverse()),
        ]);
      } finally {
        lookup.mockRestore();
      }
      // each payout applied by exactly one of the deliveries; the others ignored it
      expect(outcomes.flat().filter((o) => o === 'applied')).toHaveLength(8);
      expect(outcomes.flat().filter((o) => o !== 'applied' && o !== 'ignored')).toEqual([]);
      const settledRows = await t.deps.db.select().from(payouts).where(eq(payouts.batchId, batchId));
      for (const r of settledRows) expect(r.status).toBe(r.obolId.startsWith('2') ? 'failed' : 'completed');
      // one settlement entry per payout: its completion or its return
      const perPayout = rowsOf<{ business_id: string; n: number | string }>(
        await t.deps.db.execute(sql`
          SELECT business_id, count(*) AS n FROM ${journalEntries}
          WHERE business_type = 'payout' AND business_id = ANY(${sql.param(rows.map((r) => String(r.id)))}::text[])
          GROUP BY business_id`),
      );
      expect(perPayout.map((r) => Number(r.n))).toEqual(rows.map(() => 1));
      const total = amounts.reduce((a, b) => a + b, 0);
      const paid = amounts.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
      const [b] = await t.deps.db.select().from(batches).where(eq(batches.batchId, batchId));
      expect(b).toMatchObject({
        amountReturned: total - paid,
        feeReturned: feeCents(total, 150) - feeCents(paid, 150),
      });
      expect(await balance()).toBe(before - paid - feeCents(paid, 150));
      await assertReserveMatchesPayouts(batchId);
      // the provider's own events afterwards move nothing
      expect((await control({ paused_settlement: false })).status).toBe(200);
      await settled(batchId);
      await new Promise((r) => setTimeout(r, 300));
      expect(await balance()).toBe(before - paid - feeCents(paid, 150));
    } finally {
      await control({ paused_settlement: false });
    }
  });
});
