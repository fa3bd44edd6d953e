import { createServer, type Server } from 'node:http';
import { buildProvider, type Provider, type ProviderOptions } from './app.ts';

/** Test harness: a webhook receiver on port 0 and the simulator in process on port 0. */
export const KEY = 'test-key-123';
export const SECRET = 'test-secret-123';

export interface Received {
  body: string;
  sig: string;
  event: { event_id: string; type: string; created_at: string; data: Record<string, any> };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** status the receiver answers; events are recorded only when it answers 2xx */
  status: number;
  /** the bodies of the POSTs answered 2xx (a batched delivery carries several events in one) */
  posts: string[];
  attempts: number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: '', received: [], posts: [], status: 200, attempts: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      r.attempts += 1;
      if (r.status >= 200 && r.status < 300) {
        r.posts.push(body);
        const parsed = JSON.parse(body) as { events?: Received['event'][] } & Received['event'];
        // a batched delivery: each of its events is recorded with the body and signature they came in
        for (const event of parsed.events ?? [parsed])
          r.received.push({ body, sig: String(req.headers['x-provider-signature']), event });
      }
      res.statusCode = r.status;
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  r.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  r.close = () => new Promise((ok) => server.close(() => ok()));
  return r;
}

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export function client(base: string, key = KEY) {
  return async function call(method: string, path: string, body?: unknown, k: string | null = key): Promise<Answer> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(k ? { authorization: `Bearer ${k}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: res.status, body: json, text };
  };
}

export async function startProvider(webhookUrl: string, opts: ProviderOptions = {}) {
  const provider: Provider = await buildProvider({
    apiKey: KEY,
    webhookSecret: SECRET,
    webhookUrl,
    settleMs: 50,
    ...opts,
  });
  const base = await provider.listen(0);
  return { provider, base, call: client(base) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(pred: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

let n = 0;
export const uniqueKey = (prefix = 'k') => `${prefix}-${Date.now()}-${n++}`;

export const payoutBody = (over: Record<string, unknown> = {}) => ({
  idempotency_key: uniqueKey('po'),
  reference: 'ref',
  obol_id: '100000001',
  amount: 1000,
  currency: 'EUR',
  beneficiary_name: 'Ana Novak',
  brand: 'Acme Brand',
  ...over,
});

export const transferBody = (over: Record<string, unknown> = {}) => ({
  idempotency_key: uniqueKey('tr'),
  iban: 'DE89370400440532013000',
  bic: 'DEUTDEFF',
  amount: 500,
  beneficiary_name: 'Ana Novak',
  reference: 'rent',
  ...over,
});

/** a form post to a hosted page, as a browser sends it (redirects not followed) */
export const form = (url: string, fields: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
