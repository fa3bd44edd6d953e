import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { PAYMENT_MSG } from '@obol/contract';
import { eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { payingAccount } from '../merchants/holders.ts';
import { newBatchId } from './batch-id.ts';
import { detectFormat, inspectFile } from './parse.ts';
import { batchView, cleanFileName, findBatchInScope, uploadKey } from './service.ts';
import { batches } from './tables.ts';

/** An upload the route has read to a local file, with the fields of its form. */
export interface ReceivedUpload {
  /** where the file waits; removed once it is in the file store */
  tmp: string;
  /** the file's name as sent */
  originalName: string;
  /** the batch's name, if the form gives one */
  fileName?: string;
  /** the merchant or brand paid for, 0 for none in particular */
  behalfOf: number;
  accountReference?: string;
}

/**
 * A new batch from an uploaded file: the file is checked (its format, columns and row count), put in the file
 * store (a folder or a bucket, so whichever process runs the staging job can read it), and the batch is
 * inserted as Processing with its staging job in one transaction. A refusal throws FileRefused.
 */
export async function createBatch(deps: Deps, auth: AuthContext, up: ReceivedUpload) {
  const format = await detectFormat(up.tmp, up.originalName);
  const rows = await inspectFile(up.tmp, format);
  const { account, holder, merchantId, feeBps } = await payingAccount(
    deps,
    auth,
    up.accountReference?.trim() || 'Fee Account',
    up.behalfOf,
  );
  if (holder && up.behalfOf !== 0 && holder.id !== up.behalfOf)
    throw badRequest('The account does not belong to the chosen merchant or brand', 'account_reference');
  const batchId = newBatchId();
  const fileName = `${cleanFileName(up.fileName || up.originalName) || 'upload'}.csv`;
  const key = uploadKey(batchId, format);
  const stored = await deps.files.create(key);
  try {
    await pipeline(createReadStream(up.tmp), stored.stream);
    await stored.commit();
  } catch (err) {
    await stored.abort();
    throw err;
  }
  await rm(up.tmp, { force: true });
  await deps.db
    .transaction(async (tx) => {
      await tx.insert(batches).values({
        batchId,
        merchantId,
        behalfOfId: holder?.id ?? auth.user.id,
        accountId: account.id,
        uploadedBy: auth.user.id,
        payoutType: 'Batch Payout',
        fileName,
        fileFormat: format,
        status: 'Processing',
        totalRows: rows,
        feeBps,
      });
      await deps.jobs.send('batch.stage', { batchId }, { tx });
    })
    .catch(async (err) => {
      await deps.files.remove(key).catch(() => undefined);
      throw err;
    });
  return { batchId, rows, fileName, format };
}

/** Staging -> kept for review: refused while the batch is still being staged. */
export async function saveBatch(deps: Deps, scope: Scope, batchId: string) {
  const b = await findBatchInScope(deps.db, scope, batchId);
  if (b.status === 'Processing' && !b.executedAt && b.processedRows < b.totalRows)
    throw new ApiError(409, [PAYMENT_MSG.batchProcessing]);
  await deps.db.update(batches).set({ savedAt: new Date() }).where(eq(batches.batchId, b.batchId));
  return batchView(deps.db, b.batchId);
}
