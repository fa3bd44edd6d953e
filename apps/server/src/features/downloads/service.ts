import { randomUUID } from 'node:crypto';
import { EXPORT_CONTENT_TYPES, isCalendarDate, MSG, type DownloadFile } from '@obol/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.ts';
import { escapeLike, rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { downloadFiles } from './tables.ts';
import { exportSpec, type ExportSpec } from './exports.ts';
import { headerQuery, linedChunkQuery, PGLITE_CHUNK, writeSqlRows } from './rows.ts';
import { csvFile, xlsxFile, type FileWriter } from './writer.ts';
import { yieldToRequests } from '../../platform/turns.ts';

export type FileRow = typeof downloadFiles.$inferSelect;

/**
 * The files a caller's tenant owns: staff files for staff, a merchant's (and its brands') for its team, a brand's
 * own.
 */
export function fileScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`${downloadFiles.merchantId} IS NULL`;
    case 'merchant':
      return sql`${downloadFiles.merchantId} = ${scope.merchantId}`;
    case 'brand':
      return sql`${downloadFiles.brandId} = ${scope.brandId}`;
    default:
      return sql`false`;
  }
}

export function toDownloadFile(f: FileRow): DownloadFile {
  return {
    id: f.id,
    file_name: f.fileName,
    start_date: f.startDate,
    end_date: f.endDate,
    is_download: f.status === 'Completed' ? 1 : 0,
    is_report: f.isReport ? 1 : 0,
    status: f.status as DownloadFile['status'],
    rows: f.rows,
    format: f.format as DownloadFile['format'],
    created_at: f.createdAt.toISOString(),
  };
}

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');

/** What an export is asked with: the list's filters (kept with the file for its job) and the format. */
export type ExportParams = Record<string, unknown> & {
  format: 'csv' | 'xlsx' | 'pdf';
  start_date?: string;
  end_date?: string;
};

/**
 * Whether an export would write any row: its first row looked up as the job would read it (a list's `rows`, else
 * its first `chunk`), in the caller's scope. A document (an invoice) always has its lines.
 */
async function hasRows(db: Executor, spec: ExportSpec, params: Record<string, unknown> & { scope: Scope }) {
  if (spec.write) return true;
  if (spec.rows) {
    const r = spec.rows(params.scope, params);
    return rowsOf(await db.execute(sql`SELECT 1 FROM ${r.from} WHERE ${r.where} LIMIT 1`)).length > 0;
  }
  return rowsOf(await db.execute(spec.chunk!(params.scope, params, null, 1))).length > 0;
}

/**
 * Starts an export of a kind its feature declared (defineExport): the file row (Initiated) and its job are
 * written in one transaction, so a file is listed if and only if its job exists. The caller's scope is kept
 * with it: the job exports what the caller may see. Filters that match nothing answer 404 'No record found' and
 * make no file (the spec's export answer), unless `allowEmpty` (a scheduled report: the month's file is made
 * whatever it holds).
 */
export async function startExport(
  deps: Deps,
  auth: AuthContext,
  spec: ExportSpec,
  params: ExportParams,
  tx?: Tx,
  { allowEmpty = false }: { allowEmpty?: boolean } = {},
): Promise<DownloadFile> {
  if (!allowEmpty && !(await hasRows(tx ?? deps.db, spec, { ...params, scope: auth.scope })))
    throw notFound(MSG.exportNoRecord);
  const now = new Date();
  const id = randomUUID();
  const kind = spec.kind;
  // a document may name its own file (an invoice its number)
  const base = typeof params.file_name === 'string' && params.file_name ? params.file_name : spec.fileName;
  const fileName = `${base}-${stamp(now)}.${params.format}`;
  const scope = auth.scope;
  const values = {
    ownerId: auth.user.id,
    merchantId: scope.kind === 'merchant' || scope.kind === 'brand' ? scope.merchantId : null,
    brandId: scope.kind === 'brand' ? scope.brandId : null,
    kind,
    fileName,
    isReport: spec.isReport ? 1 : 0,
    accounting: spec.accounting ? 1 : 0,
    format: params.format,
    storageKey: `exports/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${id}.${params.format}`,
    startDate: params.start_date || params.end_date || null,
    endDate: params.end_date || params.start_date || null,
    params: { ...params, scope },
  };
  if (values.startDate && values.endDate && values.startDate > values.endDate)
    [values.startDate, values.endDate] = [values.endDate, values.startDate];
  const run = async (t: Tx) => {
    const [row] = await t.insert(downloadFiles).values(values).returning();
    await deps.jobs.send('export.run', { fileId: row.id }, { tx: t, singletonKey: `export:${row.id}` });
    return row;
  };
  const row = tx ? await run(tx) : await deps.db.transaction(run);
  return toDownloadFile(row);
}

/** The answer of an export a screen asked for: its file, Initiated (a job writes it), named in the activity. */
export function exportStarted(req: FastifyRequest, file: DownloadFile) {
  req.audit.targetType = 'download_file';
  req.audit.targetId = file.id;
  return { message: [MSG.processingBackground], file };
}

const CHUNK = 5_000;

/**
 * A file asked for on someone's behalf (a scheduled report) mails them a link to the downloads once it is written;
 * a mail that fails is logged, the file stays.
 */
async function mailReady(deps: Deps, file: FileRow, params: Record<string, unknown>) {
  if (typeof params.notify_email !== 'string') return;
  const list = file.isReport ? '/download-reports' : '/download-transactions';
  try {
    await deps.mailer.send({
      to: params.notify_email,
      subject: `Obol: ${file.fileName} is ready`,
      text:
        `Your scheduled report ${file.fileName} (${file.startDate ?? ''} to ${file.endDate ?? ''}) is ready.\n\n` +
        `Download it from ${deps.config.publicUrl.replace(/\/$/, '')}${list} after signing in.\n`,
      template: 'report-ready',
    });
  } catch (err) {
    deps.log.warn({ err, fileId: file.id }, 'the report-ready mail could not be sent');
  }
}

/**
 * A report's rows (a spec with `chunk` and `cells`), chunk by chunk, each chunk's lines made by the database (cells.ts)
 * beside its columns, which give the cursor of the next chunk; the count.
 */
async function writeChunks(
  db: Executor,
  spec: ExportSpec,
  params: Record<string, unknown> & { scope: Scope },
  format: 'csv' | 'xlsx',
  writer: FileWriter,
  size: number,
  yieldBetween: boolean,
): Promise<number> {
  let rows = 0;
  let cursor: unknown = null;
  for (;;) {
    const query = linedChunkQuery(spec.chunk!(params.scope, params, cursor, size), spec.cells!, format, rows);
    const chunk = rowsOf<Record<string, unknown>>(await db.execute(query));
    if (!chunk.length) break;
    await writer.raw(chunk.map((r) => r._line).join(''));
    rows += chunk.length;
    cursor = spec.cursorOf!(chunk[chunk.length - 1]);
    if (chunk.length < size) break;
    if (yieldBetween) await yieldToRequests();
  }
  return rows;
}

/**
 * The export job: writes the rows to the file store and marks the file Completed. The database formats every row
 * (cells.ts). A list's export (a spec with `rows`) is one COPY on PostgreSQL, and on PGlite a snapshot of the keys
 * then short chunks so other requests run in between (rows.ts). A report is read in keyset chunks: on PostgreSQL
 * inside one read-only REPEATABLE READ transaction (one snapshot, nobody waits); on PGlite each chunk on its own, so
 * requests run in between, and the file holds each chunk as it was when read. Memory holds one chunk either way. A
 * rerun of a finished file does nothing; a failure marks it Failed.
 */
export async function runExport(deps: Deps, fileId: number): Promise<void> {
  const [file] = await deps.db.select().from(downloadFiles).where(eq(downloadFiles.id, fileId));
  if (!file || file.status !== 'Initiated') return;
  let out: Awaited<ReturnType<Deps['files']['create']>> | null = null;
  let rows = 0;
  try {
    const spec = exportSpec(file.kind);
    if (!spec) throw new Error(`unknown export kind ${file.kind}`);
    out = await deps.files.create(file.storageKey);
    const stream = out.stream;
    const params = file.params as Record<string, unknown> & { scope: Scope };
    if (spec.write) {
      // a document (an invoice): the spec writes the whole file itself
      const write = spec.write;
      rows = await deps.db.transaction((tx) => write(tx, params, stream), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
      });
      const bytes = await out.commit();
      await deps.db
        .update(downloadFiles)
        .set({ status: 'Completed', rows, bytes, completedAt: new Date() })
        .where(and(eq(downloadFiles.id, fileId), eq(downloadFiles.status, 'Initiated')));
      return;
    }
    const format = file.format === 'xlsx' ? 'xlsx' : 'csv';
    const writer = format === 'xlsx' ? await xlsxFile(stream) : await csvFile(stream);
    const [header] = rowsOf<{ line: string }>(await deps.db.execute(headerQuery(spec.header, format)));
    await writer.raw(header.line);
    if (spec.rows) {
      // COPY on PostgreSQL, short chunks by key on PGlite
      rows = await writeSqlRows(deps.database, spec.rows(params.scope, params), format, writer);
    } else if (deps.database.kind === 'pglite') {
      // one connection for every request: a report read in one transaction would hold them all for its length;
      // each chunk is its own short statement instead, the event loop free in between (as rows.ts does for lists)
      rows = await writeChunks(deps.db, spec, params, format, writer, PGLITE_CHUNK, true);
    } else {
      rows = await deps.db.transaction((tx) => writeChunks(tx, spec, params, format, writer, CHUNK, false), {
        isolationLevel: 'repeatable read',
        accessMode: 'read only',
      });
    }
    await writer.end();
    const bytes = await out.commit();
    const [done] = await deps.db
      .update(downloadFiles)
      .set({ status: 'Completed', rows, bytes, completedAt: new Date() })
      .where(and(eq(downloadFiles.id, fileId), eq(downloadFiles.status, 'Initiated')))
      .returning({ id: downloadFiles.id });
    if (done) await mailReady(deps, file, params);
  } catch (err) {
    await out?.abort().catch(() => undefined);
    deps.log.error({ err, fileId }, 'export failed');
    const message = err instanceof ApiError ? err.message : 'The export failed; please try again';
    await deps.db
      .update(downloadFiles)
      .set({ status: 'Failed', error: message, completedAt: new Date() })
      .where(and(eq(downloadFiles.id, fileId), eq(downloadFiles.status, 'Initiated')));
  }
}

export interface FileListQuery {
  page: number;
  perPage: number;
  search: string;
  isReport: 0 | 1;
  accounting: boolean;
}

/**
 * The download list of the caller's tenant, newest first: search by file name, or by a date (YYYY-MM-DD) of
 * creation or range.
 */
export async function listFiles(db: Executor, scope: Scope, q: FileListQuery) {
  const terms: SQL[] = [
    fileScope(scope),
    eq(downloadFiles.isReport, q.isReport),
    eq(downloadFiles.accounting, q.accounting ? 1 : 0),
  ];
  if (q.search) {
    // a real calendar date only: Date.parse takes 2026-02-30 (as 2 March), which PostgreSQL refuses
    const date = isCalendarDate(q.search) ? q.search : null;
    const named = sql`${downloadFiles.fileName} ILIKE ${`%${escapeLike(q.search)}%`}`;
    terms.push(
      date
        ? sql`(${named} OR ${downloadFiles.createdAt}::date = ${date}::date
              OR (${downloadFiles.startDate} <= ${date}::date AND ${downloadFiles.endDate} >= ${date}::date))`
        : named,
    );
  }
  const where = and(...terms);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(downloadFiles)
      .where(where)
      .orderBy(sql`${downloadFiles.createdAt} DESC, ${downloadFiles.id} DESC`)
      .limit(q.perPage)
      .offset((q.page - 1) * q.perPage),
    db
      .select({ total: sql<number>`count(*)::int`.mapWith(Number) })
      .from(downloadFiles)
      .where(where),
  ]);
  return { data: rows.map(toDownloadFile), total };
}

/** A file of the caller's tenant, or 404 exactly as for a file that does not exist. */
export async function findFile(db: Executor, scope: Scope, id: number): Promise<FileRow> {
  const [f] = await db
    .select()
    .from(downloadFiles)
    .where(and(fileScope(scope), eq(downloadFiles.id, id)));
  if (!f) throw notFound('File not found');
  return f;
}

export const CONTENT_TYPES: Record<string, string> = {
  csv: `${EXPORT_CONTENT_TYPES.csv}; charset=utf-8`,
  xlsx: EXPORT_CONTENT_TYPES.xlsx,
  pdf: EXPORT_CONTENT_TYPES.pdf,
};
