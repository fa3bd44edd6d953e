import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { holderReference } from '../ledger/accounts.ts';
import { userIdByEmail } from '../../seed.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'warn' }, { workers: true });
});
afterAll(async () => t?.close());

it('stages a CSV', async () => {
  const token = await t.signIn('merchant@obol.example');
  const id = (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!;
  const csv =
    'beneficiary_name,obol_id,merchant_transaction_id,brand,reference,amount\nJane,100000001,A1,Acme Brand,r1,1500\nJohn,12,A2,Nope,r2,-5\n,100000003,A1,Acme Brand,r3,10\n';
  const up = await t.upload(
    '/api/upload-transactions',
    { file_name: 'my file.csv', behalf_of_id: String(id), account_reference: holderReference(id) },
    { name: 'x.csv', content: csv },
    token,
  );
  expect(up.status, up.text).toBe(200);
  for (let i = 0; i < 50; i++) {
    const p = await t.post('/api/batch-progress', { id: up.body.batch_id }, token);
    if (p.body.processedJobs === p.body.totalJobs && p.body.status === 'Pending') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const s = await t.post('/api/staged-transactions', { batch_id: up.body.batch_id }, token);
  console.log(JSON.stringify(s.body, null, 1).slice(0, 3000));
  expect(s.body.pendingTransaction).toBe(1);
});
