import { MSG } from '@obol/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdByEmail } from '../../seed.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { makePayouts } from '../../test/payouts.ts';

/** An export whose filters match nothing answers the spec's 'No record found' and makes no file. */
let t: TestApp;
let admin: string;
let accountant: string;
let twoD: string;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestApp();
  [admin, accountant, twoD] = await Promise.all([
    t.signIn('admin@obol.example'),
    t.signIn('accountant@obol.example'),
    t.signIn('2d-admin@obol.example'),
  ]);
  await makePayouts(t.deps, (await userIdByEmail(t.deps.db, 'merchant@obol.example'))!, 2, 'empty');
});
afterAll(() => t?.close());

const files = async (token: string, type: 0 | 1 = 0, accounting = false) =>
  (await t.post('/api/download-files', { type, accounting, page: 1, per_page: 100 }, token)).body.total as number;

describe('exports that match nothing', () => {
  const lists: [string, string, () => string, Record<string, unknown>][] = [
    ['payouts', '/api/export-payout-transactions', () => admin, { reference: 'no-such-reference' }],
    ['completed payouts', '/api/export-completed-transactions', () => admin, { batch_id: 'BNOSUCHBATCH' }],
    ['pay-ins', '/api/export-payin-record', () => admin, { pay_in_reference: 'no-such-payin' }],
    ['refunds', '/api/export-refunds-detail', () => admin, { pay_in_reference: 'no-such-payin' }],
    ['rewards', '/api/export-payin-rewards', () => admin, { search: 'no-such-reward' }],
    ['transfers', '/api/export-transfer-details', () => accountant, { status: 2 }],
  ];

  it.each(lists)('%s: 404 No record found, and no file in the downloads', async (_, url, token, filters) => {
    const before = await files(token());
    const res = await t.post(url, { ...filters, format: 'csv' }, token());
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual([MSG.exportNoRecord]);
    expect(await files(token())).toBe(before);
  });

  it('2D transactions (none yet): 404, and no file in the accounting downloads', async () => {
    const before = await files(twoD, 0, true);
    const res = await t.post('/api/export-accounting-transactions', { format: 'csv' }, twoD);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual([MSG.exportNoRecord]);
    expect(await files(twoD, 0, true)).toBe(before);
  });

  it('a report of days with nothing in them: 404, and no file in the report downloads', async () => {
    const merchant = await userIdByEmail(t.deps.db, 'merchant@obol.example');
    const before = await files(admin, 1);
    const res = await t.post(
      '/api/failed-report',
      { name: 'Acme Payouts', auth_id: merchant, start_date: '2024-01-01', end_date: '2024-01-31', format: 'csv' },
      admin,
    );
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual([MSG.exportNoRecord]);
    expect(await files(admin, 1)).toBe(before);
  });

  it('the same export with rows to write starts its file as before', async () => {
    const before = await files(admin);
    const res = await t.post('/api/export-payout-transactions', { format: 'csv' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.file.status).toBe('Initiated');
    expect(await files(admin)).toBe(before + 1);
    const report = await t.post(
      '/api/activity-report',
      { name: 'Acme Payouts', auth_id: await userIdByEmail(t.deps.db, 'merchant@obol.example'), start_date: today },
      admin,
    );
    expect(report.status).toBe(200);
  });

  it('a scope that sees nothing gets the same answer as filters that match nothing', async () => {
    // the brand of the other merchant sees none of Acme's payouts
    const brand2 = await t.signIn('brand2@obol.example');
    const res = await t.post('/api/export-payout-transactions', { format: 'csv' }, brand2);
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual([MSG.exportNoRecord]);
  });
});
