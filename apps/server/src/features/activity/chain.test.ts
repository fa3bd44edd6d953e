import { verifyMessage, type VerifyLogsResponse } from '@obol/contract';
import { asc, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, startTestApp, type TestApp } from '../../test/harness.ts';
import { rowsOf } from '../../platform/db.ts';
import { GENESIS, verifyChain } from './chain.ts';
import { activityLog, activityLogChain } from '../../platform/tables.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await t.signIn('admin@obol.example');
  for (const who of ['manager', 'finance', 'merchant', 'brand', 'reviewer']) await t.signIn(`${who}@obol.example`);
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.deps.db;
const verify = async () => {
  const r = await t.post('/api/verify-logs', {}, admin);
  expect(r.status).toBe(200);
  return r.body as VerifyLogsResponse;
};
const records = () => db().select().from(activityLog).orderBy(asc(activityLog.seq));
const head = async () => (await db().select().from(activityLogChain))[0];

/**
 * Runs `fn` with the log's triggers off (append-only and chaining), as someone with the database's keys could,
 * after saving the log; putBack() restores it exactly (in SQL: a JS Date would drop the microseconds).
 */
async function tamper(fn: () => Promise<unknown>) {
  await db().execute(sql`DROP TABLE IF EXISTS activity_log_saved`);
  await db().execute(sql`CREATE TABLE activity_log_saved AS SELECT * FROM activity_log`);
  saved = await head();
  await triggersOff(fn);
}
async function triggersOff(fn: () => Promise<unknown>) {
  await db().execute(sql`ALTER TABLE activity_log DISABLE TRIGGER USER`);
  try {
    await fn();
  } finally {
    await db().execute(sql`ALTER TABLE activity_log ENABLE TRIGGER USER`);
  }
}
let saved: typeof activityLogChain.$inferSelect;
async function putBack() {
  await triggersOff(async () => {
    await db().execute(sql`DELETE FROM activity_log`);
    await db().execute(sql`INSERT INTO activity_log SELECT * FROM activity_log_saved`);
    // the head, moved by what was recorded meanwhile (the verifications)
    await db().execute(sql`ALTER TABLE activity_log_chain DISABLE TRIGGER USER`);
    try {
      await db().update(activityLogChain).set({ seq: saved.seq, hash: saved.hash });
    } finally {
      await db().execute(sql`ALTER TABLE activity_log_chain ENABLE TRIGGER USER`);
    }
  });
  await db().execute(sql`DROP TABLE activity_log_saved`);
}

describe('the hash chain', () => {
  it('links every record to the one before it, from 64 zeros, and the head holds the last', async () => {
    const rows = await records();
    expect(rows.length).toBeGreaterThan(10);
    rows.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      expect(r.prevHash).toBe(i === 0 ? GENESIS : rows[i - 1].hash);
      expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    });
    expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    expect(await head()).toMatchObject({ seq: rows.length, hash: rows[rows.length - 1].hash });
  });

  it('ignores the seq, prev_hash and hash an insert sends', async () => {
    const before = await head();
    const [row] = await db()
      .insert(activityLog)
      .values({ action: 'auth.logout', outcome: 'success', statusCode: 200, seq: 1, prevHash: 'x', hash: 'y' })
      .returning();
    expect(row).toMatchObject({ seq: before.seq + 1, prevHash: before.hash });
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies an intact log, and is itself recorded (after the check) with the result', async () => {
    const total = (await db().select({ n: count() }).from(activityLog))[0].n;
    const r = await t.post('/api/verify-logs', {}, admin);
    expect(r.status).toBe(200);
    const h = await head();
    expect(r.body).toEqual({
      message: [`The activity log is intact: ${total} records checked`],
      intact: true,
      checked: total,
      head: { seq: total, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const [rec] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.requestId, String(r.headers['x-request-id'])));
    expect(rec).toMatchObject({
      action: 'activity.verify',
      outcome: 'success',
      seq: total + 1,
      targetType: 'activity_log',
    });
    expect(rec.after).toMatchObject({ intact: true, checked: total });
    expect(h.seq).toBe(total + 1);
    // in small chunks the walk gives the same
    expect(await verifyChain(db(), 3)).toMatchObject({ intact: true, checked: total + 1 });
  });

  it('detects an edited record (its fields no longer give its hash), and is intact again once it is put back', async () => {
    const rows = await records();
    const victim = rows[4];
    await tamper(() => db().update(activityLog).set({ outcome: 'failure' }).where(eq(activityLog.id, victim.id)));
    const r = await verify();
    expect(r).toMatchObject({ intact: false, checked: 4, first_break: { seq: victim.seq, reason: 'edited' } });
    expect(r.message).toEqual([verifyMessage(r)]);
    expect(r.message[0]).toBe(`The activity log is broken at record ${victim.seq}: a record was changed`);
    // the same with a small chunk, where the break is in a later chunk
    expect(await verifyChain(db(), 2)).toMatchObject({ first_break: { seq: victim.seq, reason: 'edited' } });
    await putBack();
    expect((await verify()).intact).toBe(true);
  });

  it('detects an edited record given a fresh hash: the next record vouches for the old one', async () => {
    const rows = await records();
    const victim = rows[6];
    await tamper(async () => {
      await db().update(activityLog).set({ ip: '6.6.6.6' }).where(eq(activityLog.id, victim.id));
      await db().execute(sql`UPDATE activity_log a SET hash = activity_log_digest(a) WHERE id = ${victim.id}`);
    });
    expect(await verify()).toMatchObject({ intact: false, first_break: { seq: victim.seq, reason: 'edited' } });
    await putBack();
    expect((await verify()).intact).toBe(true);
  });

  it('detects the last record edited and given a fresh hash: the head holds the old one', async () => {
    const rows = await records();
    const last = rows[rows.length - 1];
    await tamper(async () => {
      await db().update(activityLog).set({ detail: 'nothing to see' }).where(eq(activityLog.id, last.id));
      await db().execute(sql`UPDATE activity_log a SET hash = activity_log_digest(a) WHERE id = ${last.id}`);
    });
    expect(await verifyChain(db())).toMatchObject({ intact: false, first_break: { seq: last.seq, reason: 'edited' } });
    await putBack();
    expect((await verifyChain(db())).intact).toBe(true);
  });

  it('detects a deleted record (a gap in seq)', async () => {
    const rows = await records();
    const victim = rows[2];
    await tamper(() => db().delete(activityLog).where(eq(activityLog.id, victim.id)));
    const r = await verify();
    expect(r).toMatchObject({ intact: false, checked: 2, first_break: { seq: victim.seq, reason: 'missing' } });
    expect(r.message[0]).toBe(`The activity log is broken at record ${victim.seq}: a record was deleted`);
    await putBack();
    expect((await verify()).intact).toBe(true);
  });

  it('detects a deleted record whose followers were renumbered to close the gap', async () => {
    const rows = await records();
    const victim = rows[3];
    await tamper(async () => {
      await db().delete(activityLog).where(eq(activityLog.id, victim.id));
      await db().execute(sql`UPDATE activity_log SET seq = -seq WHERE seq > ${victim.seq}`);
      await db().execute(sql`UPDATE activity_log SET seq = -seq - 1 WHERE seq < 0`);
    });
    expect(await verifyChain(db())).toMatchObject({
      intact: false,
      first_break: { seq: victim.seq, reason: 'edited' },
    });
    await putBack();
    expect((await verifyChain(db())).intact).toBe(true);
  });

  it('detects a truncated tail (the head counts more records than there are)', async () => {
    const rows = await records();
    const tail = rows.slice(-2);
    await tamper(async () => {
      for (const r of tail) await db().delete(activityLog).where(eq(activityLog.id, r.id));
    });
    const r = await verifyChain(db());
    expect(r).toMatchObject({
      intact: false,
      checked: rows.length - 2,
      first_break: { seq: tail[0].seq, reason: 'truncated' },
    });
    expect(verifyMessage(r)).toBe(
      `The activity log is broken at record ${tail[0].seq}: records were deleted from the end`,
    );
    await putBack();
    expect((await verifyChain(db())).intact).toBe(true);
  });

  it('keeps the head from being moved, deleted or truncated, and the log from being truncated', async () => {
    const before = await head();
    await expect(db().update(activityLogChain).set({ seq: 1 })).rejects.toThrow();
    await expect(db().delete(activityLogChain)).rejects.toThrow();
    await expect(db().execute(sql`TRUNCATE activity_log_chain`)).rejects.toThrow();
    await expect(db().execute(sql`TRUNCATE activity_log`)).rejects.toThrow();
    expect(await head()).toEqual(before);
    expect((await verifyChain(db())).intact).toBe(true);
  });

  it('a rolled back transaction gives its seq back: no gap', async () => {
    const before = await head();
    await expect(
      db().transaction(async (tx) => {
        await tx.insert(activityLog).values({ action: 'auth.logout', outcome: 'success', statusCode: 200 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await head()).toEqual(before);
    expect((await verifyChain(db())).intact).toBe(true);
  });

  it('chains many audited requests at once, in one line, on any number of connections', async () => {
    const before = await head();
    const tokens = await Promise.all(['manager', 'finance', 'merchant'].map((w) => t.signIn(`${w}@obol.example`)));
    const requests = Array.from({ length: 60 }, (_, i) => {
      const token = tokens[i % tokens.length];
      // audited successes (a verification) and recorded refusals (Finance may not list users), interleaved
      return i % 2 ? t.post('/api/users', {}, tokens[1]) : t.post('/api/verify-logs', {}, token);
    });
    const answers = await Promise.all(requests);
    expect(answers.every((a) => a.status === 200 || a.status === 403)).toBe(true);
    const after = await head();
    expect(after.seq).toBeGreaterThanOrEqual(before.seq + 60 + 6);
    const check = await verifyChain(db());
    expect(check).toMatchObject({ intact: true });
    expect(check.checked).toBe(after.seq);
    if (engine === 'postgres') {
      // many connections inserting at once, each in its own transaction, straight into the table
      const inserted = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          db().transaction(async (tx) => {
            await tx
              .insert(activityLog)
              .values({ action: 'load.test', outcome: 'success', statusCode: 200, detail: String(i) });
            await tx.execute(sql`SELECT pg_sleep(0.001)`);
          }),
        ),
      );
      expect(inserted).toHaveLength(100);
      const seqs = rowsOf<{ seq: number }>(
        await db().execute(sql`SELECT seq FROM activity_log WHERE action = 'load.test'`),
      );
      expect(new Set(seqs.map((s) => Number(s.seq))).size).toBe(100);
      expect(await verifyChain(db())).toMatchObject({ intact: true, checked: (await head()).seq });
    }
  });
});
