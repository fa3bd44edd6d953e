import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { TEXT_MSG, unsafeNameIssue } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { refuseUnsafeText } from './http.ts';

/**
 * Reading multipart/form-data, in one place (decisions: "Uploaded files"): the upload's streaming reader and the
 * check and messages shared with the list calls that take form data (forms.ts). A form that cannot be read, of
 * whatever kind (no boundary, a body that ends before its closing delimiter, a malformed part), is a 400 that
 * says which, never the parser's own error as a 500.
 */
export const MULTIPART_MSG = {
  notMultipart: 'Send the file as multipart/form-data',
  noBoundary: 'The form data has no boundary: send it as multipart/form-data; boundary=... (1 to 70 characters)',
  cutShort: 'The form data ended before its closing boundary: send it again, whole',
  malformed: 'The form data is not valid multipart/form-data',
  tooManyParts: 'The form has too many fields or files',
} as const;

/** A 400 about the form, naming `field` (the upload's `file`) when given. */
export const formRefused = (message: string, field?: string) =>
  new ApiError(400, [message], field ? { [field]: [message] } : undefined);

/**
 * The boundary of a multipart/form-data content type, or null when it has none: absent, empty (also as ""), or
 * longer than the 70 characters RFC 2046 allows.
 */
export function boundaryOf(contentType: string | undefined): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = match ? (match[1] ?? match[2]) : '';
  return boundary.length >= 1 && boundary.length <= 70 ? boundary : null;
}

/**
 * Why a whole multipart body that the parser refused could not be read: it has no closing delimiter
 * (`--boundary--`, cut short or never terminated), or it is malformed otherwise.
 */
export function unreadableBody(body: Buffer, boundary: string): string {
  const close = Buffer.from(`--${boundary}--`);
  const at = body.lastIndexOf(close);
  // the closing delimiter opens the body or follows a line break
  const closed = at === 0 || (at > 1 && body[at - 2] === 0x0d && body[at - 1] === 0x0a);
  return closed ? MULTIPART_MSG.malformed : MULTIPART_MSG.cutShort;
}

/** What the streaming reader (busboy, through @fastify/multipart) failed with, as the message to answer. */
function readerMessage(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return MULTIPART_MSG.tooManyParts;
  // busboy: 'Unexpected end of form', 'Unexpected end of file'; the plugin: the request closed before the end
  if (code === 'FST_MP_PREMATURE_CLOSE' || /unexpected end/i.test(message ?? '')) return MULTIPART_MSG.cutShort;
  if (/boundary/i.test(message ?? '')) return MULTIPART_MSG.noBoundary;
  return MULTIPART_MSG.malformed;
}

export interface MultipartLimits {
  /** bytes of the one file */
  fileSize: number;
  /** text fields, and the characters of each */
  fields: number;
  fieldSize: number;
}

/**
 * Registers the streaming multipart reader for the routes `declare` adds, in a scope of their own (the other
 * calls keep forms.ts's whole-body reading). One file per form.
 */
export function multipartRoutes(
  app: FastifyInstance,
  limits: MultipartLimits,
  declare: (scope: FastifyInstance) => void,
): void {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { ...limits, files: 1 } });
    declare(scope);
  });
}

export interface UploadedForm {
  /** the text fields, each checked by the text rule */
  fields: Record<string, string>;
  /** the file part named `fileField`, written to `saveTo`; null when the form had none */
  file: { name: string; truncated: boolean } | null;
}

/**
 * Reads a multipart form as it streams in: its text fields, and the one file part named `fileField` written
 * to `saveTo` (other file parts are skipped). A request that is not multipart, has no boundary, or whose form
 * cannot be read answers 400 naming `fileField` (MULTIPART_MSG); the text fields go through the text rule. An
 * error writing `saveTo` is not the client's and is thrown as it is. The caller removes `saveTo` on failure.
 */
export async function readUpload(req: FastifyRequest, fileField: string, saveTo: string): Promise<UploadedForm> {
  if (!req.isMultipart()) throw formRefused(MULTIPART_MSG.notMultipart, fileField);
  if (!boundaryOf(req.headers['content-type'])) throw formRefused(MULTIPART_MSG.noBoundary, fileField);
  const fields: Record<string, string> = {};
  let file: UploadedForm['file'] = null;
  // which errors are the form's: everything the reader raises, and a file part's stream failing as it is read
  // (an error writing saveTo is not)
  let fromReader: unknown = undefined;
  try {
    let parts: AsyncIterableIterator<Awaited<ReturnType<FastifyRequest['file']>>>;
    try {
      parts = req.parts() as typeof parts;
    } catch (err) {
      fromReader = err;
      throw err;
    }
    while (true) {
      let next;
      try {
        next = await parts.next();
      } catch (err) {
        fromReader = err;
        throw err;
      }
      if (next.done) break;
      const part = next.value!;
      if (part.type !== 'file') {
        fields[part.fieldname] = String((part as { value?: unknown }).value ?? '');
        continue;
      }
      if (part.fieldname !== fileField || file) {
        part.file.resume();
        continue;
      }
      // the file's own name is kept and shown: the name variant of the text rule
      const nameIssue = unsafeNameIssue(part.filename);
      if (nameIssue) {
        req.audit.detail = `refused text: ${nameIssue} in the file's name`;
        throw formRefused(TEXT_MSG.notAllowed('The file name'), fileField);
      }
      try {
        await pipeline(part.file, createWriteStream(saveTo));
      } catch (err) {
        // over the file's limit: the caller refuses the file as too large; the rest of the form is not read
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          file = { name: part.filename, truncated: true };
          break;
        }
        // the part's own stream failed (the form ended inside it), not the writing of saveTo
        if (err === part.file.errored) fromReader = err;
        throw err;
      }
      file = { name: part.filename, truncated: part.file.truncated };
    }
  } catch (err) {
    if (fromReader !== undefined && err === fromReader) throw formRefused(readerMessage(err), fileField);
    throw err;
  }
  refuseUnsafeText(req, fields);
  return { fields, file };
}
