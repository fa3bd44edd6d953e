import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SCHEDULE_MSG } from '@obol/contract';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { downloadFiles } from '../downloads/tables.ts';
import { runExport } from '../downloads/service.ts';
import { users } from '../users/tables.ts';
import { previousMonth, runDueSchedules } from './schedules.ts';
import { reportSchedules } from './tables.ts';

// No worker runs here: the monthly run is called with the time it would run at, and the export job by hand.
let t: TestApp;
let merchant: string;
let merchantId: number;
let globexId: number;

beforeAll(async () => {
  t = await startTestApp();
  merchant = await t.signIn('merchant@obol.example');
  for (const [email, set] of [
    ['merchant@obol.example', (id: number) => (merchantId = id)],
    ['merchant2@obol.example', (id: number) => (globexId = id)],
  ] as const) {
    const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
    set(u.id);
  }
});
afterAll(async () => {
  await t?.close();
});

const month = (d: Date, add: number, day = 1, hour = 0) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, day, hour, 5));
const reportFiles = () =>
  t.deps.db
    .select()
    .from(downloadFiles)
    .where(and(eq(downloadFiles.ownerId, merchantId), eq(downloadFiles.kind, 'report_activity')));

describe('monthly reports', () => {
  it('are scheduled with the report’s rules, once per report and holder', async () => {
    const r = await t.post(
      '/api/schedule-report',
      { kind: 'activity', auth_id: merchantId, name: 'Acme Payouts' },
      merchant,
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.message).toEqual([REPORT_SCHEDULE_MSG.scheduled]);
    // the months before it was made are not pulled
    expect(r.body.schedule).toMatchObject({
      kind: 'activity',
      auth_id: merchantId,
      last_period: previousMonth(new Date()).period,
    });
    const again = await t.post(
      '/api/schedule-report',
      { kind: 'activity', auth_id: merchantId, format: 'xlsx' },
      merchant,
    );
    expect(again.body.schedule.id).toBe(r.body.schedule.id);
    expect(again.body.schedule.format).toBe('xlsx');
    await t.post('/api/schedule-report', { kind: 'activity', auth_id: merchantId, format: 'csv' }, merchant);
    expect((await t.post('/api/schedule-report', { kind: 'activity', auth_id: globexId }, merchant)).status).toBe(404);
    expect((await t.post('/api/schedule-report', { kind: 'fees', auth_id: 0 }, merchant)).status).toBe(400);
    expect((await t.post('/api/schedule-report', { kind: 'weekly', auth_id: merchantId }, merchant)).status).toBe(400);
    const brand = await t.signIn('brand@obol.example');
    expect((await t.post('/api/schedule-report', { kind: 'fees', auth_id: 0 }, brand)).status).toBe(403);
    const list = await t.post('/api/report-schedules', {}, merchant);
    expect(list.body.data.map((s: { id: number }) => s.id)).toEqual([r.body.schedule.id]);
    expect((await t.post('/api/report-schedules', {}, brand)).body.data).toEqual([]);
  });

  it('pulls the month before on the first of the next, exactly once, and mails the owner a link when written', async () => {
    const now = new Date();
    const firstOfNext = month(now, 1);
    const before = (await reportFiles()).length;
    // two processes at the same moment, then a later run: one file
    const [a, b] = await Promise.all([runDueSchedules(t.deps, firstOfNext), runDueSchedules(t.deps, firstOfNext)]);
    expect(a + b).toBe(1);
    expect(await runDueSchedules(t.deps, month(now, 1, 20))).toBe(0);
    const files = await reportFiles();
    expect(files.length).toBe(before + 1);
    const file = files.at(-1)!;
    const { start, end } = previousMonth(firstOfNext);
    expect(file).toMatchObject({ isReport: 1, startDate: start, endDate: end, status: 'Initiated' });
    await runExport(t.deps, file.id);
    const [done] = await t.deps.db.select().from(downloadFiles).where(eq(downloadFiles.id, file.id));
    expect(done.status).toBe('Completed');
    const mail = t.lastMailTo('merchant@obol.example')!;
    expect(mail.template).toBe('report-ready');
    expect(mail.text).toContain('/download-reports');
    expect(mail.text).toContain(file.fileName);
    // it is the merchant's file, in its report downloads
    const listed = await t.post('/api/download-files', { type: 1, page: 1, per_page: 50 }, merchant);
    expect(listed.body.data.map((f: { id: number }) => f.id)).toContain(file.id);
  });

  it('runs a month missed while the server was down once when it is back, and stops once removed', async () => {
    const now = new Date();
    // down over the next first of the month: back three weeks later, the month is pulled once
    const back = month(now, 2, 22);
    expect(await runDueSchedules(t.deps, back)).toBe(1);
    expect(await runDueSchedules(t.deps, back)).toBe(0);
    const [s] = await t.deps.db.select().from(reportSchedules).where(eq(reportSchedules.ownerId, merchantId));
    expect(s.lastPeriod).toBe(previousMonth(back).period);
    // another user cannot remove it; its owner can
    const globex = await t.signIn('merchant2@obol.example');
    expect((await t.post('/api/unschedule-report', { id: s.id }, globex)).status).toBe(404);
    expect((await t.post('/api/unschedule-report', { id: s.id }, merchant)).status).toBe(200);
    expect(await runDueSchedules(t.deps, month(now, 4))).toBe(0);
    expect((await t.post('/api/report-schedules', {}, merchant)).body.data).toEqual([]);
  });
});
