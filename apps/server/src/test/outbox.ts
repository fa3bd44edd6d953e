import { and, asc, eq, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../platform/db.ts';
import { moneyEvents } from '../features/engine/tables.ts';
import { startTestApp, type TestApp } from './harness.ts';

/** The outbox's record of one movement: its status changes in order, `[from, to]`. */
export async function outboxPath(db: Executor, kind: string, objectId: number | string) {
  const rows = await db
    .select({ from: moneyEvents.fromStatus, to: moneyEvents.toStatus })
    .from(moneyEvents)
    .where(and(eq(moneyEvents.kind, kind), eq(moneyEvents.objectId, String(objectId))))
    .orderBy(asc(moneyEvents.id));
  return rows.map((r) => [r.from, r.to]);
}

/** Whose rows the outbox tests write by hand: the demo merchant, its brand, and its pay-in account (id and code). */
export interface HandRows {
  merchant: number;
  brand: number;
  account: number;
  code: string;
}

/** A test app for the outbox's tests, and the ids they write their rows with. */
export async function startOutboxApp(): Promise<{ t: TestApp } & HandRows> {
  const t = await startTestApp({ LOG_LEVEL: 'error' });
  const one = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.deps.db.execute(q))[0];
  const merchant = Number((await one(sql`SELECT id FROM users WHERE email = 'merchant@obol.example'`)).id);
  const brand = Number((await one(sql`SELECT id FROM users WHERE email = 'brand@obol.example'`)).id);
  const a = await one(sql`SELECT id, account_id FROM accounts WHERE owner_id = ${merchant} AND kind = 'payin'`);
  return { t, merchant, brand, account: Number(a.id), code: String(a.account_id) };
}

/** A key no other test run has used. */
export const uid = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A transfer created in flight and settled completed, by hand in `tx`: two outbox events. Answers its id. */
export async function transferByHand(tx: Executor, on: HandRows): Promise<string> {
  const [row] = rowsOf<{ id: string | number }>(
    await tx.execute(sql`INSERT INTO transfers (merchant_id, holder_id, account_id, account_kind, account_code,
        holder_name, created_by, created_by_name, beneficiary_name, iban, bic, amount, idempotency_key)
      VALUES (${on.merchant}, ${on.merchant}, ${on.account}, 'payin', ${on.code}, 'M', ${on.merchant}, 'M', 'Ana',
        'DE89370400440532013000', 'DEUTDEFF', 700, ${uid()}) RETURNING id`),
  );
  await tx.execute(sql`UPDATE transfers SET status = 'completed' WHERE id = ${row.id}`);
  return String(row.id);
}
