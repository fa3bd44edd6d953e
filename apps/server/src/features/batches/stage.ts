import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { validateRow } from '@obol/contract';
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor } from '../../platform/db.ts';
import { randomToken } from '../../platform/crypto.ts';
import { brandNamesOf } from '../payments/service.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { payouts } from '../payouts/tables.ts';
import { FileRefused, readRows, type FileFormat, type RawRow } from './parse.ts';
import { STAGE_CHUNK, uploadKey } from './service.ts';
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
    const seen = new Set<string>();
    let chunk: { row: number; values: RawRow }[] = [];
    let processed = 0;
    const flush = async () => {
      if (!chunk.length) return;
      const mtids = [...new Set(chunk.map((c) => c.values.merchant_transaction_id).filter(Boolean))];
      const taken = await takenMtids(deps.db, b.merchantId, batchId, mtids);
      const rows = chunk.map((c) => {
        const mtid = c.values.merchant_transaction_id;
        const dupInFile = !!mtid && seen.has(mtid);
        if (mtid) seen.add(mtid);
        const v = validateRow(c.values, { brands, duplicateInFile: dupInFile, duplicateOfPayout: taken.has(mtid) });
        return { row: c.row, v };
      });
      await insertStaged(deps.db, batchId, rows);
      processed += chunk.length;
      chunk = [];
      await deps.db
        .update(batches)
        .set({ processedRows: processed, updatedAt: new Date() })
        .where(eq(batches.batchId, batchId));
      // let other requests run between chunks (PGlite shares the event loop)
      await new Promise((r) => setImmediate(r));
    };
    for await (const r of readRows(local, format)) {
      chunk.push(r);
      if (chunk.length >= STAGE_CHUNK) await flush();
    }
    await flush();
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

/** One INSERT ... SELECT FROM unnest(...) per chunk: far faster than a row at a time. */
async function insertStaged(db: Executor, batchId: string, rows: { row: number; v: ReturnType<typeof validateRow> }[]) {
  // each column travels as one array parameter
  const col = <T>(f: (r: (typeof rows)[number]) => T) => sql.param(rows.map(f));
  await db.execute(sql`
    INSERT INTO staged_transactions
      (batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand, reference, amount_text, amount, errors, status, missing)
    SELECT ${batchId}, * FROM unnest(
      ${col((r) => r.row)}::int[], ${col((r) => r.v.values.beneficiary_name)}::text[], ${col((r) => r.v.values.obol_id)}::text[],
      ${col((r) => r.v.values.merchant_transaction_id)}::text[], ${col((r) => r.v.values.brand)}::text[],
      ${col((r) => r.v.values.reference)}::text[], ${col((r) => r.v.values.amount)}::text[],
      ${col((r) => r.v.amount)}::bigint[], ${col((r) => JSON.stringify(r.v.errors))}::jsonb[],
      ${col((r) => r.v.status)}::text[], ${col((r) => (r.v.missing ? 1 : 0))}::int[]
    )`);
}
