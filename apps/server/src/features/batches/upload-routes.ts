import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { batchOps, type BatchStatus } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { ApiError, badRequest, fromZod } from '../../platform/errors.ts';
import { refuseUnsafeText, route } from '../../platform/http.ts';
import { throttle } from '../../platform/limits.ts';
import { randomToken } from '../../platform/crypto.ts';
import { multipartRoutes, readUpload } from '../../platform/multipart.ts';
import { CSV_TEMPLATE, FileRefused } from './parse.ts';
import { findBatchInScope } from './service.ts';
import { createBatch, saveBatch } from './upload.ts';

const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
const tooLarge = () => badRequest(`The file is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`, 'file');

/** The upload and its staging: the file, the template, the progress of the staging job, keeping the batch. */
export function uploadRoutes(app: FastifyInstance, deps: Deps) {
  multipartRoutes(app, { fileSize: MAX_UPLOAD_BYTES, fields: 10, fieldSize: 1000 }, (scope) => {
    route(scope, batchOps.uploadTransactions, async ({ auth, req }) => {
      // the text rule of a body sent as anything but a form (route() leaves a multipart body to its handler)
      refuseUnsafeText(req, req.body);
      await throttle(deps, 'upload', auth.user.id); // per user: 429 past the limit (config.ts DEFAULT_LIMITS)
      const tmpDir = path.join(deps.config.dataDir, 'uploads');
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `incoming-${randomToken(12)}`);
      try {
        // a form that cannot be read is a 400 naming `file` (platform/multipart.ts)
        const { fields, file } = await readUpload(req, 'file', tmp);
        if (!file) throw badRequest('Choose a file to upload', 'file');
        if (file.truncated) throw tooLarge();
        const form = batchOps.uploadTransactions.input.safeParse(fields);
        if (!form.success) throw fromZod(form.error, fields);
        const made = await createBatch(deps, auth, {
          tmp,
          originalName: file.name,
          fileName: form.data.file_name,
          behalfOf: form.data.behalf_of_id,
          accountReference: form.data.account_reference,
        });
        req.audit.targetType = 'batch';
        req.audit.targetId = made.batchId;
        req.audit.after = { file_name: made.fileName, rows: made.rows, format: made.format };
        return { batch_id: made.batchId, total: made.rows, message: ['File uploaded'] };
      } catch (err) {
        await rm(tmp, { force: true });
        if (err instanceof FileRefused) throw badRequest(err.message, 'file');
        throw err;
      }
    });
  });

  route(app, batchOps.csvTemplate, ({ reply }) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="payout-template.csv"')
      .send(CSV_TEMPLATE),
  );

  route(app, batchOps.batchProgress, async ({ input, auth }) => {
    const b = await findBatchInScope(deps.db, auth.scope, input.id);
    if (b.status === 'Declined' && b.error) throw new ApiError(422, [b.error], { file: [b.error] });
    return { processedJobs: b.processedRows, totalJobs: b.totalRows, status: b.status as BatchStatus };
  });

  route(app, batchOps.saveBatch, async ({ input, auth, req }) => {
    const batch = await saveBatch(deps, auth.scope, input.batch_id);
    req.audit.targetType = 'batch';
    req.audit.targetId = batch.batch_id;
    return { message: ['Batch saved'], batch };
  });
}
