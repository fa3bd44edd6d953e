import type { ChainBreak, VerifyLogsResponse } from '@obol/contract';
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../platform/db.ts';
import { yieldToRequests } from '../../platform/turns.ts';

/** The prev_hash of the first record. */
export const GENESIS = '0'.repeat(64);

/** Records read per query: each query stays short, since PGlite runs on the server's event loop. */
export const VERIFY_CHUNK = 1000;

export type ChainCheck = Omit<VerifyLogsResponse, 'message'>;

const int = (v: unknown) => Number(v);

/** The chain's head: the last record's seq and hash. */
export async function chainHead(db: Executor): Promise<{ seq: number; hash: string } | null> {
  const [head] = rowsOf<{ seq: unknown; hash: string }>(
    await db.execute(sql`SELECT seq, hash FROM activity_log_chain WHERE id = 1`),
  );
  return head ? { seq: int(head.seq), hash: head.hash } : null;
}

/**
 * Walks the chain from seq 1 up to the head read at the start (records appended meanwhile are the next check's),
 * a chunk per query, and stops at the first break:
 * - a seq that is not the one after the previous record: that record was deleted ('missing');
 * - a record whose fields no longer give its hash ('edited'), or whose hash is not the one the next record
 *   (or, for the last one, the head) holds as prev_hash: rewritten with a fresh hash ('edited');
 * - fewer records than the head counts: the tail was deleted ('truncated').
 * The database computes each record's hash with the same function its insert trigger uses (activity_log_digest).
 */
export async function verifyChain(db: Executor, chunk = VERIFY_CHUNK): Promise<ChainCheck> {
  const head = await chainHead(db);
  if (!head) return { intact: false, checked: 0, head: null, first_break: { seq: 1, reason: 'head-missing' } };
  const broken = (checked: number, seq: number, reason: ChainBreak): ChainCheck => ({
    intact: false,
    checked,
    head,
    first_break: { seq, reason },
  });
  let last = 0;
  let lastHash = GENESIS;
  let checked = 0;
  while (last < head.seq) {
    const rows = rowsOf<{ seq: unknown; prev_hash: string; hash: string; computed: string }>(
      await db.execute(sql`
        SELECT a.seq, a.prev_hash, a.hash, activity_log_digest(a) AS computed
        FROM activity_log a
        WHERE a.seq > ${last} AND a.seq <= ${head.seq}
        ORDER BY a.seq
        LIMIT ${chunk}`),
    );
    if (!rows.length) break;
    for (const r of rows) {
      const seq = int(r.seq);
      if (seq !== last + 1) return broken(checked, last + 1, 'missing');
      if (r.computed !== r.hash) return broken(checked, seq, 'edited');
      // this record is whole but vouches for another hash: the previous one was rewritten with a fresh hash
      if (r.prev_hash !== lastHash) return broken(checked, last, 'edited');
      checked++;
      last = seq;
      lastHash = r.hash;
    }
    // let other requests in between chunks
    await yieldToRequests();
  }
  if (last < head.seq) return broken(checked, last + 1, 'truncated');
  if (lastHash !== head.hash) return broken(checked, last, 'edited');
  return { intact: true, checked, head };
}
