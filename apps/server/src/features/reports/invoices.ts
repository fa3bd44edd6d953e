import { INVOICE_MSG, formatCents } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { defineExport } from '../downloads/exports.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { invoiceCounters, invoices } from './tables.ts';

/** Who issues the invoices: printed on every one. */
export const OUR_DETAILS = {
  name: 'Obol Payments B.V.',
  street: 'Keizersgracht 123',
  city: 'Amsterdam',
  zip_code: '1015 CJ',
  country: 'The Netherlands',
  registration_number: 'KvK 81234567',
  vat_number: 'NL862345678B01',
  email: 'billing@obol.example',
} as const;

export interface InvoiceLine {
  /** the day (UTC) the batch's first payout of the month completed */
  date: string;
  batch_id: string;
  description: string;
  /** completed payouts of the batch in the month */
  payouts: number;
  /** cents paid out */
  amount: number;
  /** cents of fee kept */
  fee: number;
}
export interface InvoiceContent {
  number: string;
  issued_at: string;
  /** YYYY-MM */
  month: string;
  period: { from: string; to: string };
  seller: typeof OUR_DETAILS;
  merchant: {
    name: string;
    email: string;
    registration_number: string | null;
    street: string | null;
    city: string | null;
    zip_code: string | null;
  };
  currency: 'EUR';
  lines: InvoiceLine[];
  total_amount: number;
  total_fee: number;
}

const monthBounds = (month: string) => {
  const from = new Date(`${month}-01T00:00:00Z`);
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  return { from, to, last: new Date(to.getTime() - 86_400_000).toISOString().slice(0, 10) };
};

/**
 * The fee lines of a merchant's month (UTC): one per batch with payouts completed in the month (a manual payout is
 * a batch of one), the fee counted as the completed list and the fee report count it: an uploaded batch's fee
 * less what its failed payouts returned, a manual payout's own fee.
 */
async function feeLines(db: Executor, merchantId: number, month: string): Promise<InvoiceLine[]> {
  const { from, to } = monthBounds(month);
  const rows = rowsOf<{
    batch_id: string;
    payout_type: string;
    file_name: string;
    behalf_of: string;
    first_at: string | Date;
    n: number | string;
    amount: number | string;
    fee: number | string;
  }>(
    await db.execute(sql`
      SELECT b.batch_id, b.payout_type, b.file_name, hb.name AS behalf_of, min(p.updated_at) AS first_at,
        count(*) AS n, sum(p.amount) AS amount,
        CASE WHEN b.payout_type = 'Batch Payout' THEN greatest(max(b.fee - b.fee_returned), 0)
             ELSE sum(CASE WHEN p.fee > 0 THEN p.fee ELSE 0 END) END AS fee
      FROM payouts p JOIN batches b ON b.batch_id = p.batch_id JOIN users hb ON hb.id = b.behalf_of_id
      WHERE p.merchant_id = ${merchantId} AND p.status = 'Completed'
        AND p.updated_at >= ${from.toISOString()}::timestamptz AND p.updated_at < ${to.toISOString()}::timestamptz
      GROUP BY b.batch_id, b.payout_type, b.file_name, hb.name
      ORDER BY min(p.updated_at), b.batch_id`),
  );
  return rows.map((r) => ({
    date: new Date(r.first_at).toISOString().slice(0, 10),
    batch_id: r.batch_id,
    description:
      r.payout_type === 'Batch Payout'
        ? `Batch payout ${r.file_name} (${r.behalf_of})`
        : `Manual payout (${r.behalf_of})`,
    payouts: Number(r.n),
    amount: Number(r.amount),
    fee: Number(r.fee),
  }));
}

async function merchantDetails(db: Executor, merchantId: number): Promise<InvoiceContent['merchant']> {
  const [m] = rowsOf<InvoiceContent['merchant']>(
    await db.execute(sql`
      SELECT u.name, u.email, d.registration_number, d.street, d.city, d.zip_code
      FROM users u LEFT JOIN holder_details d ON d.user_id = u.id WHERE u.id = ${merchantId}`),
  );
  return m;
}

type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Issues a merchant's invoice for a month, or answers the one issued before (the same number and content). A new
 * one takes the next number of this year under the counter's row lock, in the transaction that writes it: a
 * concurrent issue of another invoice waits; one of the same merchant and month meets the unique index, rolls its
 * number back with it and answers the invoice that won. So the numbers of a year have no gaps and none is reused.
 */
export async function issueInvoice(deps: Deps, auth: AuthContext, merchantId: number, month: string) {
  const merchant = await findHolderInScope(deps.db, auth.scope, merchantId);
  if (!merchant || merchant.role !== 'Merchant') throw notFound(INVOICE_MSG.merchantNotFound);
  const existing = async () =>
    (
      await deps.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.merchantId, merchantId), eq(invoices.month, `${month}-01`)))
    )[0] as InvoiceRow | undefined;
  const before = await existing();
  if (before) return before;
  const lines = await feeLines(deps.db, merchantId, month);
  const details = await merchantDetails(deps.db, merchantId);
  const taken = Symbol('taken');
  try {
    return await deps.db.transaction(async (tx: Tx) => {
      const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      const year = issuedAt.getUTCFullYear();
      await tx.insert(invoiceCounters).values({ year, last: 0 }).onConflictDoNothing();
      const [{ last }] = await tx
        .update(invoiceCounters)
        .set({ last: sql`${invoiceCounters.last} + 1` })
        .where(eq(invoiceCounters.year, year))
        .returning({ last: invoiceCounters.last });
      const number = `OBL-${year}-${String(last).padStart(6, '0')}`;
      const { last: to } = monthBounds(month);
      const content: InvoiceContent = {
        number,
        issued_at: issuedAt.toISOString(),
        month,
        period: { from: `${month}-01`, to },
        seller: OUR_DETAILS,
        merchant: details,
        currency: 'EUR',
        lines,
        total_amount: lines.reduce((s, l) => s + l.amount, 0),
        total_fee: lines.reduce((s, l) => s + l.fee, 0),
      };
      const [row] = await tx
        .insert(invoices)
        .values({
          merchantId,
          month: `${month}-01`,
          year,
          seq: last,
          number,
          issuedAt,
          issuedBy: auth.user.id,
          totalFee: content.total_fee,
          content,
        })
        .onConflictDoNothing({ target: [invoices.merchantId, invoices.month] })
        .returning();
      // another issue of this month won: give the number back (roll back) and answer that one
      if (!row) throw taken;
      return row;
    });
  } catch (err) {
    if (err === taken) {
      const won = await existing();
      if (won) return won;
    }
    throw err;
  }
}

const eur = (cents: number) => `EUR ${formatCents(cents)}`;

/**
 * The invoice as a PDF (A4, the standard Helvetica, so nothing is embedded), written from the stored content: the
 * same invoice always gives the same bytes (its creation date is the issue date, which also fixes the file id).
 */
export function renderInvoice(c: InvoiceContent, out: Writable): Promise<void> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `Invoice ${c.number}`,
      Author: c.seller.name,
      Subject: `Fees for ${c.month}`,
      CreationDate: new Date(c.issued_at),
      ModDate: new Date(c.issued_at),
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', () => resolve());
    out.on('error', reject);
    doc.on('error', reject);
  });
  doc.pipe(out);
  const left = 50;
  const right = 545;
  doc.font('Helvetica-Bold').fontSize(20).text('Invoice', left, 50);
  doc.font('Helvetica').fontSize(10);
  doc.text(`Number: ${c.number}`, 350, 55, { width: 195, align: 'right' });
  doc.text(`Issue date (UTC): ${c.issued_at.slice(0, 10)}`, 350, 70, { width: 195, align: 'right' });
  doc.text(`Period: ${c.period.from} to ${c.period.to}`, 350, 85, { width: 195, align: 'right' });

  const block = (title: string, lines: (string | null)[], x: number, y: number) => {
    doc.font('Helvetica-Bold').text(title, x, y);
    doc.font('Helvetica');
    for (const l of lines.filter(Boolean)) doc.text(l!, x);
  };
  const s = c.seller;
  block(
    'From',
    [s.name, s.street, `${s.zip_code} ${s.city}`, s.country, s.registration_number, `VAT ${s.vat_number}`, s.email],
    left,
    130,
  );
  const m = c.merchant;
  block(
    'Bill to',
    [
      m.name,
      m.street,
      [m.zip_code, m.city].filter(Boolean).join(' ') || null,
      m.registration_number ? `Registration ${m.registration_number}` : null,
      m.email,
    ],
    320,
    130,
  );

  let y = 260;
  const cols = [
    { label: 'Date', x: left, w: 70, align: 'left' as const },
    { label: 'Description', x: 120, w: 200, align: 'left' as const },
    { label: 'Payouts', x: 320, w: 50, align: 'right' as const },
    { label: 'Paid out', x: 375, w: 80, align: 'right' as const },
    { label: 'Fee', x: 460, w: 85, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const heights = cells.map((t, i) => doc.heightOfString(t, { width: cols[i].w }));
    if (y + Math.max(...heights) > 760) {
      doc.addPage();
      y = 50;
    }
    cells.forEach((t, i) => doc.text(t, cols[i].x, y, { width: cols[i].w, align: cols[i].align }));
    y += Math.max(...heights) + 6;
  };
  row(
    cols.map((c2) => c2.label),
    true,
  );
  doc
    .moveTo(left, y - 3)
    .lineTo(right, y - 3)
    .stroke();
  if (!c.lines.length) row(['', 'No fees were charged in this period.', '', '', '']);
  for (const l of c.lines) row([l.date, l.description, String(l.payouts), eur(l.amount), eur(l.fee)]);
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 6;
  row(['', 'Total', String(c.lines.reduce((n, l) => n + l.payouts, 0)), eur(c.total_amount), eur(c.total_fee)], true);
  y += 10;
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(
      `Amount due: ${eur(c.total_fee)}, already settled from your payout account when each payout was made. ` +
        'Fees are those of payouts completed in the period (UTC).',
      left,
      y,
      { width: right - left },
    );
  doc.end();
  return done;
}

/** The invoice's file: rendered by the export job from the invoice as issued. */
export const INVOICE_EXPORT = defineExport({
  kind: 'invoice',
  fileName: 'invoice',
  isReport: true,
  header: [],
  chunk: () => sql`SELECT 1 WHERE false`,
  cells: () => [],
  cursorOf: () => null,
  write: async (tx, params, out) => {
    const [inv] = await tx
      .select()
      .from(invoices)
      .where(eq(invoices.id, Number(params.invoice_id)));
    if (!inv) throw new Error(`invoice ${String(params.invoice_id)} is missing`);
    const content = inv.content as InvoiceContent;
    await renderInvoice(content, out);
    return content.lines.length;
  },
});
