import { DOWNLOAD_MSG, downloadOps, type Permission } from '@obol/contract';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { conflict, forbidden } from '../../platform/errors.ts';
import { route, type AuthContext } from '../../platform/http.ts';
import { CONTENT_TYPES, findFile, listFiles } from './service.ts';

const TRANSACTIONS: Permission = 'User can view transactions';
const REPORTS: Permission = 'User can view download reports';
const ACCOUNTING: Permission = 'User can view accounting transactions';

/** Which list a file belongs to decides the permission needed to see it. */
function needed(isReport: number, accounting: boolean): Permission {
  return isReport ? REPORTS : accounting ? ACCOUNTING : TRANSACTIONS;
}
function assertMay(auth: AuthContext, p: Permission) {
  if (!auth.permissions.has(p)) {
    throw forbidden();
  }
}

/** The generated files of the caller's tenant: the lists and the file itself. */
export function downloadsRoutes(app: FastifyInstance, deps: Deps) {
  route(app, downloadOps.downloadFiles, ({ input, auth }) => {
    assertMay(auth, needed(input.type, input.accounting));
    return listFiles(deps.db, auth.scope, {
      page: input.page,
      perPage: input.per_page,
      search: input.search,
      isReport: input.type as 0 | 1,
      accounting: input.accounting,
    });
  });

  route(app, downloadOps.downloadFile, async ({ params, auth, req, reply }) => {
    const file = await findFile(deps.db, auth.scope, params.id);
    assertMay(auth, needed(file.isReport, file.accounting === 1));
    req.audit.targetType = 'download_file';
    req.audit.targetId = file.id;
    if (file.status !== 'Completed') throw conflict(DOWNLOAD_MSG.fileNotReady);
    const stream = await deps.files.open(file.storageKey);
    return reply
      .header('content-type', CONTENT_TYPES[file.format] ?? 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`)
      .header('cache-control', 'private, no-store')
      .send(stream);
  });
}
