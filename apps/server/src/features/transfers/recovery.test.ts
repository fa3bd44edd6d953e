import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from '../../../../provider/src/app.ts';
import { outboxPath } from '../../test/outbox.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { journalEntries } from '../ledger/tables.ts';
import { recoverMovements } from '../engine/recover.ts';
import { transferMovement } from './movement.ts';
import { transfers } from './tables.ts';

// No job worker runs here and webhooks go to a port nobody listens on: a transfer must still be sent, and
// settled exactly once, from what the provider answers when asked.
let t: TestAppWithProvider;
let provider: Provider;
let admin: string;

beforeAll(async () => {
  t = await startTestAppWithProvider({ env: { LOG_LEVEL: 'error' }, webhooks: 'lost', provider: { settleMs: 20 } });
  provider = t.provider;
  admin = await t.signIn('admin@obol.example');
});
afterAll(async () => {
  await t?.close();
});

async function transfer(iban: string, amount: number, accountId: string) {
  const body = { beneficiary_name: 'Acme Supplies', iban, bic: 'DEUTDEFF', amount, account_id: accountId, message: '' };
  expect((await t.post('/api/send-otp', body, admin)).status).toBe(200);
  const code = t.lastMailTo('admin@obol.example')!.code!;
  const r = await t.post('/api/amount-transfer', { ...body, code }, admin);
  expect(r.status, r.text).toBe(201);
  return r.body.transfer.id as number;
}
const balance = async (account_id: string) =>
  (await t.post('/api/account-balance', { account_id }, admin)).body.balance as number;
const rows = (ids: number[]) => t.deps.db.select().from(transfers).where(inArray(transfers.id, ids));

describe('transfers left Pending by a dead process and lost webhooks', () => {
  it('are sent, then settled from the provider’s answer, once', async () => {
    const merchant = await t.signIn('merchant@obol.example');
    const account = (await t.post('/api/login-user-account', {}, merchant)).body.payin_account_id as string;
    const before = await balance(account);
    const ok = await transfer('DE89370400440532013000', 1_200, account);
    const closed = await transfer('DE94370400440532010000', 800, account);
    expect(await balance(account)).toBe(before - 2_000);
    // never sent: the first recovery sends them (same keys), the provider settles, the next recovery settles here
    expect((await recoverMovements(t.deps, transferMovement, 0)).settled).toBe(0);
    expect((await rows([ok, closed])).every((r) => r.providerId)).toBe(true);
    for (let i = 0; i < 100 && provider.settleNow() < 2; i++) await new Promise((r) => setTimeout(r, 20));
    // two recoveries at once (as two processes would run them): each transfer settles once
    const [a, b] = await Promise.all([
      recoverMovements(t.deps, transferMovement, 0),
      recoverMovements(t.deps, transferMovement, 0),
    ]);
    expect(a.settled + b.settled).toBe(2);
    const [rOk, rClosed] = await rows([ok, closed]).then((rs) =>
      [ok, closed].map((id) => rs.find((r) => r.id === id)!),
    );
    expect(rOk.status).toBe('completed');
    expect(rClosed).toMatchObject({ status: 'failed', detail: 'Account closed' });
    expect(await balance(account)).toBe(before - 1_200);
    expect((await recoverMovements(t.deps, transferMovement, 0)).settled).toBe(0);
    // the outbox holds each change once, though two recoveries raced for it
    expect(await outboxPath(t.deps.db, 'transfer', ok)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'completed'],
    ]);
    expect(await outboxPath(t.deps.db, 'transfer', closed)).toEqual([
      [null, 'in_flight'],
      ['in_flight', 'failed'],
    ]);
    for (const [id, kinds] of [
      [ok, ['transfer.complete', 'transfer.reserve']],
      [closed, ['transfer.reserve', 'transfer.reversal']],
    ] as const) {
      const entries = await t.deps.db
        .select({ kind: journalEntries.kind })
        .from(journalEntries)
        .where(and(eq(journalEntries.businessType, 'transfer'), eq(journalEntries.businessId, String(id))));
      expect(entries.map((e) => e.kind).sort()).toEqual([...kinds]);
    }
    const tb = (await t.post('/api/trial-balance', {}, admin)).body;
    expect(tb.balanced && tb.balances_match_postings && tb.no_overdrawn_accounts).toBe(true);
  });
});
