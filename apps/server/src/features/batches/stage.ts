import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BATCH_COLUMNS, PAYMENT_MSG, validateRow, type BatchColumn } from '@obol/contract';
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor } from '../../platform/db.ts';
import { randomToken } from '../../platform/crypto.ts';
import { brandNamesOf } from '../payments/service.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { payouts } from '../payouts/tables.ts';
import type { Row } from './columns.ts';
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
    .innerJoin(batches, eq(batches.batchId, stagedTransactions.batchId))
    .where(
      and(
        inArray(stagedTransactions.merchantTransactionId, mtids),
        eq(stagedTransactions.status, 'Pending'),
        eq(batches.merchantId, merchantId),
        ne(batches.batchId, batchId),
        or(eq(batches.status, 'Pending'), and(eq(batches.status, 'Processing'), isNull(batches.executedAt))),
      ),
    );
  return new Set([...paid, ...staged].map((r) => r.m));
}

/** Rows staged a statement at a time: big enough to be quick, small enough to keep each statement short. */
const STAGE_ROWS = 1000;

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
    let processed = 0;
    for await (const rows of readRowBatches(local, format, {}, STAGE_ROWS)) {
      processed += rows.length;
      await stageRows(deps.db, b, brands, rows, processed);
      // let other requests run between chunks (PGlite shares the event loop)
      await new Promise((r) => setImmediate(r));
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
 * duplicates are found by the database (earlier in the file: earlier in this chunk or already staged for this
 * batch; taken: a payout of the merchant, or an executable row of another of its batches awaiting execution, as
 * takenMtids says), each marked on its merchant transaction id as validateRow would, and the batch's progress
 * moves on in the same statement. The rules of each row's own fields are the contract's validateRow.
 */
async function stageRows(db: Executor, b: BatchRow, brands: Set<string>, rows: Row[], processed: number) {
  const n = rows.length;
  const rowNumber = new Array<number>(n);
  const cols = Object.fromEntries(BATCH_COLUMNS.map((c) => [c, new Array<string>(n)])) as Record<BatchColumn, string[]>;
  const cents = new Array<number | null>(n);
  const errors = new Array<string>(n);
  const status = new Array<string>(n);
  const missing = new Array<number>(n);
  const checkDup = new Array<boolean>(n);
  for (let i = 0; i < n; i++) {
    const values = rows[i].values;
    // the duplicates are the database's to find: the row is checked as if it had none
    const v = validateRow(values, { brands, duplicateInFile: false, duplicateOfPayout: false });
    rowNumber[i] = rows[i].row;
    for (const c of BATCH_COLUMNS) cols[c][i] = values[c];
    cents[i] = v.amount;
    errors[i] = JSON.stringify(v.errors);
    status[i] = v.status;
    missing[i] = v.missing ? 1 : 0;
    // validateRow marks a duplicate only on an id that is given and has no error of its own
    checkDup[i] = !!values.merchant_transaction_id && !v.errors.merchant_transaction_id;
  }
  // the ids to look up: each once (the index is searched for each)
  const candidates = [...new Set(cols.merchant_transaction_id.filter((m, i) => checkDup[i]))];
  const p = <T>(a: T[]) => sql.param(a);
  await db.execute(sql`
    WITH input AS (
      SELECT * FROM unnest(
        ${p(rowNumber)}::int[], ${p(cols.beneficiary_name)}::text[], ${p(cols.obol_id)}::text[],
        ${p(cols.merchant_transaction_id)}::text[], ${p(cols.brand)}::text[], ${p(cols.reference)}::text[],
        ${p(cols.amount)}::text[], ${p(cents)}::bigint[], ${p(errors)}::jsonb[], ${p(status)}::text[],
        ${p(missing)}::int[], ${p(checkDup)}::bool[]
      ) WITH ORDINALITY AS t(row_number, beneficiary_name, obol_id, mtid, brand, reference, amount_text, amount,
        errors, status, missing, check_dup, ord)
    ), found AS (
      -- each id looked up on its own (LATERAL ... LIMIT 1: an index search each, whatever the statistics say)
      SELECT c.mtid, f.one IS NOT NULL AS earlier, (p.one IS NOT NULL OR o.one IS NOT NULL) AS taken
      FROM unnest(${p(candidates)}::text[]) AS c(mtid)
      -- staged from earlier chunks of this file
      LEFT JOIN LATERAL (
        SELECT 1 AS one FROM staged_transactions s
        WHERE s.batch_id = ${b.batchId} AND s.merchant_transaction_id = c.mtid LIMIT 1
      ) f ON true
      -- a payout of the merchant
      LEFT JOIN LATERAL (
        SELECT 1 AS one FROM payouts p
        WHERE p.merchant_id = ${b.merchantId} AND p.merchant_transaction_id = c.mtid AND NOT p.duplicate_mtid LIMIT 1
      ) p ON true
      -- an executable row of another of the merchant's batches awaiting execution (few: their ids first)
      LEFT JOIN LATERAL (
        SELECT 1 AS one FROM staged_transactions s
        WHERE s.batch_id = ANY(ARRAY(
            SELECT o.batch_id FROM batches o
            WHERE o.merchant_id = ${b.merchantId} AND o.batch_id <> ${b.batchId}
              AND (o.status = 'Pending' OR (o.status = 'Processing' AND o.executed_at IS NULL))
          ))
          AND s.merchant_transaction_id = c.mtid AND s.status = 'Pending'
        LIMIT 1
      ) o ON true
    ), flagged AS (
      SELECT i.*, CASE
        WHEN NOT i.check_dup THEN NULL
        WHEN i.ord > min(i.ord) OVER (PARTITION BY i.mtid) OR f.earlier THEN ${PAYMENT_MSG.duplicateMtidInFile}
        WHEN f.taken THEN ${PAYMENT_MSG.duplicateMtid}
      END AS duplicate
      FROM input i LEFT JOIN found f ON f.mtid = i.mtid
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
    FROM flagged ORDER BY ord`);
}
