import { randomUUID } from 'node:crypto';
import { feeCents } from '@obol/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { userIdByEmail } from '../../seed.ts';
import { holderReference, platformAccountId } from '../ledger/accounts.ts';
import { postEntry } from '../ledger/service.ts';
import { activityLog, payouts, users } from '../../schema.ts';
import { permissions, rolePermissions, roles } from '../roles/tables.ts';

let t: TestAppWithProvider;
const tokens: Record<string, string> = {};
const token = async (who: string) => (tokens[who] ??= await t.signIn(`${who}@obol.example`));
const id = async (who: string) => (await userIdByEmail(t.deps.db, `${who}@obol.example`))!;
const post = async (path: string, body: object, who = 'accountant') => t.post(path, body, await token(who));
const feeBps = async (who: string) =>
  (
    await t.deps.db
      .select({ f: users.feeBps })
      .from(users)
      .where(eq(users.id, await id(who)))
  )[0].f;

beforeAll(async () => {
  // a provider to look the payouts' wallet up; no workers: the payouts stay reserved, which is all this needs
  t = await startTestAppWithProvider();
});
afterAll(async () => {
  await t?.close();
});

describe('the Fee Module', () => {
  it('lists every merchant and brand with its fee, for the roles with the permission only', async () => {
    const r = await post('/api/fee-list', { per_page: 100 });
    expect(r.status).toBe(200);
    const rows = r.body.data as { id: number; role: string; fee: number; parent: { id: number } | null }[];
    const brand = rows.find((x) => x.role === 'Brand')!;
    expect(brand.parent).not.toBeNull();
    expect(rows.every((x) => x.role === 'Merchant' || x.role === 'Brand')).toBe(true);
    const merchantId = await id('merchant');
    expect(rows.find((x) => x.id === merchantId)!.fee).toBe((await feeBps('merchant'))! / 100);
    expect((await post('/api/fee-list', { search: 'brand2@' })).body.data).toHaveLength(1);
    for (const who of ['merchant', 'brand', 'reviewer'])
      expect((await post('/api/fee-list', {}, who)).status, who).toBe(403);
    expect((await post('/api/fee-list', {}, 'admin')).status).toBe(200);
  });

  it('refuses a fee out of range or with more than two decimals, and a missing or short reason, changing nothing', async () => {
    const holder = await id('merchant2');
    const before = await feeBps('merchant2');
    for (const fee of [0, -1, 100.01, 101, '1.234', 'abc']) {
      const r = await post('/api/update-fee', { id: holder, fee, reason: 'contract renewal' });
      expect(r.status, String(fee)).toBe(400);
      expect(JSON.stringify(r.body)).toContain('Amount must be from 0 to 100');
    }
    expect((await post('/api/update-fee', { id: holder, fee: 2 })).body.error).toContain('This field is required');
    expect((await post('/api/update-fee', { id: holder, fee: 2, reason: '  ' })).body.error).toContain(
      'Give the reason for the change',
    );
    expect((await post('/api/update-fee', { id: holder, fee: 2, reason: 'ab' })).body.error).toContain(
      'The reason must be 3 to 255 characters',
    );
    expect((await post('/api/update-fee', { id: holder, fee: before! / 100, reason: 'same' })).status).toBe(422);
    // no merchant or brand: 404 as for nobody
    expect((await post('/api/update-fee', { id: await id('admin'), fee: 2, reason: 'nobody' })).status).toBe(404);
    expect((await post('/api/update-fee', { id: 2_000_000_000, fee: 2, reason: 'nobody' })).status).toBe(404);
    expect((await post('/api/update-fee', { id: holder, fee: 2, reason: 'mine' }, 'merchant2')).status).toBe(403);
    expect(await feeBps('merchant2')).toBe(before);
    expect((await post('/api/fee-history', { id: holder })).body.data).toEqual([]);
  });

  it('changes a fee exactly with its reason, records the history and the activity log', async () => {
    const holder = await id('brand2');
    const before = (await feeBps('brand2')) ?? 0;
    const r = await post('/api/update-fee', { id: holder, fee: '2.35', reason: 'Volume discount ended' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: ['Fee updated successfully.'], fee: 2.35 });
    expect(await feeBps('brand2')).toBe(235);
    await post('/api/update-fee', { id: holder, fee: 1.1, reason: 'Renegotiated' }, 'admin');
    expect(await feeBps('brand2')).toBe(110);
    const h = await post('/api/fee-history', { id: holder });
    expect(
      h.body.data.map((c: { old_fee: number; new_fee: number; reason: string; changed_by: string }) => c),
    ).toMatchObject([
      { old_fee: 2.35, new_fee: 1.1, reason: 'Renegotiated' },
      { old_fee: before / 100, new_fee: 2.35, reason: 'Volume discount ended' },
    ]);
    const list = await post('/api/fee-list', { search: 'brand2@' });
    expect(list.body.data[0]).toMatchObject({ fee: 1.1, changed_at: expect.any(String) });
    const [log] = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'fees.update'), eq(activityLog.targetId, String(holder))))
      .orderBy(desc(activityLog.id))
      .limit(1);
    expect(log.before).toMatchObject({ fee: 2.35 });
    expect(log.after).toMatchObject({ fee: 1.1, reason: 'Renegotiated' });
  });

  it('racing changes of one holder each record the fee the previous one left', async () => {
    const holder = await id('merchant2');
    const fees = ['3.01', '3.02', '3.03', '3.04', '3.05'];
    const answers = await Promise.all(
      fees.map((fee, i) =>
        post('/api/update-fee', { id: holder, fee, reason: `race ${i}` }, i % 2 ? 'admin' : 'accountant'),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const h = (await post('/api/fee-history', { id: holder })).body.data as { old_fee: number; new_fee: number }[];
    const chain = h.slice(0, fees.length).reverse();
    for (let i = 1; i < chain.length; i++) expect(chain[i].old_fee).toBe(chain[i - 1].new_fee);
    expect((await feeBps('merchant2'))! / 100).toBe(h[0].new_fee);
  });

  it('applies to payouts created after the change; a payout made before keeps its fee', async () => {
    const merchant = await id('merchant');
    const ref = holderReference(merchant);
    const pay = async (amount: number) => {
      const obol_id = '100000001';
      await post('/api/request-code', { transaction_type: 'Manual Payout', amount, obol_id }, 'merchant');
      const code = t.lastMailTo('merchant@obol.example')!.code!;
      const r = await post(
        '/api/create-payout',
        {
          idempotency_key: randomUUID(),
          account_reference: ref,
          merchant_transaction_id: `FEE-${randomUUID()}`,
          beneficiary_name: 'Ana Novak',
          obol_id,
          brand: 'Acme Brand',
          currency: 'EUR',
          reference: 'Fee test',
          amount,
          code,
        },
        'merchant',
      );
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.payout as { id: number; fee: number };
    };
    const oldBps = (await feeBps('merchant'))!;
    const first = await pay(10_000);
    expect(first.fee).toBe(feeCents(10_000, oldBps));
    const newBps = oldBps === 275 ? 300 : 275;
    expect((await post('/api/update-fee', { id: merchant, fee: newBps / 100, reason: 'new contract' })).status).toBe(
      200,
    );
    const second = await pay(10_000);
    expect(second.fee).toBe(feeCents(10_000, newBps));
    const [kept] = await t.deps.db.select().from(payouts).where(eq(payouts.id, first.id));
    expect(kept.feeBps).toBe(oldBps);
    expect(kept.fee).toBe(feeCents(10_000, oldBps));
  });
});

describe('fee income', () => {
  it("sums the Fee Account's postings per UTC day and month, from the ledger", async () => {
    const r = await post('/api/fee-income', { group: 'day' });
    expect(r.status).toBe(200);
    const [{ sum }] = (
      await t.deps.db.execute<{ sum: string }>(
        `SELECT coalesce(sum(p.amount), 0)::text AS sum FROM postings p JOIN accounts a ON a.id = p.account_id
         JOIN journal_entries e ON e.id = p.entry_id
         WHERE a.kind = 'fee' AND p.created_at >= (now() AT TIME ZONE 'UTC')::date - 29
           AND e.kind NOT LIKE 'transfer.%' AND e.kind NOT LIKE 'accounting.%'`,
      )
    ).rows;
    expect(r.body.total).toBe(Number(sum));
    expect(r.body.total).toBeGreaterThan(0);
    expect(r.body.data.reduce((s: number, d: { amount: number }) => s + d.amount, 0)).toBe(r.body.total);
    const month = await post('/api/fee-income', {
      group: 'month',
      start_date: r.body.start_date,
      end_date: r.body.end_date,
    });
    expect(month.body.total).toBe(r.body.total);
    expect(month.body.data.every((d: { period: string }) => /^\d{4}-\d{2}$/.test(d.period))).toBe(true);
    // reversed dates are reordered; a bad date or group is refused with its field
    const rev = await post('/api/fee-income', { start_date: r.body.end_date, end_date: r.body.start_date });
    expect(rev.body.total).toBe(r.body.total);
    expect((await post('/api/fee-income', { group: 'year' })).status).toBe(400);
    expect((await post('/api/fee-income', { start_date: '2026-02-30' })).status).toBe(400);
    expect((await post('/api/fee-income', { start_date: '2020-01-01', end_date: '2026-01-01' })).status).toBe(400);
    expect((await post('/api/fee-income', {}, 'merchant')).status).toBe(403);
  });

  it('is income: money transferred out of the Fee Account leaves it unchanged, a fee raises it', async () => {
    const fee = await platformAccountId(t.deps.db, 'fee');
    const clearing = await platformAccountId(t.deps.db, 'transfer_clearing');
    const move = (kind: string, from: number, to: number) =>
      t.deps.db.transaction((tx) =>
        postEntry(tx, {
          idempotencyKey: randomUUID(),
          kind,
          postings: [
            { accountId: from, amount: -7 },
            { accountId: to, amount: 7 },
          ],
        }),
      );
    const before = (await post('/api/fee-income', {})).body.total;
    await move('transfer.reserve', fee, clearing);
    await move('accounting.reserve', fee, clearing);
    expect((await post('/api/fee-income', {})).body.total).toBe(before);
    await move('payout.reserve', clearing, fee);
    expect((await post('/api/fee-income', {})).body.total).toBe(before + 7);
  });
});

describe('the Fee Module is staff’s', () => {
  it('answers 403 to a merchant whose role was given the Fee Module permissions, and changes nothing', async () => {
    const [role] = await t.deps.db.select().from(roles).where(eq(roles.name, 'Merchant'));
    const perms = await t.deps.db
      .select()
      .from(permissions)
      .where(inArray(permissions.name, ['User can view fee module']));
    await t.deps.db
      .insert(rolePermissions)
      .values(perms.map((p) => ({ roleId: role.id, permissionId: p.id })))
      .onConflictDoNothing();
    delete tokens.merchant;
    const holder = await id('merchant2');
    const before = await feeBps('merchant2');
    expect((await post('/api/fee-list', {}, 'merchant')).status).toBe(403);
    expect((await post('/api/fee-history', { id: holder }, 'merchant')).status).toBe(403);
    expect((await post('/api/fee-income', {}, 'merchant')).status).toBe(403);
    const r = await post('/api/update-fee', { id: holder, fee: 9, reason: 'from a merchant' }, 'merchant');
    expect(r.status).toBe(403);
    expect(await feeBps('merchant2')).toBe(before);
  });
});
