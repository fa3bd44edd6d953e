import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { engine, type TestApp } from '../../test/harness.ts';
import { outboxPath, startOutboxApp, uid } from '../../test/outbox.ts';
import { eventsAfter } from './events.ts';

// The outbox is written by the database in the transaction of each status change (migration 0026): here every
// kind's table is changed by hand, so whatever code changes a status, it is recorded once, and never when the
// change rolls back.
let t: TestApp;
let merchant: number;
let brand: number;
let account: number;
let code: string;

beforeAll(async () => {
  ({ t, merchant, brand, account, code } = await startOutboxApp());
});
afterAll(async () => {
  await t?.close();
});

const idOf = async (tx: Executor, q: ReturnType<typeof sql>) =>
  String(rowsOf<{ id: string | number }>(await tx.execute(q))[0].id);

/** Each kind: create a row of it, then move it on (in_flight -> completed; a batch in its own words); its id. */
const kinds: Record<string, (tx: Executor) => Promise<string>> = {
  payout: async (tx) => {
    const id = await idOf(
      tx,
      sql`INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, merchant_transaction_id,
            beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, idempotency_key)
          VALUES (${merchant}, ${brand}, ${account}, ${merchant}, ${uid()}, 'Ana', 'b', '100000001', 'r', 500, 0, 0,
            ${uid()}) RETURNING id`,
    );
    await tx.execute(sql`UPDATE payouts SET provider_id = 'p' WHERE id = ${id}`);
    await tx.execute(sql`UPDATE payouts SET status = 'completed' WHERE id = ${id} AND status = 'in_flight'`);
    return id;
  },
  batch: async (tx) => {
    const id = `B-${uid()}`;
    await tx.execute(sql`INSERT INTO batches (batch_id, merchant_id, behalf_of_id, account_id, uploaded_by,
        payout_type, file_name, status) VALUES (${id}, ${merchant}, ${brand}, ${account}, ${merchant}, 'Batch Payout',
        'f.csv', 'Processing')`);
    await tx.execute(sql`UPDATE batches SET processed_rows = 5 WHERE batch_id = ${id}`);
    await tx.execute(sql`UPDATE batches SET status = 'Completed', amount = 900 WHERE batch_id = ${id}`);
    return id;
  },
  transfer: async (tx) => {
    const id = await idOf(
      tx,
      sql`INSERT INTO transfers (merchant_id, holder_id, account_id, account_kind, account_code, holder_name,
            created_by, created_by_name, beneficiary_name, iban, bic, amount, idempotency_key)
          VALUES (${merchant}, ${brand}, ${account}, 'payin', ${code}, 'M', ${merchant}, 'M', 'Ana',
            'DE89370400440532013000', 'DEUTDEFF', 700, ${uid()}) RETURNING id`,
    );
    await tx.execute(sql`UPDATE transfers SET status = 'completed' WHERE id = ${id}`);
    return id;
  },
  payin: async (tx) => {
    const id = await payin(tx);
    await tx.execute(sql`UPDATE payins SET status = 'completed', refund_status = 3 WHERE id = ${id}`);
    return id;
  },
  refund: async (tx) => {
    const p = await payin(tx);
    const id = await idOf(
      tx,
      sql`INSERT INTO refunds (payin_id, merchant_id, holder_id, account_id, amount, idempotency_key, created_by)
          VALUES (${p}, ${merchant}, ${brand}, ${account}, 300, ${uid()}, ${merchant}) RETURNING id`,
    );
    await tx.execute(sql`UPDATE refunds SET status = 'completed' WHERE id = ${id}`);
    return id;
  },
  reward: async (tx) => {
    const p = await payin(tx);
    const id = await idOf(
      tx,
      sql`INSERT INTO payin_rewards (payin_id, merchant_id, holder_id, account_id, wallet_id, brand, beneficiary_name,
            amount) VALUES (${p}, ${merchant}, ${brand}, ${account}, '100000001', 'b', 'Ana', 300) RETURNING id`,
    );
    await tx.execute(sql`UPDATE payin_rewards SET status = 'Rewarded', payout_status = 'in_flight' WHERE id = ${id}`);
    await tx.execute(sql`UPDATE payin_rewards SET payout_status = 'completed' WHERE id = ${id}`);
    return id;
  },
  '2d': async (tx) => {
    const company = await idOf(
      tx,
      sql`INSERT INTO companies (name, email, api_key_enc, api_key_hash) VALUES ('C', 'c@x.example', 'e', ${uid()})
          RETURNING id`,
    );
    const source = await idOf(
      tx,
      sql`INSERT INTO company_accounts (company_id, provider_account_id, name, iban, bic, ledger_account_id)
          VALUES (${company}, 'a', 'A', 'DE89370400440532013000', 'DEUTDEFF',
            (SELECT min(a.id) FROM accounts a WHERE a.id NOT IN (SELECT ledger_account_id FROM company_accounts)))
          RETURNING id`,
    );
    const id = await idOf(
      tx,
      sql`INSERT INTO accounting_transactions (company_id, company_name, rule_type, source_account_id, account_code,
            transfer_type, beneficiary_name, iban, bic, amount, transfer_by, status, idempotency_key)
          VALUES (${company}, 'C', 'Manual', ${source}, 'CMP1', 'external_transfer', 'Ana', 'DE89370400440532013000',
            'DEUTDEFF', 400, 'x', 'in_flight', ${uid()}) RETURNING id`,
    );
    await tx.execute(sql`UPDATE accounting_transactions SET status = 'completed' WHERE id = ${id}`);
    return id;
  },
};

const payin = (tx: Executor) =>
  idOf(
    tx,
    sql`INSERT INTO payins (merchant_id, holder_id, account_id, account_code, merchant_name, reference, amount,
          first_name, last_name, date_of_birth, idempotency_key, provider_id, url, expires_at)
        VALUES (${merchant}, ${brand}, ${account}, ${code}, 'M', ${uid()}, 300, 'Ana', 'N', '1990-01-01', ${uid()},
          ${uid()}, 'http://x.example', now() + interval '1 hour') RETURNING id`,
  );

const expected: Record<string, (string | null)[][]> = {
  payout: [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
  batch: [
    [null, 'Processing'],
    ['Processing', 'Completed'],
  ],
  transfer: [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
  payin: [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
  refund: [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
  reward: [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
  '2d': [
    [null, 'in_flight'],
    ['in_flight', 'completed'],
  ],
};

describe('the outbox', () => {
  for (const kind of Object.keys(kinds)) {
    it(`records each status change of a ${kind} once, in its transaction, and nothing of a rolled-back one`, async () => {
      const id = await t.deps.db.transaction(async (tx) => {
        const made = await kinds[kind](tx);
        // inside the transaction it is there already: it was written by the change itself
        expect(await outboxPath(tx, kind, made)).toEqual(expected[kind]);
        return made;
      });
      expect(await outboxPath(t.deps.db, kind, id)).toEqual(expected[kind]);
      const events = await eventsAfter(t.deps.db, 0, { kind: 'all' }, 100_000);
      const mine = events.filter((e) => e.kind === kind && e.objectId === id);
      expect(mine.map((e) => e.amount)).toEqual([expect.any(Number), expect.any(Number)]);
      if (kind !== '2d') expect(mine.every((e) => e.merchantId === merchant)).toBe(true);

      let rolledBack = '';
      await expect(
        t.deps.db.transaction(async (tx) => {
          rolledBack = await kinds[kind](tx);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await outboxPath(t.deps.db, kind, rolledBack)).toEqual([]);
    });
  }

  /**
   * The events after `last` once at least `n` are readable: the reader holds back events while any older
   * transaction is open, and on PostgreSQL that horizon is the server's (other test files' transactions too).
   */
  /** Every event written so far, once all are readable (none held back by an open transaction anywhere). */
  const allEvents = async () => {
    for (let i = 0; ; i++) {
      const events = await eventsAfter(t.deps.db, 0, { kind: 'all' }, 100_000);
      const [{ n }] = rowsOf<{ n: number }>(await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM money_events`));
      if (events.length === n || i >= 200) return events;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const eventsOnceReadable = async (last: number, n: number) => {
    let events = await eventsAfter(t.deps.db, last, { kind: 'all' });
    for (let i = 0; i < 200 && events.length < n; i++) {
      await new Promise((r) => setTimeout(r, 50));
      events = await eventsAfter(t.deps.db, last, { kind: 'all' });
    }
    return events;
  };

  it('reads on after an event, in scope: a merchant sees its own, a brand its own, staff everything', async () => {
    const all = await allEvents();
    expect(all.length).toBeGreaterThan(0);
    const last = all[all.length - 1].id;
    const id = await t.deps.db.transaction((tx) => kinds.transfer(tx));
    const next = await eventsOnceReadable(last, 2);
    expect(next.map((e) => [e.kind, e.objectId, e.from, e.to])).toEqual([
      ['transfer', id, null, 'Pending'],
      ['transfer', id, 'Pending', 'Completed'],
    ]);
    expect(await eventsAfter(t.deps.db, last, { kind: 'merchant', merchantId: merchant })).toHaveLength(2);
    expect(await eventsAfter(t.deps.db, last, { kind: 'brand', merchantId: merchant, brandId: brand })).toHaveLength(2);
    expect(await eventsAfter(t.deps.db, last, { kind: 'merchant', merchantId: merchant + 1_000 })).toHaveLength(0);
    expect(await eventsAfter(t.deps.db, last, { kind: 'none' })).toHaveLength(0);
    expect(await eventsAfter(t.deps.db, next[1].id, { kind: 'all' })).toHaveLength(0);
  });

  // two connections at once: PostgreSQL only (PGlite is one connection)
  it.skipIf(engine !== 'postgres')(
    'never passes an event whose transaction is still open, though a later one committed first',
    async () => {
      const all = await allEvents();
      const last = all[all.length - 1].id;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let wrote!: () => void;
      const written = new Promise<void>((r) => (wrote = r));
      // the first transaction writes its events (the smaller ids) and stays open
      const first = t.deps.db.transaction(async (tx) => {
        const id = await kinds.transfer(tx);
        wrote();
        await held;
        return id;
      });
      await written;
      const second = await t.deps.db.transaction((tx) => kinds.refund(tx));
      // the second committed, but a reader that took it now and read on after it would never see the first's
      expect(await eventsAfter(t.deps.db, last, { kind: 'all' })).toEqual([]);
      release();
      const firstId = await first;
      const next = await eventsOnceReadable(last, 5);
      expect(next.map((e) => [e.kind, e.objectId])).toEqual([
        ['transfer', firstId],
        ['transfer', firstId],
        ['payin', expect.any(String)],
        ['refund', second],
        ['refund', second],
      ]);
    },
  );
});
