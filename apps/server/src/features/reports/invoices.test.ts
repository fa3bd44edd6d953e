import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_MSG } from '@obol/contract';
import { seedDemoPayouts } from '../../demo.ts';
import { startTestAppWithProvider, type TestAppWithProvider } from '../../test/with-provider.ts';
import { payouts } from '../payouts/tables.ts';
import { users } from '../users/tables.ts';
import { invoices } from './tables.ts';

let t: TestAppWithProvider;
let admin: string;
let merchant: string;
const ids: Record<string, number> = {};
const thisMonth = new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  t = await startTestAppWithProvider({ workers: true, provider: { settleMs: 50 } });
  // many invoices at once here: the export window (20 per 10 minutes per user) is not what is tested
  t.deps.config.limits.export = { limit: 10_000, seconds: 600 };
  for (const email of ['merchant@obol.example', 'brand@obol.example', 'merchant2@obol.example']) {
    const [u] = await t.deps.db.select().from(users).where(eq(users.email, email));
    ids[email] = u.id;
  }
  await seedDemoPayouts(t.deps);
  const end = Date.now() + 30_000;
  while ((await t.deps.db.select().from(payouts).where(eq(payouts.status, 'in_flight'))).length) {
    if (Date.now() > end) throw new Error('demo payouts still in flight');
    await new Promise((r) => setTimeout(r, 100));
  }
  admin = await t.signIn('admin@obol.example');
  merchant = await t.signIn('merchant@obol.example');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The PDF of a pulled invoice, once its job has written it. */
async function pdfOf(fileId: string, token: string) {
  const end = Date.now() + 15_000;
  for (;;) {
    const list = await t.post('/api/download-files', { type: 1, page: 1, per_page: 100 }, token);
    const f = (list.body.data as { id: string; status: string }[]).find((x) => x.id === fileId);
    if (f?.status === 'Completed') break;
    if (f?.status === 'Failed' || Date.now() > end) throw new Error(`invoice file ${fileId} is ${f?.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/download-file/${fileId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}
const issue = (merchantId: number, date: string, token = admin) =>
  t.post('/api/invoice', { merchant_id: merchantId, date, name: 'x' }, token);

describe('invoices', () => {
  it('issues a PDF that opens, with the fee total of the fee report; the same month again is the same invoice', async () => {
    const r = await issue(ids['merchant@obol.example'], thisMonth);
    expect(r.status, r.text).toBe(200);
    expect(r.body.invoice.number).toMatch(new RegExp(`^OBL-${thisMonth.slice(0, 4)}-\\d{6}$`));
    expect(r.body.file).toMatchObject({ is_report: 1, format: 'pdf' });
    expect(r.body.file.file_name).toContain(r.body.invoice.number);
    // the file lists the whole month, as the PDF does (not the month's first day twice)
    const last = new Date(Date.UTC(+thisMonth.slice(0, 4), +thisMonth.slice(5, 7), 0)).toISOString().slice(0, 10);
    expect(r.body.file).toMatchObject({ start_date: `${thisMonth}-01`, end_date: last });
    const pdf = await pdfOf(r.body.file.id, admin);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // it opens: rendered to an image
    const { pdf: open } = await import('pdf-to-img');
    const pages: Buffer[] = [];
    for await (const page of await open(pdf, { scale: 1 })) pages.push(page);
    expect(pages.length).toBe(1);
    expect(pages[0].subarray(1, 4).toString()).toBe('PNG');
    expect(pages[0].length).toBeGreaterThan(10_000);

    // the fees: those of the fee report for the month (UTC), and above zero with the demo payouts
    expect(r.body.invoice.total_fee).toBeGreaterThan(0);
    const [row] = await t.deps.db.select().from(invoices).where(eq(invoices.number, r.body.invoice.number));
    const content = row.content as { lines: { fee: number }[]; merchant: { name: string }; seller: { name: string } };
    expect(content.lines.reduce((s, l) => s + l.fee, 0)).toBe(r.body.invoice.total_fee);
    expect(content.merchant.name).toBe('Acme Payouts');
    const list = await t.post(
      '/api/completed-transactions',
      { start_date: `${thisMonth}-01`, end_date: new Date().toISOString().slice(0, 10), tz: 'UTC', per_page: 10 },
      merchant,
    );
    expect(r.body.invoice.total_fee).toBe(list.body.fee.total_cent_fee);

    // reissued (by the merchant itself): the same number, the same bytes
    const again = await issue(ids['merchant@obol.example'], thisMonth, merchant);
    expect(again.status, again.text).toBe(200);
    expect(again.body.invoice.number).toBe(r.body.invoice.number);
    const pdf2 = await pdfOf(again.body.file.id, merchant);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(pdf2)).toBe(sha(pdf));
  });

  it('numbers a year without gaps when many are issued at once, and the same month twice at once is one invoice', async () => {
    const months = ['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'].filter((m) => m <= thisMonth);
    const asks = months.flatMap((m) =>
      [ids['merchant@obol.example'], ids['merchant2@obol.example']].flatMap((id) => [issue(id, m), issue(id, m)]),
    );
    const answers = await Promise.all(asks);
    for (const a of answers) expect(a.status, a.text).toBe(200);
    for (let i = 0; i < answers.length; i += 2)
      expect(answers[i].body.invoice.number).toBe(answers[i + 1].body.invoice.number);
    const year = Number(thisMonth.slice(0, 4));
    const seqs = (await t.deps.db.select().from(invoices).where(eq(invoices.year, year)))
      .map((i) => i.seq)
      .sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    expect(seqs.length).toBe(1 + months.length * 2);
  });

  it('refuses a month out of range, a brand, another tenant’s merchant (404), and a role without invoices (403)', async () => {
    for (const date of ['2022-11', '2999-01', '2026-13', 'soon', '']) {
      const r = await issue(ids['merchant@obol.example'], date);
      expect(r.status, date).toBe(400);
      expect(r.body.fields.date).toEqual([INVOICE_MSG.month]);
    }
    expect((await issue(ids['brand@obol.example'], thisMonth)).status).toBe(404);
    expect((await issue(ids['merchant2@obol.example'], thisMonth, merchant)).status).toBe(404);
    const brand = await t.signIn('brand@obol.example');
    expect((await issue(ids['merchant@obol.example'], thisMonth, brand)).status).toBe(403);
    // the earliest month is allowed: no fees, still an invoice
    const first = await issue(ids['merchant@obol.example'], '2022-12');
    expect(first.status, first.text).toBe(200);
    expect(first.body.invoice.total_fee).toBe(0);
  });
});
