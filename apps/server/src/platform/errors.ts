import type { ApiErrorBody } from '@obol/contract';
import { MSG } from '@obol/contract';
import { z } from 'zod';

/** An error the client should see: status and the messages of the error envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly messages: string[];
  readonly fields?: Record<string, string[]>;
  /** response headers that go with the error (Retry-After on a 429) */
  readonly headers?: Record<string, string>;
  constructor(status: number, messages: string[], fields?: Record<string, string[]>, headers?: Record<string, string>) {
    super(messages[0] ?? `HTTP ${status}`);
    this.status = status;
    this.messages = messages;
    this.fields = fields;
    this.headers = headers;
  }
  body(requestId?: string): ApiErrorBody {
    const b: ApiErrorBody = { error: this.messages };
    if (this.fields) b.fields = this.fields;
    if (requestId && this.status >= 500) b.request_id = requestId;
    return b;
  }
}

export const badRequest = (message: string, field?: string) =>
  new ApiError(400, [message], field ? { [field]: [message] } : undefined);
export const unauthorized = (message: string = MSG.sessionExpired) => new ApiError(401, [message]);
export const forbidden = (message: string = MSG.forbidden) => new ApiError(403, [message]);
export const notFound = (message: string = MSG.notFound) => new ApiError(404, [message]);
export const conflict = (message: string) => new ApiError(409, [message]);
export const unprocessable = (message: string, field?: string) =>
  new ApiError(422, [message], field ? { [field]: [message] } : undefined);
/** 429; with `retryAfterSeconds` the answer carries a Retry-After header. */
export const tooManyRequests = (message: string = MSG.tooManyAttempts, retryAfterSeconds?: number) =>
  new ApiError(
    429,
    [message],
    undefined,
    retryAfterSeconds === undefined ? undefined : { 'retry-after': String(retryAfterSeconds) },
  );

const valueAt = (input: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );

/**
 * A 400 naming every invalid field with its message. A field that is absent (or null) gets 'This field is
 * required'; a field that is present but of the wrong type or value keeps its own message. `input` is what
 * was parsed (zod does not report it in its issues).
 */
export function fromZod(error: z.ZodError, input: unknown): ApiError {
  const fields: Record<string, string[]> = {};
  const messages: string[] = [];
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    const absent = issue.path.length > 0 && valueAt(input, issue.path) == null;
    const msg =
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') && absent
        ? MSG.required
        : issue.message;
    (fields[field] ??= []).push(msg);
    messages.push(msg);
  }
  return new ApiError(400, messages, fields);
}
