import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PAYMENT_MSG } from '@obol/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor } from '../../platform/db.ts';
import { randomToken } from '../../platform/crypto.ts';
import { brandNamesOf } from '../payments/service.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { payouts } from '../payouts/tables.ts';
import { checkChunk, SeenIds, type Chunk } from './columns.ts';
import { FileRefused, readRowBatches, type FileFormat } from './parse.ts';
import { uploadKey, type BatchRow } from './service.ts';
import { batches, stagedTransactions } from './tables.ts';

/**
 * The merchant transaction ids among `mtids` that are taken: by a payout of the merchant, or by an executable
 * row of another of its batches still awaiting execution. Advisory (it marks rows for the reviewer): the
 * database's unique index on payouts is what keeps an id from being paid twice, whatever raced past this.
 */
export async function takenMtids(db: Executor, merchantId: number, batchId: string, mtids: string[]) {
  if (!mtids.length) return new Set<string>();
  const paid = await db
    .select({ m: payouts.merchantTransactionId })
    .from(payouts)
    .where(
      and(
        eq(payouts.merchantId, merchantId),
        inArray(payouts.merchantTransactionId, mtids),
        eq(payouts.duplicateMtid, false),
      ),
    );
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
  return new Set([...paid, ...staged].map((r) => r.m));
}

/** The ids of the merchant's other batches awaiting execution (staged, or being staged). */
const openBatchesOf = (merchantId: number, batchId: string) => sql`
  SELECT o.batch_id FROM batches o
  WHERE o.merchant_id = ${merchantId} AND o.batch_id <> ${batchId}
    AND (o.status = 'Pending' OR (o.status = 'Processing' AND o.executed_at IS NULL))`;

/**
 * Rows staged a statement at a time: big enough to be quick, small enough to keep each statement short. PGlite
 * runs a statement on the event loop, so there a chunk is what other requests may wait for; PostgreSQL runs it
 * in its own process while the next chunk is read.
 */
const STAGE_ROWS = { pglite: 1000, postgres: 5000 };

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
    const seen = new SeenIds();
    let processed = 0;
    // On PostgreSQL the next chunk is read and checked while the database writes this one. PGlite writes on our
    // own thread, and its time would count as the file's reading time: there each chunk is written before the next.
    const overlap = deps.database.kind === 'postgres';
    let writing: Promise<void> | null = null;
    try {
      for await (const rows of readRowBatches(local, format, {}, STAGE_ROWS[deps.database.kind])) {
        processed += rows.length;
        const chunk = checkChunk(rows, brands, seen);
        if (writing) await writing;
        writing = stageRows(deps, b, chunk, processed);
        writing.catch(() => undefined); // handled: awaited before the next chunk is written, or below
        if (!overlap) await writing;
        // let other requests run between chunks (PGlite shares the event loop)
        await new Promise((r) => setImmediate(r));
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
 * One chunk of the file, staged by one statement: the rows travel as one array per column (unnest), their
 * duplicates are marked on the merchant transaction id as validateRow would (earlier in the file: earlier in
 * this chunk, or staged for this batch from an earlier chunk; taken: a payout of the merchant, or an executable
 * row of another of its batches awaiting execution, as takenMtids says), each looked up by an index only where
 * the answer is not known already, and the batch's progress moves on in the same statement. On PostgreSQL the
 * statement is planned without JIT: compiling it would cost more than running it.
 */
async function stageRows(deps: Deps, b: BatchRow, c: Chunk, processed: number) {
  const p = <T>(a: T[]) => sql.param(a);
  const lookUpIds = c.cols.merchant_transaction_id.filter((_, i) => c.lookUp[i]);
  const earlierIds = c.cols.merchant_transaction_id.filter((_, i) => c.maybeEarlier[i]);
  const statement = sql`
    WITH input AS (
      SELECT * FROM unnest(
        ${p(c.rowNumber)}::int[], ${p(c.cols.beneficiary_name)}::text[], ${p(c.cols.obol_id)}::text[],
        ${p(c.cols.merchant_transaction_id)}::text[], ${p(c.cols.brand)}::text[], ${p(c.cols.reference)}::text[],
        ${p(c.cols.amount)}::text[], ${p(c.cents)}::bigint[], ${p(c.errors)}::jsonb[], ${p(c.status)}::text[],
        ${p(c.missing)}::int[], ${p(c.repeated)}::bool[], ${p(c.lookUp)}::bool[]
      ) WITH ORDINALITY AS t(row_number, beneficiary_name, obol_id, mtid, brand, reference, amount_text, amount,
        errors, status, missing, repeated, look_up, ord)
    ), marks AS (
      -- the ids to look up, each on its own (LATERAL ... LIMIT 1: an index search each, whatever the statistics
      -- say; a table being staged into has none yet): in_file when staged from an earlier chunk of this file,
      -- otherwise taken
      SELECT mtid, bool_or(in_file) AS in_file FROM (
        SELECT e.mtid, true AS in_file FROM unnest(${p(earlierIds)}::text[]) AS e(mtid)
        CROSS JOIN LATERAL (
          SELECT 1 FROM staged_transactions s
          WHERE s.batch_id = ${b.batchId} AND s.merchant_transaction_id = e.mtid LIMIT 1
        ) f
        UNION ALL
        -- a payout of the merchant
        SELECT c.mtid, false FROM unnest(${p(lookUpIds)}::text[]) AS c(mtid)
        CROSS JOIN LATERAL (
          SELECT 1 FROM payouts p
          WHERE p.merchant_id = ${b.merchantId} AND p.merchant_transaction_id = c.mtid AND NOT p.duplicate_mtid
          LIMIT 1
        ) f
        UNION ALL
        -- an executable row of another of the merchant's batches awaiting execution (few: their ids first; none,
        -- the usual case: nothing is searched)
        SELECT c.mtid, false
        FROM (SELECT ARRAY(${openBatchesOf(b.merchantId, b.batchId)}) AS ids) o
        CROSS JOIN unnest(${p(lookUpIds)}::text[]) AS c(mtid)
        CROSS JOIN LATERAL (
          SELECT 1 FROM staged_transactions s
          WHERE s.batch_id = ANY(o.ids) AND s.merchant_transaction_id = c.mtid AND s.status = 'Pending' LIMIT 1
        ) f
        WHERE cardinality(o.ids) > 0
      ) found GROUP BY mtid
    ), flagged AS (
      SELECT i.*, CASE
        WHEN i.repeated OR m.in_file THEN ${PAYMENT_MSG.duplicateMtidInFile}
        WHEN m.mtid IS NOT NULL THEN ${PAYMENT_MSG.duplicateMtid}
      END AS duplicate
      FROM input i LEFT JOIN marks m ON i.look_up AND m.mtid = i.mtid
    ), progress AS (
      UPDATE batches SET processed_rows = ${processed}, updated_at = now() WHERE batch_id = ${b.batchId}
    )
    INSERT INTO staged_transactions
      (batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand, reference, amount_text, amount,
       errors, status, missing)
    SELECT ${b.batchId}, row_number, beneficiary_name, obol_id, mtid, brand, reference, amount_text, amount,
      CASE WHEN duplicate IS NULL THEN errors ELSE errors || jsonb_build_object('merchant_transaction_id', duplicate) END,
      CASE WHEN duplicate IS NULL THEN status ELSE 'Failed' END,
      missing
    FROM flagged ORDER BY ord`;
  if (deps.database.kind === 'pglite') {
    await deps.db.execute(statement);
    return;
  }
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    await tx.execute(statement);
  });
}
