import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../platform/db.ts';

// Migration 0024 gives rows staged before it ids in their batch's range (batches.seq * 10^8 + their place), in the
// order review showed them (row number, then id). Run here on a database migrated up to 0023 holding such rows.

const statementsOf = (file: string) =>
  readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create({ extensions: { pg_trgm } });
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort();
  for (const f of files.filter((f) => f < '0024')) for (const s of statementsOf(f)) await db.exec(s);
}, 60_000);
afterAll(async () => {
  await db?.close();
});

describe('migration 0024: staged ids in their batch range', () => {
  it("numbers the rows staged before it in their batch's range, in review's order, holds new ones to it, and drops the row index", async () => {
    await db.exec(`SET session_replication_role = replica`); // no users or accounts needed for these rows
    await db.exec(`INSERT INTO batches
      (batch_id, merchant_id, behalf_of_id, account_id, uploaded_by, payout_type, file_name, status) VALUES
      ('BA', 1, 1, 1, 1, 'Batch Payout', 'a.csv', 'Pending'), ('BB', 1, 1, 1, 1, 'Batch Payout', 'b.csv', 'Pending')`);
    // ids of the old sequence, interleaved between the batches, one row number twice
    // (an edge the old order broke by id)
    await db.exec(`INSERT INTO staged_transactions (batch_id, row_number, status) VALUES
      ('BA', 4, 'Pending'), ('BB', 2, 'Pending'), ('BA', 2, 'Failed'),
      ('BA', 3, 'Pending'), ('BA', 3, 'Failed'), ('BB', 7, 'Pending')`);
    const before = (
      await db.query<{ id: number; batch_id: string; row_number: number; status: string }>(
        `SELECT id::int, batch_id, row_number, status FROM staged_transactions ORDER BY batch_id, row_number, id`,
      )
    ).rows;
    await db.exec(`SET session_replication_role = DEFAULT`);

    for (const s of statementsOf('0024_staged_ids_in_batch_ranges.sql')) await db.exec(s);

    const seqs = Object.fromEntries(
      (await db.query<{ batch_id: string; seq: number }>(`SELECT batch_id, seq::int FROM batches`)).rows.map((r) => [
        r.batch_id,
        r.seq,
      ]),
    );
    expect(Object.values(seqs).sort()).toEqual([1, 2]);
    const after = (
      await db.query<{ id: string; batch_id: string; row_number: number; status: string }>(
        `SELECT id::text, batch_id, row_number, status FROM staged_transactions ORDER BY id`,
      )
    ).rows;
    // every row kept, each batch's rows a run of its range in the order review read them
    const expected = ['BA', 'BB'].flatMap((b) =>
      before
        .filter((r) => r.batch_id === b)
        .map((r, i) => ({
          id: String(seqs[b] * 100_000_000 + i + 1),
          batch_id: b,
          row_number: r.row_number,
          status: r.status,
        })),
    );
    expect(after).toEqual(expected.sort((x, y) => Number(x.id) - Number(y.id)));
    const indexes = (
      await db.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'staged_transactions' ORDER BY indexname`,
      )
    ).rows.map((r) => r.indexname);
    expect(indexes).toEqual(['staged_batch_mtid_idx', 'staged_transactions_pkey']);
    // a row is held to its batch's range: in another batch's range, or in none, it is refused; in its own it goes in
    const bb = seqs.BB * 100_000_000;
    await expect(
      db.exec(
        `INSERT INTO staged_transactions (id, batch_id, row_number, status) VALUES (${bb + 9}, 'BA', 9, 'Pending')`,
      ),
    ).rejects.toThrow(/outside its range of ids/);
    await expect(db.exec(`UPDATE staged_transactions SET batch_id = 'BA' WHERE id = ${bb + 1}`)).rejects.toThrow(
      /outside its range of ids/,
    );
    await db.exec(
      `INSERT INTO staged_transactions (id, batch_id, row_number, status) VALUES (${bb + 9}, 'BB', 9, 'Pending')`,
    );
    // no sequence left behind: an id is always given
    await expect(
      db.exec(`INSERT INTO staged_transactions (batch_id, row_number, status) VALUES ('BA', 9, 'Pending')`),
    ).rejects.toThrow(/null value in column "id"/);
  });
});
