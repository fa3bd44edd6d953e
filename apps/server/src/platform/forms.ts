import type { Operation } from '@obol/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { boundaryOf, formRefused, MULTIPART_MSG, unreadableBody } from './multipart.ts';

/** Most fields a form may carry: a list's filters are about twenty. */
const MAX_FIELDS = 100;

/** A form body as the input schema reads it: one string per field, a field given twice an array of its strings. */
type FormBody = Record<string, string | string[]>;

function collect(entries: Iterable<[string, unknown]>): FormBody {
  const body: FormBody = Object.create(null);
  let n = 0;
  for (const [key, value] of entries) {
    if (++n > MAX_FIELDS) throw new ApiError(400, [`A form may have at most ${MAX_FIELDS} fields`]);
    if (typeof value !== 'string') throw new ApiError(400, ['This call takes text fields, not files']);
    const had = body[key];
    body[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  // a plain object, so the text rule and the schemas see it as they see a JSON body
  return { ...body };
}

/** The contract operation a request is routed to (route() keeps it in the route's config). */
const operationOf = (req: FastifyRequest) =>
  (req.routeOptions.config as { operation?: Operation } | undefined)?.operation;

/** Refuses a form sent to a call that takes JSON only: 415, as before forms were read at all. */
function refuseUnlessForm(req: FastifyRequest) {
  if (operationOf(req)?.form) return;
  throw Object.assign(new Error('The request body must be JSON'), {
    statusCode: 415,
    code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  });
}

/**
 * The spec sends some list calls as form data (decisions.md, "Form data"): an operation marked `form` takes
 * `application/x-www-form-urlencoded` and `multipart/form-data` as well as JSON. Both are read whole (the body
 * limit holds) by the platform's own parsers (URLSearchParams, and undici's FormData through Response) into the
 * same object a JSON body gives, with every value a string; the input schema then reads it as it reads JSON
 * (numbers from strings of digits). A file part is refused; any other call answers 415 to a form, as before.
 * Multipart is matched by a pattern, so the upload's own scope (@fastify/multipart, registered by its exact type)
 * keeps its streaming parser.
 */
export function registerFormBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, text, done) => {
    try {
      refuseUnlessForm(req);
      done(null, collect(new URLSearchParams(text as string)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser(/^multipart\/form-data(;|$)/i, { parseAs: 'buffer' }, (req, raw, done) => {
    try {
      refuseUnlessForm(req);
    } catch (err) {
      return done(err as Error, undefined);
    }
    const type = req.headers['content-type'] ?? '';
    // the form's faults are said as the upload says them (multipart.ts): undici's own error says none
    const boundary = boundaryOf(type);
    if (!boundary) return done(formRefused(MULTIPART_MSG.noBoundary), undefined);
    new Response(raw as Buffer, { headers: { 'content-type': type } })
      .formData()
      .then((form) => collect(form.entries()))
      .then(
        (body) => done(null, body),
        (err: unknown) =>
          done(err instanceof ApiError ? err : formRefused(unreadableBody(raw as Buffer, boundary)), undefined),
      );
  });
}
