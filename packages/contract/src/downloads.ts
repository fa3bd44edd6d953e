import { z } from 'zod';
import { textFilter } from './listFilters.ts';
import { messages, operation, pageOf, timestamp } from './operation.ts';
import { INT4_MAX, pageField, perPageField, wholeNumber } from './params.ts';
import type { Permission } from './permissions.ts';

/** Messages of the download lists. */
export const DOWNLOAD_MSG = {
  fileNotReady: 'The file is not ready yet',
} as const;

export const DOWNLOADS_PER_PAGE = 20;

/** The format of an export: CSV (the default) or Excel. */
export const exportFormat = z.enum(['csv', 'xlsx'], { error: 'format must be csv or xlsx' }).optional().default('csv');

/** The content types of an export's file, by format. */
export const EXPORT_CONTENT_TYPES = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  /** invoices */
  pdf: 'application/pdf',
} as const;

const downloadFilesRequest = z.object({
  per_page: perPageField(100, DOWNLOADS_PER_PAGE),
  page: pageField(),
  search: textFilter('search'),
  /** 0 transaction files, 1 reports */
  type: z
    .union([z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], { error: 'type must be 0 or 1' })
    .transform(Number)
    .optional()
    .default(0),
  /** accounting (2D) transaction files */
  accounting: z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.literal('')], {
      error: 'accounting must be true or false',
    })
    .optional()
    .transform((v) => v === true || v === 1 || v === '1'),
});

/**
 * The file's id in the address. One that is not a file id names no file: it answers 404, as a file that does not
 * exist does, so the address tells nothing about which files exist.
 */
const downloadFileParams = z.object({
  id: z.string().transform((s) => {
    const id = wholeNumber('id', 1, INT4_MAX).safeParse(s);
    return id.success ? id.data : 0;
  }),
});

// ---------- answers ----------

/** A generated file: an export of a list or a report. */
export const downloadFile = z.object({
  id: z.number().int(),
  file_name: z.string(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  /** 0 initiated, 1 completed */
  is_download: z.union([z.literal(0), z.literal(1)]),
  /** 0 transaction file, 1 report */
  is_report: z.union([z.literal(0), z.literal(1)]),
  status: z.enum(['Initiated', 'Completed', 'Failed']),
  rows: z.number().int().nullable(),
  format: z.enum(['csv', 'xlsx', 'pdf']),
  created_at: timestamp,
});
export type DownloadFile = z.output<typeof downloadFile>;

const downloadFilesResponse = pageOf(downloadFile);
export type DownloadFilesResponse = z.output<typeof downloadFilesResponse>;

/** What starting an export answers: the message and the file, Initiated, that its job will write. */
export const exportResponse = z.object({ message: messages, file: downloadFile });

// ---------- the calls ----------

/** Which list a file is in decides the permission needed to see it. */
const DOWNLOAD_ACCESS = [
  'User can view transactions',
  'User can view download reports',
  'User can view accounting transactions',
] as const satisfies readonly Permission[];

const TAG = 'Downloads';
export const downloadOps = {
  downloadFiles: operation({
    id: 'downloadFiles',
    method: 'POST',
    path: '/api/download-files',
    tag: TAG,
    summary:
      "The generated files of the caller's tenant, newest first: transaction files, reports or 2D transaction " +
      'files (each needs its own permission); search by file name or date',
    access: DOWNLOAD_ACCESS,
    input: downloadFilesRequest,
    output: downloadFilesResponse,
  }),
  downloadFile: operation({
    id: 'downloadFile',
    method: 'GET',
    path: '/api/download-file/:id',
    tag: TAG,
    summary: "A completed file of the caller's tenant (409 while it is being written)",
    access: DOWNLOAD_ACCESS,
    audit: 'download.file',
    params: downloadFileParams,
    output: { file: [EXPORT_CONTENT_TYPES.csv, EXPORT_CONTENT_TYPES.xlsx, EXPORT_CONTENT_TYPES.pdf] },
  }),
} as const;
