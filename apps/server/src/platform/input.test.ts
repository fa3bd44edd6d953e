import { readdirSync } from 'node:fs';
import path from 'node:path';
import { NAME_FIELD, TEXT_MSG, TRX_MSG } from '@obol/contract';
import { count, desc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batches } from '../features/batches/tables.ts';
import { holderReference } from '../features/ledger/accounts.ts';
import { decodeCursor, encodeCursor } from '../features/transactions/query.ts';
import { userIdByEmail } from '../seed.ts';
import { inputShape, startTestApp, type RouteInfo, type TestApp } from '../test/harness.ts';
import { rowsOf } from './db.ts';
import { activityLog } from '../schema.ts';

/** The input rules (docs/decisions/003-input.md), and a regression test for each 5xx the fuzz test found. */

let t: TestApp;
let admin: string;
let merchantId: number;
let merchantToken: string;

/** A route kept to roles without the Admin (a merchant's own API key) is called as the merchant. */
const callerOf = (r: RouteInfo) =>
  r.access && typeof r.access === 'object' && 'roles' in r.access && !r.access.roles.includes('Admin')
    ? merchantToken
    : admin;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.signIn('admin@obol.example');
  merchantToken = await t.signIn('merchant@obol.example');
  merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
});
afterAll(async () => {
  await t?.close();
});

const notAllowed = (field: string) => ({ [field]: [TEXT_MSG.notAllowed(field)] });

describe('the text rule, on every route', () => {
  // a NUL gave a 500 on 41 fields of 23 routes (PostgreSQL refuses it in text); a lone surrogate on the
  // exports (jsonb refuses it) and the wallet checker (encodeURIComponent throws)
  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone surrogate', 'Jane \ud83d'],
    ['a C1 control', 'a\u0085b'],
    ['an escape', 'a\u001b[31mred'],
  ])('refuses %s in any field of any JSON route with a 400 naming the field', async (_what, value) => {
    const routes = t.routes.filter((r) => r.method === 'POST' && r.input);
    expect(routes.length).toBeGreaterThan(25);
    let checked = 0;
    for (const r of routes) {
      for (const field of Object.keys(inputShape(r.input))) {
        const res = await t.post(r.url, { [field]: value }, callerOf(r));
        expect(res.status, `${r.url} ${field}`).toBe(400);
        expect(res.body, `${r.url} ${field}`).toEqual({
          error: [TEXT_MSG.notAllowed(field)],
          fields: notAllowed(field),
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('refuses direction overrides in every name field of every JSON route, naming the field', async () => {
    // 'Invoice\u202Efdp.exe' shows as 'Invoiceexe.pdf' in a list, a file or a mail subject
    let checked = 0;
    for (const r of t.routes.filter((x) => x.method === 'POST' && x.input)) {
      for (const field of Object.keys(inputShape(r.input)).filter((f) => NAME_FIELD.test(f))) {
        for (const value of ['Invoice\u202Efdp.exe', 'Acme \u2067Ltd\u2069']) {
          const res = await t.post(r.url, { [field]: value }, callerOf(r));
          expect(res.status, `${r.url} ${field}`).toBe(400);
          expect(res.body.fields, `${r.url} ${field}`).toEqual(notAllowed(field));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    // a right-to-left name with its plain direction mark is a name like any other
    const rtl = await t.post('/api/brands', { name: '\u05d3\u05e0\u05d4\u200f 2' }, admin);
    expect(rtl.status).toBe(200);
  });

  it('keeps tab, line feed, carriage return, emoji and right-to-left text', async () => {
    for (const search of ['a\tb', 'line\r\nnext', '\ud83d\ude0d', '\u202etest', '\u05d1\u05b0\u05bc', '\ufeff']) {
      const res = await t.post('/api/users', { search }, admin);
      expect(res.status, JSON.stringify(search)).toBe(200);
    }
  });

  it('names a field deep in arrays and objects, and refuses unsafe keys without echoing them', async () => {
    const nested = await t.post('/api/delete-transactions', { batch_id: 'B1', id: [1, 'x\u0000'] }, admin);
    expect(nested.status).toBe(400);
    expect(nested.body.fields).toEqual(notAllowed('id.1'));
    const key = await t.post('/api/users', { search: 'a', 'evil\u0000key': 1 }, admin);
    expect(key.status).toBe(400);
    expect(key.body).toEqual({ error: [TEXT_MSG.fieldName], fields: { _: [TEXT_MSG.fieldName] } });
    expect(key.text).not.toContain('evil');
  });

  it('checks the query string and the route parameters too', async () => {
    const query = await t.app.inject({
      method: 'POST',
      url: '/api/users?search=%00',
      payload: {},
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().fields).toEqual(notAllowed('search'));
    const param = await t.app.inject({
      method: 'GET',
      url: '/api/download-file/1%00',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(param.statusCode).toBe(400);
    expect(param.json().fields).toEqual(notAllowed('id'));
  });

  it('answers a body nested beyond any stack with a 400, not a 500', async () => {
    const depth = 100_000;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      payload: `{"search":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['search.0.0.0.0.0.0.0.0.0...']);
    const clean = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      payload: `{"search":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(clean.statusCode).toBe(400);
    expect(Object.keys(clean.json().fields)).toEqual(['search']);
  });

  it('is applied before the route runs, and the activity log says what was found', async () => {
    const res = await t.post('/api/rename-batch', { batch_id: 'B-none', file_name: 'new\u0000name' }, admin);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(notAllowed('file_name'));
    const [row] = await t.deps.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1);
    expect(row).toMatchObject({
      action: 'batch.rename',
      outcome: 'failure',
      statusCode: 400,
      detail: 'refused text: control character U+0000 in file_name',
    });
  });

  it('applies to the form fields of the upload, which leaves nothing behind', async () => {
    const merchant = await t.signIn('merchant@obol.example');
    const [{ n: before }] = await t.deps.db.select({ n: count() }).from(batches);
    const csv =
      'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\nJane,100000001,U1,Acme Brand,r,100\n';
    const base = { file_name: 'ok', behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) };
    for (const [field, value] of [
      ['account_reference', `${holderReference(merchantId)}\u0000`],
      // (a lone surrogate cannot cross multipart: UTF-8 has no encoding of one)
      ['file_name', 'name\u0085'],
      ['behalf_of_id', '1\u0000'],
      ['file_name', 'payouts\u202Evsc'],
    ]) {
      const res = await t.upload(
        '/api/upload-transactions',
        { ...base, [field]: value },
        { name: 'u.csv', content: csv },
        merchant,
      );
      expect(res.status, field).toBe(400);
      expect(res.body.fields, field).toEqual(notAllowed(field));
    }
    // the file's own name is a name too
    const named = await t.upload(
      '/api/upload-transactions',
      base,
      { name: 'pay\u202Eslx.csv', content: csv },
      merchant,
    );
    expect(named.status).toBe(400);
    expect(named.body.fields).toEqual({ file: [TEXT_MSG.notAllowed('The file name')] });
    const [{ n: after }] = await t.deps.db.select({ n: count() }).from(batches);
    expect(after).toBe(before);
    let left: string[] = [];
    try {
      left = readdirSync(path.join(t.dataDir, 'uploads'));
    } catch {
      left = [];
    }
    expect(left).toEqual([]);
  });
});

describe('the date rule', () => {
  it.each(['2026-02-30', '2026-13-01', '0000-00-00', '2026-04-31', '0000-01-01', '2026-1-1'])(
    'refuses %s in every date filter with the date message and the field named',
    async (bad) => {
      for (const url of [
        '/api/payout-transactions',
        '/api/completed-transactions',
        '/api/export-payout-transactions',
      ]) {
        for (const field of ['start_date', 'end_date']) {
          const res = await t.post(url, { [field]: bad }, admin);
          expect(res.status, `${url} ${field}`).toBe(400);
          expect(res.body.fields, `${url} ${field}`).toEqual({ [field]: [TRX_MSG.dateInvalid] });
        }
      }
    },
  );

  it('takes the earliest real dates in any time zone (year 1 east of Greenwich starts in year 0)', async () => {
    for (const tz of ['Asia/Kathmandu', 'Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'])
      for (const url of ['/api/payout-transactions', '/api/completed-transactions']) {
        const res = await t.post(url, { start_date: '0001-01-01', end_date: '0099-12-31', tz }, admin);
        expect(res.status, `${url} ${tz}`).toBe(200);
      }
  });

  it('refuses an unknown time zone naming tz', async () => {
    for (const tz of ['Mars/Olympus_Mons', 'UTC+25', '', 5, '../../etc/localtime']) {
      const res = await t.post('/api/payout-transactions', { start_date: '2025-01-01', tz }, admin);
      expect(res.status, JSON.stringify(tz)).toBe(400);
      expect(res.body.fields, JSON.stringify(tz)).toEqual({ tz: [TRX_MSG.timeZone] });
    }
  });

  // a search that looked like a date was cast to a date in SQL when Date.parse took it: 2026-02-30 gave a 500
  it('reads a download search as a date only when it is a real one', async () => {
    for (const search of ['2026-02-30', '2026-13-01', '0000-01-01', '2024-02-29', '0001-01-01']) {
      for (const type of [0, 1]) {
        const res = await t.post('/api/download-files', { search, type }, admin);
        expect(res.status, `${search} ${type}`).toBe(200);
        expect(res.body.data, search).toEqual([]);
      }
    }
  });
});

describe('the list cursor', () => {
  // the cursor's time was checked with Date.parse, which takes 2026-02-30, 0000-01-01 and '1' (as 2001)
  it('refuses a cursor whose time or id PostgreSQL would refuse, with the field named', async () => {
    const cursorOf = (s: string) => Buffer.from(s).toString('base64url');
    for (const bad of [
      '2026-02-30|1',
      '0000-01-01|1',
      '1|1',
      '2026-02-29 00:00:00+00|1',
      '2026-03-01 24:00:00+00|1',
      '99999-01-01|1',
      '2026-03-01 10:00:00+00|99999999999999999999',
      '2026-03-01 10:00:00+00|1|2',
    ]) {
      for (const url of ['/api/payout-transactions', '/api/completed-transactions']) {
        const res = await t.post(url, { cursor: cursorOf(bad), page: 2 }, admin);
        expect(res.status, `${url} ${bad}`).toBe(400);
        expect(res.body.fields, bad).toEqual({ cursor: ['cursor is not valid'] });
      }
    }
    // what the lists write: updated_at as the database spells it
    const [{ now }] = rowsOf<{ now: string }>(await t.deps.db.execute(sql`SELECT now()::text AS now`));
    const written = encodeCursor({ updatedAt: now, id: 42 });
    expect(decodeCursor(written)).toEqual({ updatedAt: now, id: 42 });
    for (const good of ['2026-03-01 10:00:00.123456+00|5', '2024-02-29 23:59:59+05:30|1', '2026-03-01T10:00:00Z|7']) {
      const res = await t.post('/api/payout-transactions', { cursor: cursorOf(good), page: 2 }, admin);
      expect(res.status, good).toBe(200);
    }
  });
});

describe('the router', () => {
  it('answers a malformed address or an over-long parameter in the error envelope', async () => {
    for (const [url, status, message] of [
      ['/api/download-file/%zz', 400, 'The address is not valid'],
      ['/api/download-file/%E0%A4%A', 400, 'The address is not valid'],
      [`/api/download-file/${'1'.repeat(101)}`, 414, 'The address is too long'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin}` } });
      expect(res.statusCode, url).toBe(status);
      expect(res.json(), url).toEqual({ error: [message] });
      expect(res.headers['x-request-id'], url).toMatch(/^[\w-]{8,64}$/);
    }
  });
});
