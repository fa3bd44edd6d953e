import { MSG, type ApiErrorBody } from '@obol/contract';
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
function touch() {
  lastActivity = Date.now();
  for (const l of activityListeners) l(lastActivity);
}

/** Calls where a 401 means a wrong password or code, not an ended session. */
const PUBLIC_CALLS = [
  '/api/login',
  '/api/verify-code',
  '/api/forgot-password',
  '/api/set-password',
  '/api/check-link-expiry',
];

export async function apiFetch(
  path: string,
  init: { method?: string; body?: unknown; raw?: boolean } = {},
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
  if (res.status === 401 && !PUBLIC_CALLS.includes(path) && token) {
    onExpired();
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
  if (token) touch();
  return res;
}

export async function api<T>(path: string, body?: unknown): Promise<T> {
  const res = await apiFetch(path, { body: body ?? {} });
  return (await res.json()) as T;
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
