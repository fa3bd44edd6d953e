import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../platform/db.ts';

/** Every account's balance summed, its credit shards included: 0 while the ledger balances. */
export async function ledgerTotal(db: Executor): Promise<number> {
  const [{ total }] = rowsOf<{ total: number | string }>(
    await db.execute(sql`SELECT (SELECT sum(balance) FROM accounts)
      + (SELECT coalesce(sum(amount), 0) FROM account_credit_shards) AS total`),
  );
  return Number(total);
}
