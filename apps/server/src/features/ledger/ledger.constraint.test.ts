import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../platform/db.ts';
import { withTestDatabase } from '../../test/database.ts';
import { ensurePlatformAccounts } from './accounts.ts';
import { accounts, journalEntries, postings } from './tables.ts';

// The database itself refuses an entry that does not sum to zero, whatever code wrote it: a deferred
// constraint trigger checks every entry touched by a transaction when it commits.
let database: Database;
let a: number;
let b: number;
withTestDatabase(async (made) => {
  database = made;
  await ensurePlatformAccounts(database.db);
  const rows = await database.db
    .insert(accounts)
    .values(
      [1, 2].map((i) => ({
        accountId: `C-${randomUUID()}`,
        accountReference: 'test',
        kind: 'constraint_test',
        name: `test ${i}`,
        allowOverdraft: true,
      })),
    )
    .returning({ id: accounts.id });
  [a, b] = rows.map((r) => r.id);
});

async function entryWith(lines: number[]) {
  return database.db.transaction(async (tx) => {
    const [e] = await tx
      .insert(journalEntries)
      .values({ idempotencyKey: `c:${randomUUID()}`, requestHash: 'h', kind: 'test' })
      .returning({ id: journalEntries.id });
    if (lines.length)
      await tx.insert(postings).values(lines.map((amount, i) => ({ entryId: e.id, accountId: i % 2 ? b : a, amount })));
    return e.id;
  });
}
const count = async () =>
  Number(
    (
      (await database.db.execute(sql`SELECT count(*) AS n FROM journal_entries WHERE kind = 'test'`)) as unknown as {
        rows: { n: number | string }[];
      }
    ).rows[0].n,
  );

describe('a journal entry that does not sum to zero', () => {
  it('is refused at commit, and nothing of it stays', async () => {
    const before = await count();
    for (const lines of [[100, -99], [100], []]) {
      const err = await entryWith(lines).then(
        () => null,
        (e: unknown) => e,
      );
      expect(`${String(err)} ${String((err as { cause?: unknown })?.cause)}`).toMatch(/does not balance/);
    }
    expect(await count()).toBe(before);
  });

  it('while a balanced one commits', async () => {
    const before = await count();
    await entryWith([250, -100, -150]);
    expect(await count()).toBe(before + 1);
  });
});

// The owner's foreign key is declared in SQL only, so that the ledger imports no feature (decisions/039).
describe("an account's owner", () => {
  it('must be a user: the database refuses any other', async () => {
    const err = await database.db
      .insert(accounts)
      .values({
        accountId: `C-${randomUUID()}`,
        accountReference: 'test',
        kind: 'constraint_test',
        name: 'x',
        ownerId: -1,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(`${String(err)} ${String((err as { cause?: unknown })?.cause)}`).toMatch(/accounts_owner_id_users_id_fk/);
  });
});
