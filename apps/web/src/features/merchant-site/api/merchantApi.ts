import type { CreatePayinLinkRequest, PayinLinkResponse } from '@obol/contract';

/** The answer of a merchant API call, or its error as the API says it. */
async function post<T>(path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string[]; fields?: Record<string, string[]> };
  if (!res.ok)
    throw Object.assign(new Error(json.error?.[0] ?? `HTTP ${res.status}`), {
      fields: json.fields,
      status: res.status,
    });
  return json as T;
}

/**
 * The shop's API key (`public:private`) buys a token at /api/token, which asks /api/create-payin-link under the
 * attempt's Idempotency-Key. A refusal throws with the API's message, its `fields` and the HTTP `status`.
 */
export async function createPayinLink(apiKey: string, idempotencyKey: string, body: CreatePayinLinkRequest) {
  const { access_token } = await post<{ access_token: string }>('/api/token', { 'x-api-key': apiKey });
  return post<PayinLinkResponse>(
    '/api/create-payin-link',
    { authorization: `Bearer ${access_token}`, 'idempotency-key': idempotencyKey },
    body,
  );
}
