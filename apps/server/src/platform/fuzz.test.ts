import { DEFAULT_ROLE_PERMISSIONS, isFileAnswer, type Permission, type RoleName } from '@obol/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  integerSample,
  nestedIntegerFields,
  notWholeNumbers,
} from '../../../../packages/contract/src/integer-fields.ts';
import { stageBatch } from '../features/batches/stage.ts';
import { stagedTransactions } from '../features/batches/tables.ts';
import { holderReference } from '../features/ledger/accounts.ts';
import { userIdByEmail } from '../seed.ts';
import { inputShape, type RouteInfo } from '../test/harness.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../test/with-provider.ts';
import { ALWAYS, NAUGHTY } from '../test/naughty.ts';
import type { Access } from './http.ts';

/**
 * Every field of every route, fed hostile values with the other fields valid-looking: no answer may be a 5xx,
 * and every 4xx is the JSON error envelope. The sample is fixed by FUZZ_SEED; FUZZ_SAMPLES values per field
 * (beside the ALWAYS ones) keep the run short. Run it larger by hand:
 *   FUZZ_SAMPLES=400 FUZZ_SEED=7 OBOL_TEST_DB=pglite npx vitest run src/platform/fuzz.test.ts
 * FUZZ_ROUTES=/api/a,/api/b fuzzes only those routes; FUZZ_TRACE=1 prints every call with its time and status.
 * Beside that, every id and integer field, top-level or inside arrays and objects (found by what its schema takes,
 * integer-fields.ts), is sent booleans, arrays, padded, zero-led, hex and signed numbers, and must answer 400
 * naming the field.
 * Not fuzzed past their first step on purpose: the provider webhook (it needs a signature: sent unsigned, it must
 * answer 401 whatever the body) and password checks (the sign-in limit is reached first, see below).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20260301);
const SAMPLES = Number(process.env.FUZZ_SAMPLES ?? 8);
/** a comma-separated list of urls to fuzz alone, when chasing one route */
const ONLY = process.env.FUZZ_ROUTES?.split(',').filter(Boolean);

const HEADER = 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount';
const CSV = `${HEADER}\nJane Doe,100000001,FZ-1,Acme Brand,Invoice 1,1500\n`;

let t: TestAppWithProvider;
const tokens: Partial<Record<'admin' | 'merchant' | 'spare', string>> = {};
let merchantId: number;
let batchId: string;
let rowIds: number[];

beforeAll(async () => {
  t = await startTestAppWithProvider({ provider: { settleMs: 50 } });
  // every sign-in first: the fuzzing of /api/login soon has the test's address throttled
  tokens.admin = await t.signIn('admin@obol.example');
  tokens.merchant = await t.signIn('merchant@obol.example');
  tokens.spare = await t.signIn('merchant@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  // the sign-in limit reached from the start: a password check (argon2) costs a second or more on a busy
  // machine, so the fuzzing of login and change-password stops at 429 once the input has been parsed
  t.config.limits.signInAddress.limit = 0;
  // the per-user limits would stop the fuzzing of uploads, exports and codes at their first 429
  for (const l of [t.config.limits.upload, t.config.limits.export, t.config.limits.approvalCode]) l.limit = 1e6;
  // a staged batch of three rows, so the batch routes reach their services
  const rows = [1, 2, 3].map((i) => `Jane Doe,10000000${i},FZ-${i},Acme Brand,Invoice ${i},${1500 + i}`);
  const up = await t.upload(
    '/api/upload-transactions',
    { file_name: 'fuzz', behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) },
    { name: 'fuzz.csv', content: `${HEADER}\n${rows.join('\n')}\n` },
    tokens.merchant,
  );
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  batchId = up.body.batch_id;
  // the staging job's work, done here: without workers no export or batch job competes with the fuzzing
  await stageBatch(t.deps, batchId);
  rowIds = (
    await t.deps.db
      .select({ id: stagedTransactions.id })
      .from(stagedTransactions)
      .where(eq(stagedTransactions.batchId, batchId))
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
  if (rowIds.length !== 3) throw new Error(`staging: ${rowIds.length} rows`);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

// ---------- the sample ----------

/** mulberry32: a small seeded generator, so a failure can be replayed */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, SEED);

/** ALWAYS, then `n` values of NAUGHTY drawn without replacement by a generator seeded with the seed and the key */
function sample(key: string, n = SAMPLES): unknown[] {
  const next = rng(hash(key));
  const pool = [...NAUGHTY];
  const out: unknown[] = [...ALWAYS];
  for (let i = 0; i < Math.min(n, pool.length); i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
    out.push(pool[i]);
  }
  return out;
}

// ---------- the routes and their fields ----------

type Role = 'admin' | 'merchant';
const EMAIL: Record<Role, string> = { admin: 'admin@obol.example', merchant: 'merchant@obol.example' };

/** valid-looking values by field name; a route may name its own (ids differ by route) */
function baseValue(r: RouteInfo, field: string, role: Role): unknown {
  const byRoute: Record<string, Record<string, unknown>> = {
    '/api/batch-progress': { id: batchId },
    '/api/update-transaction': { id: rowIds[0] },
    '/api/invoice': { date: '2025-01' },
    '/api/schedule-report': { kind: 'activity' },
    '/api/delete-transaction': { id: rowIds[1] },
    '/api/delete-transactions': { id: [rowIds[2]] },
    '/api/merchant-accounts': { id: merchantId },
    '/api/get-user-detail': { id: merchantId },
    '/api/change-merchant-status': { level_type: 'Brand' },
    '/api/accounting-transfer': { transfer_type: 'external_transfer', beneficiary_id: 'BEN-1', company_id: 1 },
    '/api/generate-accounting-otp': { transfer_type: 'external_transfer', beneficiary_id: 'BEN-1', company_id: 1 },
    '/api/create-accounting-rule': {
      transfer_type: 'external_transfer',
      beneficiary_id: 'BEN-1',
      company_id: 1,
      account_type: false,
      amount: '1500',
      interval_type: 'daily',
    },
    '/api/register-company': { name: 'Fuzz Co', api_key: 'ck_fuzz0000000000000009' },
    '/api/create-user': { rolename: 'Merchant', name: 'Fuzz Shop', payin_name: 'FUZZ', mId: 'MID-F', fee: '1' },
    // well-formed, though no authenticator made it (the server refuses it after its checks)
    '/api/passkey-register': {
      response: {
        id: 'Y3JlZA',
        rawId: 'Y3JlZA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
      },
    },
  };
  const known: Record<string, unknown> = {
    email: EMAIL[role],
    password: 'Fuzz@pass2',
    password_confirmation: 'Fuzz@pass2',
    current_password: 'Not@thepass1',
    auth_type: 'email',
    challenge_token: 'c'.repeat(43),
    token: 't'.repeat(43),
    code: '123456',
    batch_id: batchId,
    id: 1,
    obol_id: '100000001',
    amount: 1500,
    beneficiary_name: 'Jane Doe',
    brand: 'Acme Brand',
    reference: 'Invoice 1',
    merchant_transaction_id: 'FZ-9',
    account_reference: holderReference(merchantId),
    account_id: '0',
    iban: 'DE89370400440532013000',
    bic: 'DEUTDEFF',
    idempotency_key: 'fuzz-idempotency-1',
    date_of_birth: '1990-04-12',
    start_date: '2025-01-01',
    end_date: '2025-01-31',
    tz: 'Europe/Berlin',
    per_page: 10,
    page: 1,
    search: 'a',
    file_name: 'fuzz',
    merchant_name: 'Acme Payouts',
    cursor: '',
    level_type: 'User',
    rolename: 'Reviewer',
    role: 'Reviewer',
    role_name: 'Reviewer',
    permission_name: ['User can view transactions', 'User can view profile'],
    // a literal address: no DNS look-up (this machine's network is closed) for every fuzzed call
    url: 'http://127.0.0.1:9/fuzz',
    events: ['payin.completed'],
    endpoint_id: 1,
    delivery_id: 1,
  };
  const named = byRoute[r.url]?.[field] ?? known[field];
  if (named !== undefined) return named;
  return undefined;
}

/** a value for each field: the named one, else the first of a few plain values that the field's schema takes */
function baseBody(r: RouteInfo, role: Role): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, schema] of Object.entries(inputShape(r.input))) {
    const named = baseValue(r, field, role);
    const fits = [named, 'x', 1, '1', 'EUR', 'csv', '', true].find(
      (v) => v !== undefined && schema.safeParse(v).success,
    );
    if (fits !== undefined) body[field] = fits;
  }
  return body;
}

function holds(role: RoleName, access: Access | undefined): boolean {
  const perms = DEFAULT_ROLE_PERMISSIONS[role] as readonly Permission[];
  if (access === undefined || access === 'public' || access === 'authenticated') return true;
  if (typeof access === 'string') return perms.includes(access);
  if (Array.isArray(access)) return access.some((p) => perms.includes(p));
  return (access as { roles: readonly RoleName[] }).roles.includes(role);
}

// ---------- calling and judging ----------

const failures: string[] = [];
let calls = 0;
const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}... (${s.length})` : s;
};

function judge(what: string, status: number, text: string, contentType: unknown) {
  calls++;
  if (status >= 500) {
    failures.push(`${what} -> ${status} ${text.slice(0, 200)}`);
    return;
  }
  if (status < 400) return;
  let body: { error?: unknown } | undefined;
  try {
    body = JSON.parse(text) as { error?: unknown };
  } catch {
    body = undefined;
  }
  const envelope =
    String(contentType).startsWith('application/json') &&
    Array.isArray(body?.error) &&
    body.error.length > 0 &&
    body.error.every((m) => typeof m === 'string');
  if (!envelope) failures.push(`${what} -> ${status} without the error envelope: ${text.slice(0, 200)}`);
}

const spent = new Map<string, number>();
async function postJson(url: string, body: unknown, token: string | undefined, what: string) {
  const t0 = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: JSON.stringify(body),
  });
  const key = url.split('?')[0];
  spent.set(key, (spent.get(key) ?? 0) + performance.now() - t0);
  if (process.env.FUZZ_TRACE) console.log(Math.round(performance.now() - t0), res.statusCode, what.slice(0, 100));
  judge(what, res.statusCode, res.body, res.headers['content-type']);
}

async function get(url: string, token: string | undefined, what: string) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  judge(what, res.statusCode, res.body, res.headers['content-type']);
}

/** percent-encodes the UTF-8 of a value (a lone surrogate becomes U+FFFD, as a browser would send it) */
const encode = (v: unknown) =>
  [...Buffer.from(typeof v === 'string' ? v : JSON.stringify(v), 'utf8')]
    .map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16)}`))
    .join('');
/** query forms of a value: encoded, and raw when it is printable ASCII (so '%zz' and '%00' arrive as written) */
const queryForms = (v: unknown) => {
  const forms = [encode(v)];
  if (typeof v === 'string' && /^[\x21-\x7e]*$/.test(v) && !/[#&?]/.test(v)) forms.push(v);
  return forms;
};

/** routes that change what the others read run last: clearing the batch, deleting its rows, signing out */
const LAST = ['/api/delete-transaction', '/api/delete-transactions', '/api/clear-batch', '/api/logout'];
const UPLOAD = '/api/upload-transactions';
const WEBHOOK = '/api/provider/webhook';
/** a stream stays open (features/live/live.test.ts opens one): its query string is never read */
const isStream = (r: RouteInfo) =>
  !!r.operation && isFileAnswer(r.operation.output) && r.operation.output.file.includes('text/event-stream');

function apiRoutes(method: string) {
  return t.routes
    .filter((r) => r.method === method && r.url.startsWith('/api/') && (!ONLY || ONLY.includes(r.url)))
    .sort((a, b) => Number(LAST.includes(a.url)) - Number(LAST.includes(b.url)) || a.url.localeCompare(b.url));
}

/** `body` with `value` at `path` (arrays and objects made where the body has none). */
function setAt(body: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  let at: Record<string | number, unknown> = body;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      at[key] = value;
      return;
    }
    const next = at[key];
    if (next === null || typeof next !== 'object') at[key] = typeof path[i + 1] === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  });
  return body;
}

describe('fuzzing every route with hostile input', () => {
  it('knows the fields of every route with an input, and a body each schema takes', () => {
    const routes = apiRoutes('POST').filter((r) => r.input);
    if (!ONLY) expect(routes.length).toBeGreaterThan(25);
    for (const r of routes) {
      expect(Object.keys(inputShape(r.input)).length, r.url).toBeGreaterThan(0);
      for (const role of ['admin', 'merchant'] as const) {
        const parsed = r.input!.safeParse(baseBody(r, role));
        expect(parsed.error?.issues ?? [], `${role} ${r.url}`).toEqual([]);
      }
    }
  });

  it('answers every POST field with a 2xx or a 4xx in the envelope, never a 5xx', async () => {
    failures.length = 0;
    const started = Date.now();
    const routes = apiRoutes('POST').filter((r) => r.url !== UPLOAD && r.url !== WEBHOOK);
    if (!ONLY) expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) {
      for (const role of ['admin', 'merchant'] as const) {
        if (role === 'merchant' && !holds('Merchant', r.access)) continue;
        // signing out ends the session: it gets a session of its own
        const token = r.url === '/api/logout' ? tokens.spare : tokens[role];
        const base = baseBody(r, role);
        const fields = Object.keys(inputShape(r.input));
        // the merchant's pass is the text and date values of ALWAYS: its scope changes the queries, not the parsing
        const values = (field: string) =>
          role === 'admin' ? sample(`${r.url} ${field}`) : ALWAYS.filter((v) => typeof v === 'string');
        for (const field of fields) {
          for (const v of values(field)) {
            await postJson(r.url, { ...base, [field]: v }, token, `${role} POST ${r.url} ${field}=${show(v)}`);
          }
        }
        // the body as a whole, an unknown field, and the query string
        const whole = [
          ...ALWAYS.slice(0, 3),
          ...(role === 'admin' ? sample(`${r.url} *`, 4).slice(ALWAYS.length) : []),
        ];
        for (const v of whole) {
          await postJson(r.url, v, token, `${role} POST ${r.url} body=${show(v)}`);
          await postJson(r.url, { ...base, fuzz_extra: v }, token, `${role} POST ${r.url} unknown field=${show(v)}`);
          for (const q of queryForms(v))
            await postJson(`${r.url}?${fields[0] ?? 'q'}=${q}`, base, token, `${role} POST ${r.url}?${q}`);
        }
      }
    }
    console.log(`fuzz POST: ${calls} calls in ${Date.now() - started} ms (seed ${SEED}, ${SAMPLES} per field)`);
    const slowest = [...spent].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(slowest.map(([u, ms]) => `${u} ${Math.round(ms)} ms`).join('\n'));
    expect(failures).toEqual([]);
  }, 600_000);

  it('answers the upload form fields (with a tiny valid CSV) with a 2xx or a 4xx, never a 5xx', async () => {
    failures.length = 0;
    const base = {
      file_name: 'fuzz',
      behalf_of_id: String(merchantId),
      account_reference: holderReference(merchantId),
    };
    for (const role of ['admin', 'merchant'] as const) {
      for (const field of Object.keys(base)) {
        for (const v of role === 'admin' ? sample(`${UPLOAD} ${field}`) : ALWAYS.filter((x) => typeof x === 'string')) {
          const value = typeof v === 'string' ? v : JSON.stringify(v);
          const res = await t.upload(
            UPLOAD,
            { ...base, [field]: value },
            { name: 'fuzz.csv', content: CSV },
            tokens[role],
          );
          judge(`${role} upload ${field}=${show(v)}`, res.status, res.text, res.headers['content-type']);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers 400 naming the field to booleans, arrays and padded numbers in every id and integer field', async () => {
    // the admin, or the merchant for the calls only merchants and brands make (their webhooks)
    const caller = (r: RouteInfo) => (holds('Admin', r.access) ? tokens.admin : tokens.merchant);
    const wrong: string[] = [];
    let checked = 0;
    const expect400 = (what: string, field: string, status: number, text: string) => {
      checked++;
      let named = false;
      try {
        named = !!(JSON.parse(text) as { fields?: Record<string, unknown> }).fields?.[field];
      } catch {
        named = false;
      }
      if (status !== 400 || !named) wrong.push(`${what} -> ${status} ${text.slice(0, 120)}`);
    };
    for (const r of apiRoutes('POST').filter((x) => x.input && x.url !== WEBHOOK)) {
      const base = baseBody(r, 'admin');
      for (const [field, schema] of Object.entries(inputShape(r.input))) {
        const n = integerSample(schema);
        if (n === undefined) continue;
        // null, where the field is required (elsewhere it means none: no parent, no filter)
        const values = [...notWholeNumbers(n), ...(schema.safeParse(null).success ? [] : [null])];
        for (const v of values) {
          const what = `POST ${r.url} ${field}=${show(v)}`;
          if (r.url === UPLOAD) {
            // a form field is text: the text forms only
            if (typeof v !== 'string') continue;
            const form = Object.fromEntries(Object.entries({ ...base, [field]: v }).map(([k, x]) => [k, String(x)]));
            const res = await t.upload(UPLOAD, form, { name: 'fuzz.csv', content: CSV }, tokens.admin);
            expect400(what, field, res.status, res.text);
            continue;
          }
          const res = await t.app.inject({
            method: 'POST',
            url: r.url,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${caller(r)}` },
            payload: JSON.stringify({ ...base, [field]: v }),
          });
          expect400(what, field, res.statusCode, res.body);
        }
      }
    }
    // ids inside arrays and nested objects (the elements of delete-transactions' id list): the same rule
    let nested = 0;
    for (const r of apiRoutes('POST').filter((x) => x.input && x.url !== WEBHOOK && x.url !== UPLOAD)) {
      const base = baseBody(r, 'admin');
      for (const { path, n } of nestedIntegerFields(r.input)) {
        for (const v of [...notWholeNumbers(n), null]) {
          const body = setAt(structuredClone(base), path, v);
          const field = path.join('.');
          const res = await t.app.inject({
            method: 'POST',
            url: r.url,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${caller(r)}` },
            payload: JSON.stringify(body),
          });
          nested++;
          expect400(`POST ${r.url} ${field}=${show(v)}`, field, res.statusCode, res.body);
        }
      }
    }
    expect(nested).toBeGreaterThan(15);
    for (const r of apiRoutes('GET').filter((x) => x.input)) {
      for (const [field, schema] of Object.entries(inputShape(r.input))) {
        const n = integerSample(schema);
        if (n === undefined) continue;
        // a query string has text only, and a name given twice is an array
        for (const q of [
          `%20${n}`,
          `${n}%20`,
          `%20%20${n}`,
          `%09${n}`,
          `0${n}`,
          `00${n}`,
          `0x${n}`,
          `%2B${n}`,
          `${n}.0`,
          `${n}&${field}=${n}`,
        ]) {
          const url = `${r.url.replace(/:(\w+)/g, '1')}?${field}=${q}`;
          const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.admin}` } });
          expect400(`GET ${url}`, field, res.statusCode, res.body);
        }
      }
    }
    expect(checked).toBeGreaterThan(800);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('answers unsigned webhooks with a 401, whatever the body', async () => {
    failures.length = 0;
    for (const v of sample(`${WEBHOOK} body`)) {
      for (const body of [v, { event_id: v, type: 'payout.completed', data: { id: v } }]) {
        const res = await t.app.inject({
          method: 'POST',
          url: WEBHOOK,
          headers: { 'content-type': 'application/json', 'x-provider-signature': 'sha256=00' },
          payload: JSON.stringify(body),
        });
        judge(`webhook ${show(body)}`, res.statusCode, res.body, res.headers['content-type']);
        expect(res.statusCode).toBe(401);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers every GET query string and route parameter with a 2xx or a 4xx, never a 5xx', async () => {
    failures.length = 0;
    const routes = apiRoutes('GET').filter((r) => !isStream(r));
    expect(routes.length).toBeGreaterThan(1);
    for (const r of routes) {
      const names = [...Object.keys(inputShape(r.input)), 'q'];
      for (const v of sample(`GET ${r.url}`)) {
        for (const form of queryForms(v)) {
          const path = r.url.replace(/:(\w+)/g, () => form);
          await get(path, tokens.admin, `GET ${path}`);
          for (const name of names)
            await get(`${r.url.replace(/:(\w+)/g, '1')}?${name}=${form}`, tokens.admin, `GET ${r.url}?${name}=${form}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
