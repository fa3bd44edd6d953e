import { OPERATIONS } from '@obol/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdByEmail } from '../seed.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { makePayouts } from '../test/payouts.ts';

/** The spec's form data: the list calls it sends as a form take urlencoded and multipart bodies as well as JSON. */
let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp();
  token = await t.signIn('admin@obol.example');
  await makePayouts(t.deps, (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!, 3, 'form');
});
afterAll(() => t?.close());

const inject = async (url: string, payload: string | Buffer, contentType: string, auth = token) => {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${auth}` },
  });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
};
const urlencoded = (url: string, fields: Record<string, string>) =>
  inject(url, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
function multipartBody(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = `----obolform${Date.now()}`;
  let body = '';
  for (const [k, v] of Object.entries(fields))
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  if (file)
    body +=
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: text/csv\r\n\r\n${file.content}\r\n`;
  return { payload: `${body}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}
const multipart = (url: string, fields: Record<string, string>, file?: { name: string; content: string }) => {
  const { payload, type } = multipartBody(fields, file);
  return inject(url, payload, type);
};

describe('form data on the list calls the spec sends as forms', () => {
  const cases = [
    ['/api/payout-transactions', { per_page: '10', page: '1', status: '', 'sort-by': 'ASC' }],
    ['/api/completed-transactions', { per_page: '10', page: '1', status: 'Completed' }],
    ['/api/pay-in-order-details', { per_page: '20', page: '1', sortby: 'DESC', transaction_status: '0' }],
  ] as const;

  it.each(cases)('%s answers a urlencoded and a multipart form as it answers the same JSON', async (url, fields) => {
    const json = await t.post(url, fields, token);
    expect(json.status).toBe(200);
    const form = await urlencoded(url, fields);
    expect(form.status).toBe(200);
    expect(form.body).toEqual(json.body);
    const multi = await multipart(url, fields);
    expect(multi.status).toBe(200);
    expect(multi.body).toEqual(json.body);
  });

  it('reads the numbers and filters of a form as it reads JSON: the payouts of the first page, sorted', async () => {
    const form = await urlencoded('/api/payout-transactions', { per_page: '2', page: '1', 'sort-by': 'ASC' });
    expect(form.status).toBe(200);
    expect(form.body.transactions.data).toHaveLength(2);
    expect(form.body.transactions.total).toBe(3);
    const json = await t.post('/api/payout-transactions', { per_page: 2, page: 1, 'sort-by': 'ASC' }, token);
    expect(form.body.transactions.data).toEqual(json.body.transactions.data);
  });

  it('refuses a bad value in a form as in JSON: 400 naming the field', async () => {
    const form = await urlencoded('/api/payout-transactions', { per_page: 'ten', page: '1' });
    expect(form.status).toBe(400);
    expect(Object.keys(form.body.fields)).toEqual(['per_page']);
    const multi = await multipart('/api/payout-transactions', { per_page: '10', page: '0' });
    expect(multi.status).toBe(400);
    expect(Object.keys(multi.body.fields)).toEqual(['page']);
  });

  it('refuses a field given twice where one value is read, and control characters as everywhere', async () => {
    const twice = await inject(
      '/api/payout-transactions',
      'per_page=10&per_page=20&page=1',
      'application/x-www-form-urlencoded',
    );
    expect(twice.status).toBe(400);
    expect(twice.body.fields).toHaveProperty('per_page');
    const nul = await urlencoded('/api/payout-transactions', { per_page: '10', page: '1', reference: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.fields).toHaveProperty('reference');
  });

  it('refuses a file in a list form, and a multipart body that is not one', async () => {
    const file = await multipart('/api/payout-transactions', { per_page: '10' }, { name: 'a.csv', content: 'x' });
    expect(file.status).toBe(400);
    expect(file.body.error).toEqual(['This call takes text fields, not files']);
    const cut = await inject(
      '/api/payout-transactions',
      '--abc\r\nContent-Disposition: form-data; name="page"\r\n\r\n1',
      'multipart/form-data; boundary=abc',
    );
    expect(cut.status).toBe(400);
    const noBoundary = await inject('/api/payout-transactions', 'page=1', 'multipart/form-data');
    expect(noBoundary.status).toBe(400);
  });

  it('still asks for a session first: a form without a token is 401', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payout-transactions',
      payload: 'page=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('starts an export from a form (the same filters as the list)', async () => {
    const form = await urlencoded('/api/export-payout-transactions', { reference: '', format: 'csv' });
    expect(form.status).toBe(200);
    expect(form.body.file.status).toBe('Initiated');
  });
});

describe('every other call takes JSON only', () => {
  it('answers 415 to a form, urlencoded or multipart, as before', async () => {
    for (const url of ['/api/users', '/api/batches', '/api/create-payout']) {
      const form = await urlencoded(url, { page: '1', per_page: '10' });
      expect(form.status, url).toBe(415);
      expect(form.body.error).toEqual(['The request body must be JSON']);
      const multi = await multipart(url, { page: '1' });
      expect(multi.status, url).toBe(415);
    }
  });

  it('keeps the upload on its own multipart reader', async () => {
    const res = await t.upload(
      '/api/upload-transactions',
      { behalf_of_id: '0', account_reference: 'Fee Account' },
      { name: 'p.csv', content: 'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\n' },
      token,
    );
    // the upload's own refusal of a file without rows, not the list forms' reader
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('file');
  });

  it('marks exactly the spec’s form calls as forms, each a POST with an input', () => {
    const forms = OPERATIONS.filter((op) => op.form).map((op) => op.path);
    expect(forms.sort()).toEqual(
      [
        '/api/completed-transactions',
        '/api/export-completed-transactions',
        '/api/export-payin-record',
        '/api/export-payout-transactions',
        '/api/pay-in-order-details',
        '/api/payout-transactions',
      ].sort(),
    );
    for (const op of OPERATIONS.filter((o) => o.form)) expect(op.method === 'POST' && !!op.input).toBe(true);
  });
});
