import { MSG, type ApiErrorBody, type InputOf, type Operation, type OutputOf } from '@obol/contract';
import { sessionStore } from './session.ts';

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: ApiErrorBody | null,
  ) {
    super(body?.error?.[0] ?? `HTTP ${status}`);
  }
  /** the message to show: the server's first error for 400/401/403/404/500, a generic one otherwise */
  get display(): string {
    if ([400, 401, 403, 404, 409, 422, 429, 500].includes(this.status) && this.body?.error?.[0])
      return this.body.error[0];
    return MSG.somethingWrong;
  }
  fieldError(field: string): string | undefined {
    return this.body?.fields?.[field]?.[0];
  }
}

type ExpiredHandler = () => void;
let onExpired: ExpiredHandler = () => undefined;
/** The app registers what a 401 does: clear the session, say 'Session expired', go to /signin. */
export function setSessionExpiredHandler(h: ExpiredHandler) {
  onExpired = h;
}

let lastActivity = Date.now();
const activityListeners = new Set<(at: number) => void>();
export const activity = {
  last: () => lastActivity,
  subscribe(l: (at: number) => void) {
    activityListeners.add(l);
    return () => activityListeners.delete(l);
  },
};
/** Records a successful call (the server restarts its idle timer on each one). */
export function markActivity(at = Date.now()) {
  lastActivity = at;
  for (const l of activityListeners) l(lastActivity);
}

export async function apiFetch(
  path: string,
  init: { method?: string; body?: unknown; raw?: boolean; public?: boolean } = {},
): Promise<Response> {
  const token = sessionStore.get()?.token;
  const isForm = typeof FormData !== 'undefined' && init.body instanceof FormData;
  const res = await fetch(path, {
    method: init.method ?? 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
  });
  if (res.status === 401 && !init.public && token) {
    // several calls may fail together; only the first one ends the session
    if (sessionStore.get()?.token === token) onExpired();
    throw new ApiError(401, { error: [MSG.sessionExpired] });
  }
  if (!res.ok) {
    let body: ApiErrorBody | null = null;
    try {
      body = (await res.json()) as ApiErrorBody;
    } catch {
      body = null;
    }
    throw new ApiError(res.status, body);
  }
  markActivity();
  return res;
}

type ParamsOf<O extends Operation> = O['params'] extends import('zod').ZodType
  ? import('zod').input<O['params']>
  : undefined;

/** The request of an operation: its path (with parameters), method and body or query string. */
function request<O extends Operation>(op: O, input?: InputOf<O>, params?: ParamsOf<O>) {
  let path = op.path.replace(/:(\w+)/g, (_m, name: string) =>
    encodeURIComponent(String((params as Record<string, unknown> | undefined)?.[name] ?? '')),
  );
  if (op.method === 'GET' && input) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(input as Record<string, unknown>))
      if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    if (q.size) path += `?${q}`;
  }
  const body = op.method === 'GET' ? undefined : op.multipart ? input : (input ?? {});
  return apiFetch(path, { method: op.method, body, public: op.access === 'public' });
}

/**
 * Calls an operation of the contract (packages/contract): the path, the method and the types of what is sent
 * and answered all come from the operation, so a call cannot drift from the server's route.
 */
export async function call<O extends Operation>(op: O, input?: InputOf<O>, params?: ParamsOf<O>): Promise<OutputOf<O>> {
  const res = await request(op, input, params);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as OutputOf<O>;
}

/** Calls an operation whose answer is a file, and saves it as a download. */
export async function download<O extends Operation>(
  op: O,
  fallbackName: string,
  input?: InputOf<O>,
  params?: ParamsOf<O>,
) {
  await saveResponse(await request(op, input, params), fallbackName);
}

/**
 * The message of a failed sign-in step (login, verify-code): the server's first error for
 * 400/401/403/404/429/500, 'Something went wrong!' otherwise.
 */
export function signInErrorMessage(err: unknown): string {
  if (err instanceof ApiError && [400, 401, 403, 404, 422, 429, 500].includes(err.status) && err.body?.error?.[0])
    return err.body.error[0];
  return MSG.somethingWrong;
}

/**
 * The message of a failed export or report (the spec's export answers): the server's for 400 (e.g. 'Date Range is
 * required'), 404 ('No record found') and 429; 'Something went wrong' otherwise.
 */
export function exportErrorMessage(err: unknown): string {
  if (err instanceof ApiError && [400, 403, 404, 422, 429].includes(err.status) && err.body?.error?.[0])
    return err.body.error[0];
  return MSG.exportFailed;
}

/** The server's first word on each field of a refused request; undefined when it named no field. */
export function fieldErrors(err: unknown): Record<string, string> | undefined {
  const fields = err instanceof ApiError ? err.body?.fields : undefined;
  return fields && Object.fromEntries(Object.entries(fields).map(([k, m]) => [k, m[0]]));
}

/** The message to show for any failed call. */
export function errorMessage(err: unknown): string {
  return err instanceof ApiError ? err.display : MSG.somethingWrong;
}

/** Saves a response as a file download. */
export async function saveResponse(res: Response, fallbackName: string) {
  const blob = await res.blob();
  const cd = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(cd)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
