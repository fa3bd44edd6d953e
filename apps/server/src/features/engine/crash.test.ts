import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../../../provider/src/app.ts';
import { approvedCompany, companyAccounts } from '../../test/companies.ts';
import { outboxPath } from '../../test/outbox.ts';
import { completedPayin, merchantApiKey, paidPayin } from '../../test/payins.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { journalEntries } from '../ledger/tables.ts';
import { refundMovement } from '../payins/refunds.ts';
import { rewardMovement } from '../payins/rewards.ts';
import { payinMovement } from '../payins/settle.ts';
import { payinRewards, payins, refunds } from '../payins/tables.ts';
import { transferMovement } from '../transfers/movement.ts';
import { accountingMovement } from '../accounting/settlement.ts';
import { payoutMovement } from '../batches/payout-movement.ts';
import { makePayouts } from '../../test/payouts.ts';
import { userIdByEmail } from '../../seed.ts';
import { statusField, type Movement, type MovementRow } from './movement.ts';
import { recoverMovements } from './recover.ts';
import { submitMovement } from './submit.ts';

// A process dies at the two worst moments of a movement, for each kind the engine moves: after the provider took
// it and before its answer was recorded, and in the middle of its settlement (the transaction rolled back). No
// worker runs and every webhook is lost: the one recover path must settle each exactly once.
let t: TestAppWithProvider;
let provider: Provider;
let admin: string;
let merchant: string;
let apiKey: string;
let payinAccount: string;
let admin2d: string;
/** a company's account a 2D transfer is made from */
let company: { id: number; account: string };

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, webhooks: 'lost', provider: { settleMs: 20 } });
  provider = t.provider;
  admin = await t.signIn('admin@obol.example');
  merchant = await t.signIn('merchant@obol.example');
  payinAccount = (await t.post('/api/login-user-account', {}, merchant)).body.payin_account_id;
  apiKey = await merchantApiKey(t, 'merchant@obol.example');
  admin2d = await t.signIn('2d-admin@obol.example');
  const c = await approvedCompany(t, admin2d, {
    name: 'Crash Co',
    email: 'treasury@crash.example',
    api_key: 'ck_crash000000000000004',
  });
  company = { id: c.id, account: c.accounts[0].id };
});
afterAll(async () => {
  await t?.close();
});

/** Each kind: made through the API as a user would (reserved, its job enqueued, never run); answers its id. */
// what else each kind's money must show once settled (checked after the restart)
const after: Record<string, () => Promise<void>> = {};
const make: Record<string, () => Promise<number>> = {
  async payout() {
    const [id] = await makePayouts(t.deps, (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!, 1, 'crash');
    return id;
  },
  async transfer() {
    const body = {
      beneficiary_name: 'Acme Supplies',
      iban: 'DE89370400440532013000',
      bic: 'DEUTDEFF',
      amount: 1_100,
      account_id: payinAccount,
      message: '',
    };
    expect((await t.post('/api/send-otp', body, admin)).status).toBe(200);
    const code = t.lastMailTo('admin@obol.example')!.code!;
    const r = await t.post('/api/amount-transfer', { ...body, code }, admin);
    expect(r.status, r.text).toBe(201);
    return r.body.transfer.id as number;
  },
  async '2D transfer'() {
    const balance = async () => (await companyAccounts(t, admin2d, company.id))[0].balance;
    const before = await balance();
    const body = {
      company_id: company.id,
      account_id: company.account,
      beneficiary_id: 'BEN-1',
      transfer_type: 'external_transfer',
      amount: 1_700,
      reference: 'Crash 2D',
    };
    expect((await t.post('/api/generate-accounting-otp', body, admin2d)).status).toBe(200);
    const otp = t.lastMailTo('2d-admin@obol.example')!.code!;
    const r = await t.post('/api/accounting-transfer', { ...body, otp }, admin2d);
    expect(r.status, r.text).toBe(201);
    expect(r.body.transaction.status).toBe('PENDING');
    // paid once: the reserve taken once and never returned (twice or a reversal would show in the balance)
    after['2D transfer'] = async () => expect(await balance()).toBe(before - 1_700);
    return r.body.transaction.id as number;
  },
  async refund() {
    const p = await completedPayin(t, apiKey, 1_900);
    expect((await t.post('/api/generate-refund-code', { reference: p.providerId }, merchant)).status).toBe(200);
    const code = t.lastMailTo('merchant@obol.example')!.code!;
    expect((await t.post('/api/payin-refund', { reference: p.providerId, code }, merchant)).status).toBe(200);
    return (await t.deps.db.select().from(refunds).where(eq(refunds.payinId, p.id)))[0].id;
  },
  async reward() {
    const p = await completedPayin(t, apiKey, 2_500, { user_obol_id: '100000001', reward_amount: 250 });
    const [r] = await t.deps.db.select().from(payinRewards).where(eq(payinRewards.payinId, p.id));
    expect((await t.post('/api/payin-rewards', { id: r.id }, merchant)).status).toBe(200);
    return r.id;
  },
  async payin() {
    const id = await paidPayin(t, apiKey, 3_300);
    // its link has expired a minute ago: the recovery asks about it (before, the payer could still pay)
    const [p] = await t.deps.db
      .update(payins)
      .set({ expiresAt: new Date(Date.now() - 61_000) })
      .where(eq(payins.providerId, id))
      .returning();
    return p.id;
  },
};
const movements: Record<string, Movement<MovementRow>> = {
  payout: payoutMovement as unknown as Movement<MovementRow>,
  transfer: transferMovement as unknown as Movement<MovementRow>,
  '2D transfer': accountingMovement as unknown as Movement<MovementRow>,
  refund: refundMovement as unknown as Movement<MovementRow>,
  reward: rewardMovement as unknown as Movement<MovementRow>,
  payin: payinMovement as unknown as Movement<MovementRow>,
};
const died = new Error('the process died here');

describe('a process killed mid-movement', () => {
  for (const kind of Object.keys(make)) {
    it(`a ${kind} is settled exactly once after the restart, through the one recover path`, async () => {
      const m = movements[kind];
      const businessType = m.ledger?.businessType ?? m.kind;
      const entryKind = m.ledger?.entryKind ?? m.kind;
      const id = await make[kind]();
      const row = async () =>
        (await t.deps.db.select().from(m.table).where(eq(m.columns.id, id)))[0] as unknown as MovementRow;
      // 1. the provider took it, the process died before recording the provider's answer (a pay-in's link is made
      // by its command: the payer paid it, the provider's webhook was lost)
      const send = m.send;
      if (send) {
        const sendThenDie: Movement<MovementRow> = {
          ...m,
          send: async (deps, r) => {
            await send(deps, r);
            throw died;
          },
        };
        await expect(submitMovement(t.deps, sendThenDie, id)).rejects.toThrow(died);
        expect((await row()).providerId).toBeNull();
        for (let i = 0; i < 100 && provider.settleNow() < 1; i++) await new Promise((r) => setTimeout(r, 20));
      }
      // 2. after the restart, the sweep died in the middle of the settlement: its transaction rolled back
      const settleThenDie: Movement<MovementRow> = {
        ...m,
        alsoOnSettle: async (tx, r, state) => {
          await m.alsoOnSettle?.(tx, r, state);
          throw died;
        },
      };
      await expect(recoverMovements(t.deps, settleThenDie, 0)).rejects.toThrow(died);
      expect(await outboxPath(t.deps.db, m.kind, id)).toEqual([[null, 'in_flight']]);
      // 3. the next restart: two processes' sweeps at once settle it once, from the provider's answer
      const [a, b] = await Promise.all([recoverMovements(t.deps, m, 0), recoverMovements(t.deps, m, 0)]);
      expect(a.settled + b.settled).toBe(1);
      expect((await recoverMovements(t.deps, m, 0)).settled).toBe(0);
      const done = await row();
      expect(done.providerId).toBeTruthy();
      expect((done as unknown as Record<string, unknown>)[statusField(m)]).toBe('completed');
      expect(await outboxPath(t.deps.db, m.kind, id)).toEqual([
        [null, 'in_flight'],
        ['in_flight', 'completed'],
      ]);
      const entries = await t.deps.db
        .select({ kind: journalEntries.kind })
        .from(journalEntries)
        .where(and(eq(journalEntries.businessType, businessType), eq(journalEntries.businessId, String(id))));
      // money out was reserved when made; money in has only its completion
      expect(entries.map((e) => e.kind).sort()).toEqual(
        m.inbound ? [`${entryKind}.complete`] : [`${entryKind}.complete`, `${entryKind}.reserve`],
      );
      await after[kind]?.();
      const tb = (await t.post('/api/trial-balance', {}, admin)).body;
      expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
    });
  }
});
