import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PAYMENT_MSG } from '@obol/contract';
import { and, eq, inArray, isNull, sql, type Placeholder } from 'drizzle-orm';
import { from as copyFrom } from 'pg-copy-streams';
import type { Deps } from '../../platform/deps.ts';
import { pgDialect, type Database, type Executor } from '../../platform/db.ts';
import { preparedStatement, sqlLiteral, type InTransaction } from '../../platform/statements.ts';
import { randomToken } from '../../platform/crypto.ts';
import { brandNamesOf, findHolderInScope } from '../merchants/holders.ts';
import { paidMtids } from '../payouts/find.ts';
import { FileRefused, type FileFormat } from './parse.ts';
import { COPY_COLUMNS, markDuplicates, stagingReader, type ChunkReader, type ChunkText } from './stage-reader.ts';
import { uploadKey, type BatchRow } from './service.ts';
import { batches, stagedTransactions } from './tables.ts';
import { yieldToRequests } from '../../platform/turns.ts';

/**
 * The merchant transaction ids among `mtids` that are taken: by a payout of the merchant, or by an executable
 * row of another of its batches still awaiting execution. Advisory (it marks rows for the reviewer): the
 * database's unique index on payouts is what keeps an id from being paid twice, whatever raced past this.
 */
export async function takenMtids(db: Executor, merchantId: number, batchId: string, mtids: string[]) {
  if (!mtids.length) return new Set<string>();
  const paid = await paidMtids(db, merchantId, mtids);
  const staged = await db
    .select({ m: stagedTransactions.merchantTransactionId })
    .from(stagedTransactions)
    .where(
      and(
        // among the few ids of its open batches: staged_batch_mtid_idx (batch_id, merchant_transaction_id)
        sql`${stagedTransactions.batchId} = ANY(ARRAY(${openBatchesOf(merchantId, batchId)}))`,
        inArray(stagedTransactions.merchantTransactionId, mtids),
        eq(stagedTransactions.status, 'Pending'),
      ),
    );
  return new Set([...paid, ...staged.map((r) => r.m)]);
}

/** The ids of the merchant's other batches awaiting execution (staged, or being staged). */
const openBatchesOf = (merchantId: number | Placeholder, batchId: string | Placeholder) => sql`
  SELECT o.batch_id FROM batches o
  WHERE o.merchant_id = ${merchantId} AND o.batch_id <> ${batchId}
    AND (o.status = 'Pending' OR (o.status = 'Processing' AND o.executed_at IS NULL))`;

/**
 * Rows staged a statement at a time: big enough to be quick, small enough to keep each statement short. PGlite
 * runs a statement on the event loop, so there a chunk is what other requests may wait for; PostgreSQL runs it
 * in its own process while the next chunk is read.
 */
export const STAGE_ROWS = { pglite: 1000, postgres: 5000 };

/** A database refusal of a value itself (SQLSTATE class 22, data exception): the file, not the server, is at fault. */
const isDataError = (err: unknown) => /^22/.test(String((err as { code?: unknown })?.code ?? ''));

/**
 * The staging job: copies the upload from the file store (any process may run it), streams it, validates
 * every row and writes it in chunks, updating the progress as it goes. Safe to run again: it starts the
 * batch's rows afresh. A file that cannot be read declines the batch with the reason, and the file goes.
 */
export async function stageBatch(deps: Deps, batchId: string): Promise<void> {
  const [b] = await deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b || b.status !== 'Processing' || b.executedAt) return;
  // the reader's thread starts now, and loads its code while the file is readied
  const reader = stagingReader();
  try {
    await stageWith(deps, b, reader);
  } finally {
    await reader.stop();
  }
}

async function stageWith(deps: Deps, b: BatchRow, reader: ChunkReader) {
  const { batchId } = b;
  const format = (b.fileFormat ?? 'csv') as FileFormat;
  const key = uploadKey(batchId, format);
  const holder = await findHolderInScope(deps.db, { kind: 'all' }, b.behalfOfId);
  const brands = await brandNamesOf(deps.db, b.merchantId, holder ?? null);
  const work = path.join(deps.config.dataDir, 'staging');
  await mkdir(work, { recursive: true });
  const local = path.join(work, `${batchId}-${randomToken(6)}.${format}`);
  try {
    try {
      await pipeline(await deps.files.open(key), createWriteStream(local));
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT' || (err as { name?: string }).name === 'NoSuchKey')
        throw new FileRefused('The uploaded file is no longer available; upload it again');
      throw err;
    }
    await deps.db.delete(stagedTransactions).where(eq(stagedTransactions.batchId, batchId));
    await deps.db.update(batches).set({ processedRows: 0 }).where(eq(batches.batchId, batchId));
    let processed = 0;
    // The file is read and checked on a thread of its own, a chunk or two ahead (stage-reader.ts). On PostgreSQL
    // the next chunk is also looked up and copied while the database writes this one; PGlite writes on our own thread,
    // so there each chunk is written before the next.
    const overlap = deps.database.kind === 'postgres';
    let writing: Promise<void> | null = null;
    const chunks = reader.chunks({
      file: local,
      format,
      brands: [...brands],
      rows: STAGE_ROWS[deps.database.kind],
      batchId,
      seq: b.seq,
    });
    try {
      for await (const chunk of chunks) {
        processed += chunk.count;
        if (writing) await writing;
        writing = stageRows(deps, b, chunk, processed);
        writing.catch(() => undefined); // handled: awaited before the next chunk is written, or below
        if (!overlap) await writing;
        // let other requests run between chunks (PGlite shares the event loop)
        await yieldToRequests();
      }
    } finally {
      // the chunk being written settles first: its failure comes before whatever the reader found after it
      if (writing) await writing;
    }
    // staged -> Pending, only from the staging state
    await deps.db
      .update(batches)
      .set({ status: 'Pending', totalRows: processed, updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, 'Processing'), isNull(batches.executedAt)));
  } catch (err) {
    if (!(err instanceof FileRefused) && !isDataError(err)) throw err; // the job is retried
    const reason = err instanceof FileRefused ? err.message : 'A value in the file cannot be stored';
    await decline(deps, batchId, reason);
  } finally {
    await rm(local, { force: true });
  }
  await deps.files.remove(key).catch(() => undefined);
}

/** Processing (staging) -> Declined with the reason; nothing of the file stays. */
async function decline(deps: Deps, batchId: string, reason: string) {
  await deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(batches)
      .set({ status: 'Declined', error: reason, updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, 'Processing'), isNull(batches.executedAt)))
      .returning({ id: batches.batchId });
    if (moved) await tx.delete(stagedTransactions).where(eq(stagedTransactions.batchId, batchId));
  });
}

/**
 * One chunk of the file, staged in one transaction: the look-up of its ids (marks: id -> message, made once for the
 * chunk) with the batch's progress, in one statement; then the rows by COPY, the bulk load. A failure rolls the whole
 * chunk back. The first row of each id in the chunk is marked if the id is a duplicate, as validateRow would (in the
 * file before taken; a later row of the chunk with the same id was marked by checkChunk): the look-up's message
 * joins the row's errors (merchant_transaction_id) and the row is Failed. The rows go in as they come (no sort: a
 * row's id only breaks ties between equal row numbers, and a file has none), and COPY fires the batch check as an
 * INSERT does. PostgreSQL reads them from STDIN, PGlite from a blob; on PostgreSQL the look-up is planned without JIT
 * (compiling it would cost more than running it). The look-up is planned with index scans only (PLAN_BY_INDEX).
 */
async function stageRows(deps: Deps, b: BatchRow, c: ChunkText, processed: number) {
  const lookUp = c.earlierIds.length ? lookUpWithEarlier : lookUpTaken;
  const values = { ids: c.lookUpIds, earlier: c.earlierIds, merchant: b.merchantId, batch: b.batchId, processed };
  const copy = `COPY staged_transactions (${COPY_COLUMNS}) FROM`;
  if (deps.database.kind === 'pglite') {
    await deps.database.pglite!.transaction(async (tx) => {
      await tx.exec(PLAN_BY_INDEX);
      const [{ ids }] = await lookUp(deps.database, values, { pglite: tx });
      await tx.query(`${copy} '/dev/blob'`, [], { blob: new Blob([markDuplicates(c, ids)]) });
    });
    return;
  }
  const client = await deps.database.pool!.connect();
  let broken: unknown = undefined;
  try {
    await client.query('BEGIN');
    await client.query(`${PLAN_BY_INDEX}; SET LOCAL jit = off`);
    const [{ ids }] = await lookUp(deps.database, values, { client });
    await pipeline(Readable.from([markDuplicates(c, ids)]), client.query(copyFrom(`${copy} STDIN`)));
    await client.query('COMMIT');
  } catch (err) {
    broken = err;
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    // a COPY cut short can leave its connection unusable: it is closed rather than given back
    client.release(broken ? (broken as Error) : undefined);
  }
}

/**
 * The look-up is a prepared statement whose plan is kept (lookUpStatement): planned when the tables it searches are
 * small (a new database, a first file), it would keep a sequential scan of payouts, staged rows or batches that have
 * grown since. PGlite has no autovacuum to make it plan again (only the nightly VACUUM ANALYZE does). Every search it
 * makes is by an index (an id, a batch), so it is planned without sequential scans: the plan is the same whatever the
 * tables' sizes when it was made.
 */
const PLAN_BY_INDEX = 'SET LOCAL enable_seqscan = off';

/** The duplicates the look-up found: id -> message (null: none) */
type DupIds = { ids: Record<string, string> | null };

/** The ids of `earlierIds` staged in the batch from an earlier chunk of its file: an index search each. */
const inFile = sql`
  SELECT e.mtid, true AS in_file FROM unnest(${sql.placeholder('earlier')}::text[]) AS e(mtid)
  CROSS JOIN LATERAL (
    SELECT 1 FROM staged_transactions s
    WHERE s.batch_id = ${sql.placeholder('batch')} AND s.merchant_transaction_id = e.mtid LIMIT 1
  ) f`;

/**
 * The ids among those looked up (`c`, the chunk's ids as one array: given once, a text array being costly to read on
 * PGlite) that are duplicates: in_file when staged from an earlier chunk of this file (only the ids that may be:
 * `earlierIds`; none, the usual case: that part is left out), otherwise taken, as takenMtids says.
 * - The batch's own rows and the other open batches' are searched id by id (LATERAL ... LIMIT 1: an index search
 *   each, whatever the statistics say; a table being staged into has none yet).
 * - The merchant's payouts are searched in one scan of their unique index (merchant_id, merchant_transaction_id)
 *   with the whole array (`= ANY`): the index takes the ids in its order (from PostgreSQL 17, PGlite's, ids that fall
 *   on the same index page cost no new descent). Id by id, the look-up of a 1,000-row chunk took ~7 ms on PGlite; as
 *   one scan ~0.3 ms for a merchant with few payouts, and 7 ms against 12-16 ms for one with 300,000 (PostgreSQL 15,
 *   5,000 ids against 1,000,000 payouts: 15-19 ms against 19-33 ms). The index is taken with statistics or without.
 */
const marks = (withEarlier: boolean) => sql`
  SELECT mtid, bool_or(in_file) AS in_file FROM (
    ${withEarlier ? sql`${inFile} UNION ALL` : sql``}
    -- a payout of the merchant (its unique index on (merchant_id, merchant_transaction_id))
    SELECT p.merchant_transaction_id AS mtid, false AS in_file FROM payouts p
    WHERE p.merchant_id = ${sql.placeholder('merchant')} AND NOT p.duplicate_mtid
      AND p.merchant_transaction_id = ANY((SELECT ids FROM c)::text[])
    UNION ALL
    -- an executable row of another of the merchant's batches awaiting execution (few: their ids first; none,
    -- the usual case: nothing is searched)
    SELECT c.mtid, false
    FROM (SELECT ARRAY(${openBatchesOf(sql.placeholder('merchant'), sql.placeholder('batch'))}) AS ids) o
    CROSS JOIN (SELECT unnest(ids) AS mtid FROM c) c
    CROSS JOIN LATERAL (
      SELECT 1 FROM staged_transactions s
      WHERE s.batch_id = ANY(o.ids) AND s.merchant_transaction_id = c.mtid AND s.status = 'Pending' LIMIT 1
    ) f
    WHERE cardinality(o.ids) > 0
  ) found GROUP BY mtid`;

/** The look-up's values, by the name of their placeholder. */
type LookUpValues = { ids: string[]; earlier: string[]; merchant: number; batch: string; processed: number };
const LOOK_UP_TYPES: Record<keyof LookUpValues, string> = {
  ids: 'text[]',
  earlier: 'text[]',
  merchant: 'integer',
  batch: 'text',
  processed: 'integer',
};

/**
 * A chunk's statement: the batch's progress, and the duplicates among the chunk's ids (`marks`) as id -> message.
 * Prepared (preparedStatement): the same text for every chunk of every file, parsed once per connection, and after
 * five runs planned once (PostgreSQL's generic plan) until the tables' statistics change. On PGlite, which plans on
 * the event loop, planning was most of a chunk's look-up and progress: ~3.9-5.6 ms a 1,000-row chunk as two
 * statements planned each time, ~2.3-3.2 ms as one EXECUTE (the transaction included, demo data, p50). Its plan
 * searches by index only, whatever the tables' sizes when it was made (PLAN_BY_INDEX).
 */
const lookUpStatement = (withEarlier: boolean) => {
  const q = pgDialect.sqlToQuery(sql`WITH c AS MATERIALIZED (SELECT ${sql.placeholder('ids')}::text[] AS ids),
    progress AS (UPDATE batches SET processed_rows = ${sql.placeholder('processed')}, updated_at = now()
      WHERE batch_id = ${sql.placeholder('batch')})
    SELECT jsonb_object_agg(mtid, CASE WHEN in_file THEN ${sql.raw(sqlLiteral(PAYMENT_MSG.duplicateMtidInFile))}
      ELSE ${sql.raw(sqlLiteral(PAYMENT_MSG.duplicateMtid))} END) AS ids FROM (${marks(withEarlier)}) m`);
  const names = q.params.map((p) => (p as Placeholder<keyof LookUpValues>).name);
  const statement = preparedStatement<DupIds>(
    `obol_stage_look_up${withEarlier ? '_earlier' : ''}`,
    names.map((n) => LOOK_UP_TYPES[n]),
    q.sql,
  );
  return (database: Database, values: LookUpValues, on: InTransaction) =>
    statement(
      database,
      names.map((n) => values[n]),
      on,
    );
};
const lookUpTaken = lookUpStatement(false);
const lookUpWithEarlier = lookUpStatement(true);
