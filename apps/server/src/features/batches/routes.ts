import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { MSG, PAYMENT_MSG, pageField, perPageField, wholeNumber } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, notFound } from '../../platform/errors.ts';
import { refuseUnsafeText, route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { randomToken } from '../../platform/crypto.ts';
import { newBatchId, payingAccount } from '../payments/service.ts';
import { CSV_TEMPLATE, detectFormat, FileRefused, inspectFile } from './parse.ts';
import * as svc from './service.ts';
import * as review from './review.ts';
import * as execute from './execute.ts';
import { auditInTx } from '../../platform/audit.ts';
import { batches } from './tables.ts';
import { BATCH_STATUSES, listBatches } from './list.ts';

const MASS = 'User can able to issue mass payout on behalf of merchant';
const batchIdField = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(64);
const idField = wholeNumber('id', 1, Number.MAX_SAFE_INTEGER);
/** the batch's own names are kept by the server; the client's merchant_name is accepted and ignored */
const merchantName = z.string().max(200).optional();
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export function batchesRoutes(app: FastifyInstance, deps: Deps) {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1000 } });
    route(scope, {
      method: 'POST',
      url: '/api/upload-transactions',
      access: MASS,
      audit: 'batch.upload',
      handler: async ({ auth, req }) => {
        await throttle(deps, 'upload', auth.user.id); // per user: 429 past the limit (config.ts DEFAULT_LIMITS)
        if (!req.isMultipart()) throw badRequest('Send the file as multipart/form-data', 'file');
        const tmpDir = path.join(deps.config.dataDir, 'uploads');
        await mkdir(tmpDir, { recursive: true });
        const tmp = path.join(tmpDir, `incoming-${randomToken(12)}`);
        const fields: Record<string, string> = {};
        let originalName: string | null = null;
        let truncated = false;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file') {
                part.file.resume();
                continue;
              }
              originalName = part.filename;
              await pipeline(part.file, createWriteStream(tmp));
              truncated = part.file.truncated;
            } else fields[part.fieldname] = String(part.value ?? '');
          }
          refuseUnsafeText(req, fields);
          if (!originalName) throw badRequest('Choose a file to upload', 'file');
          if (truncated) throw badRequest(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 'file');
          const behalfOf = Number(fields.behalf_of_id);
          if (!Number.isInteger(behalfOf) || behalfOf < 0)
            throw badRequest('behalf_of_id must be a merchant or brand id', 'behalf_of_id');
          const format = await detectFormat(tmp, originalName);
          const rows = await inspectFile(tmp, format);
          const { account, holder, merchantId, feeBps } = await payingAccount(
            deps,
            auth,
            fields.account_reference?.trim() || 'Fee Account',
          );
          if (holder && behalfOf !== 0 && holder.id !== behalfOf)
            throw badRequest('The account does not belong to the chosen merchant or brand', 'account_reference');
          const batchId = newBatchId();
          const fileName = svc.cleanFileName(fields.file_name || originalName) || 'upload';
          // the file store (a folder or a bucket), so whichever process runs the staging job can read it
          const key = svc.uploadKey(batchId, format);
          const stored = await deps.files.create(key);
          try {
            await pipeline(createReadStream(tmp), stored.stream);
            await stored.commit();
          } catch (err) {
            await stored.abort();
            throw err;
          }
          await rm(tmp, { force: true });
          await deps.db
            .transaction(async (tx) => {
              await tx.insert(batches).values({
                batchId,
                merchantId,
                behalfOfId: holder?.id ?? auth.user.id,
                accountId: account.id,
                uploadedBy: auth.user.id,
                payoutType: 'Batch Payout',
                fileName: `${fileName}.csv`,
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
          req.audit.targetType = 'batch';
          req.audit.targetId = batchId;
          req.audit.after = { file_name: `${fileName}.csv`, rows, format };
          return { batch_id: batchId, total: rows, message: ['File uploaded'] };
        } catch (err) {
          await rm(tmp, { force: true });
          if (err instanceof FileRefused) throw badRequest(err.message, 'file');
          const code = (err as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE')
            throw badRequest(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 'file');
          if (code?.startsWith('FST_')) throw badRequest('The upload could not be read', 'file');
          throw err;
        }
      },
    });
  });

  route(app, {
    method: 'GET',
    url: '/api/csv-template',
    access: MASS,
    handler: async ({ reply }) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="payout-template.csv"')
        .send(CSV_TEMPLATE),
  });

  route(app, {
    method: 'POST',
    url: '/api/batch-progress',
    access: MASS,
    input: z.object({ id: batchIdField }),
    handler: async ({ input, auth }) => {
      const b = await svc.findBatchInScope(deps.db, auth.scope, input.id);
      if (b.status === 'Declined' && b.error) throw new ApiError(422, [b.error], { file: [b.error] });
      return { processedJobs: b.processedRows, totalJobs: b.totalRows, status: b.status };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/save-batch',
    access: MASS,
    audit: 'batch.save',
    input: z.object({
      batch_id: batchIdField,
      merchant_name: merchantName,
      file_name: z.string().max(200).optional(),
      account_reference: z.string().max(100).optional(),
    }),
    handler: async ({ input, auth, req }) => {
      const b = await svc.findBatchInScope(deps.db, auth.scope, input.batch_id);
      if (b.status === 'Processing' && !b.executedAt && b.processedRows < b.totalRows)
        throw new ApiError(409, [PAYMENT_MSG.batchProcessing]);
      await deps.db.update(batches).set({ savedAt: new Date() }).where(eq(batches.batchId, b.batchId));
      req.audit.targetType = 'batch';
      req.audit.targetId = b.batchId;
      return { message: ['Batch saved'], batch: await batchView(deps, b.batchId) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/staged-transactions',
    access: 'User can view payments',
    input: z.object({
      batch_id: batchIdField,
      per_page: perPageField(),
      page: pageField(),
      search: z.string().trim().max(100).optional().default(''),
      status: z.enum(['', 'Pending', 'Failed'], { error: 'status must be Pending or Failed' }).optional().default(''),
    }),
    handler: async ({ input, auth }) => {
      const b = await svc.findBatchInScope(deps.db, auth.scope, input.batch_id);
      return {
        ...(await review.stagedPage(deps.db, b.batchId, {
          page: input.page,
          perPage: input.per_page,
          search: input.search,
          status: input.status,
        })),
        batch: await batchView(deps, b.batchId),
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/batch-amount',
    access: 'User can view payments',
    input: z.object({ batch_id: batchIdField, account_reference: z.string().max(100).optional() }),
    handler: async ({ input, auth }) => {
      const b = await svc.findBatchInScope(deps.db, auth.scope, input.batch_id);
      const { amount, fee } = await svc.batchAmount(deps.db, b);
      return { amount, fee };
    },
  });

  const rowEdit = z.object({
    id: idField,
    batch_id: batchIdField,
    beneficiary_name: z.string().max(200).default(''),
    obol_id: z.union([z.string(), z.number()]).transform(String).default(''),
    merchant_transaction_id: z.string().max(200).default(''),
    brand: z.string().max(200).default(''),
    amount: z.union([z.string(), z.number()]).transform(String).default(''),
    reference: z.string().max(200).default(''),
    fee: z.any().optional(),
  });
  route(app, {
    method: 'POST',
    url: '/api/update-transaction',
    access: MASS,
    audit: 'batch.update-transaction',
    input: rowEdit,
    handler: async ({ input, auth, req }) => {
      const r = await review.updateStagedRow(deps, auth, input.batch_id, input);
      req.audit.targetType = 'staged_transaction';
      req.audit.targetId = input.id;
      req.audit.before = r.before;
      req.audit.after = r.after;
      return {
        message: [r.after.status === 'Pending' ? 'Transaction updated' : 'Transaction updated; it still has errors'],
        transaction: r.after,
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/delete-transaction',
    access: MASS,
    audit: 'batch.delete-transaction',
    input: z.object({ id: idField, batch_id: batchIdField.optional(), merchant_name: merchantName }),
    handler: async ({ input, auth, req }) => {
      req.audit.targetType = 'staged_transaction';
      req.audit.targetId = input.id;
      await review.deleteStagedRows(deps, auth, input.batch_id ?? null, [input.id]);
      return { message: ['Transaction deleted'] };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/delete-transactions',
    access: MASS,
    audit: 'batch.delete-transactions',
    input: z.object({
      id: z.array(idField).min(1, 'Select at least one transaction').max(1000),
      batch_id: batchIdField,
      merchant_name: merchantName,
    }),
    handler: async ({ input, auth, req }) => {
      req.audit.targetType = 'batch';
      req.audit.targetId = input.batch_id;
      req.audit.before = { ids: input.id };
      const n = await review.deleteStagedRows(deps, auth, input.batch_id, input.id);
      return { message: [`${n} transaction${n === 1 ? '' : 's'} deleted`] };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/rename-batch',
    access: MASS,
    audit: 'batch.rename',
    input: z.object({
      batch_id: batchIdField,
      file_name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100),
      merchant_name: merchantName,
    }),
    handler: async ({ input, auth, req }) => {
      const r = await review.renameBatch(deps, auth, input.batch_id, input.file_name);
      req.audit.targetType = 'batch';
      req.audit.targetId = input.batch_id;
      req.audit.before = { file_name: r.before };
      req.audit.after = { file_name: r.after };
      return { message: ['File renamed'], file_name: r.after };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/clear-batch',
    access: MASS,
    audit: 'batch.clear',
    input: z.object({ batch_id: batchIdField, merchant_name: merchantName }),
    handler: async ({ input, auth, req }) => {
      req.audit.targetType = 'batch';
      req.audit.targetId = input.batch_id;
      await review.clearBatch(deps, auth, input.batch_id);
      return { message: ['Batch cleared'] };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/execute-batch',
    access: MASS,
    audit: 'batch.request-execution',
    input: z.object({
      batch_id: batchIdField,
      amount: wholeNumber('amount', 0, Number.MAX_SAFE_INTEGER).optional(),
      merchant_name: merchantName,
    }),
    handler: async ({ input, auth, req }) => {
      req.audit.targetType = 'batch';
      req.audit.targetId = input.batch_id;
      return execute.requestExecution(deps, auth, input.batch_id, input.amount);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/confirm-batch',
    access: MASS,
    audit: 'batch.execute',
    input: z.object({
      batch_id: batchIdField,
      code: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20),
      merchant_name: merchantName,
    }),
    handler: async ({ input, auth, req }) => {
      req.audit.targetType = 'batch';
      req.audit.targetId = input.batch_id;
      const r = await execute.confirmExecution(deps, auth, input.batch_id, input.code, async (tx, after) => {
        req.audit.after = after;
        await auditInTx(tx, req, 200);
      });
      return { message: ['Batch is being executed'], batch_id: input.batch_id, ...r };
    },
  });
}

const batchListInput = {
  per_page: perPageField(),
  page: pageField(),
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional().default(''),
};

export function batchListRoutes(app: FastifyInstance, deps: Deps) {
  route(app, {
    method: 'POST',
    url: '/api/batches',
    access: 'User can view transactions',
    input: z.object({
      ...batchListInput,
      status: z
        .union([z.enum(BATCH_STATUSES), z.literal('')], {
          error: 'status must be Completed, Pending, Declined or Processing',
        })
        .optional()
        .default(''),
    }),
    handler: async ({ input, auth }) =>
      listBatches(deps.db, auth.scope, {
        page: input.page,
        perPage: input.per_page,
        search: input.search,
        status: input.status,
      }),
  });

  route(app, {
    method: 'POST',
    url: '/api/recent-batches',
    access: 'User can view transactions',
    input: z.object(batchListInput),
    handler: async ({ input, auth }) =>
      listBatches(deps.db, auth.scope, {
        page: input.page,
        perPage: input.per_page,
        search: input.search,
        status: '',
        recent: true,
      }),
  });
}

async function batchView(deps: Deps, batchId: string) {
  const [b] = await deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b) throw notFound('Batch not found');
  return {
    batch_id: b.batchId,
    file_name: b.fileName,
    batch_status: b.status,
    total_rows: b.totalRows,
    processed_rows: b.processedRows,
  };
}
