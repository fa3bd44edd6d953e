import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderReference } from '../features/ledger/accounts.ts';
import { userIdByEmail } from '../seed.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { MULTIPART_MSG } from './multipart.ts';

let t: TestApp;
let token: string;
let fields: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({}, { listen: true });
  token = await t.signIn('merchant@obol.example');
  const merchantId = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  fields = { file_name: 'multipart', behalf_of_id: String(merchantId), account_reference: holderReference(merchantId) };
});
afterAll(async () => {
  await t?.close();
});

const B = 'obolboundary42';
const CSV =
  'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\nJane Doe,100000001,MP-1,Acme Brand,Invoice 1,1500\n';

/** a whole form: the text fields, then the file (or for a list call, its filters only) */
function form(withFile: boolean, boundary = B) {
  const parts = Object.entries(withFile ? fields : { per_page: '10', page: '1' }).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  if (withFile)
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n`,
    );
  return `${parts.join('')}--${boundary}--\r\n`;
}

const UPLOAD = '/api/upload-transactions';
/** a list call that takes form data (platform/forms.ts) */
const LIST = '/api/payout-transactions';

async function send(url: string, contentType: string, body: string) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() as { error?: string[]; fields?: Record<string, string[]> } };
}

/** each malformed body, for the upload (with its file) and for a list call (its text fields) */
const cases = (withFile: boolean) => {
  // the bodies are made when a test runs (the fields need the signed-in merchant)
  const whole = () => form(withFile);
  const closing = `--${B}--\r\n`;
  return [
    { name: 'no boundary', type: 'multipart/form-data', body: whole, message: MULTIPART_MSG.noBoundary },
    {
      name: 'an empty boundary',
      type: 'multipart/form-data; boundary=',
      body: whole,
      message: MULTIPART_MSG.noBoundary,
    },
    {
      name: 'an empty quoted boundary',
      type: 'multipart/form-data; boundary=""',
      body: whole,
      message: MULTIPART_MSG.noBoundary,
    },
    {
      name: 'a boundary longer than 70 characters',
      type: `multipart/form-data; boundary=${'b'.repeat(71)}`,
      body: () => form(withFile, 'b'.repeat(71)),
      message: MULTIPART_MSG.noBoundary,
    },
    {
      name: 'an unterminated boundary (no closing delimiter)',
      type: `multipart/form-data; boundary=${B}`,
      body: () => whole().slice(0, -closing.length),
      message: MULTIPART_MSG.cutShort,
    },
    {
      name: 'a body cut short inside a part',
      type: `multipart/form-data; boundary=${B}`,
      body: () => whole().slice(0, Math.floor(whole().length / 2)),
      message: MULTIPART_MSG.cutShort,
    },
    {
      name: 'a body cut short inside a part header',
      type: `multipart/form-data; boundary=${B}`,
      body: () => `--${B}\r\nContent-Disposition: form-da`,
      message: MULTIPART_MSG.cutShort,
    },
    {
      name: 'a body with no part at all',
      type: `multipart/form-data; boundary=${B}`,
      body: () => '',
      // the upload reads it as a form without a file
      message: withFile ? 'Choose a file to upload' : MULTIPART_MSG.cutShort,
    },
  ];
};

describe('malformed multipart/form-data', () => {
  for (const c of cases(true))
    it(`upload: ${c.name} is a 400 saying so, and makes no batch`, async () => {
      const r = await send(UPLOAD, c.type, c.body());
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual([c.message]);
      expect(r.body.fields).toEqual({ file: [c.message] });
    });

  for (const c of cases(false))
    it(`list call taking form data: ${c.name} is a 400 saying so`, async () => {
      const r = await send(LIST, c.type, c.body());
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual([c.message]);
    });

  it('still takes a whole form, on the upload and on a list call', async () => {
    const up = await send(UPLOAD, `multipart/form-data; boundary=${B}`, form(true));
    expect(up.status).toBe(200);
    const list = await send(LIST, `multipart/form-data; boundary="${B}"`, form(false));
    expect(list.status).toBe(200);
  });

  it('answers 400 to an upload whose connection ends before the declared length', async () => {
    const body = form(true);
    const head = [
      `POST ${UPLOAD} HTTP/1.1`,
      `Host: 127.0.0.1`,
      `Authorization: Bearer ${token}`,
      `Content-Type: multipart/form-data; boundary=${B}`,
      `Content-Length: ${Buffer.byteLength(body) + 500}`,
      '',
      '',
    ].join('\r\n');
    const url = new URL(t.address!);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(head + body.slice(0, 200));
        // the client stops sending (half-close) but still reads the answer
        socket.end();
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    // the server may close without an answer (the request never ended), never with a 500
    expect(answer).not.toMatch(/^HTTP\/1\.1 5/);
    if (answer) expect(answer).toMatch(/^HTTP\/1\.1 400/);
  });
});
