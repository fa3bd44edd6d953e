import { formatCents } from '@obol/contract';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import type { InvoiceContent } from './invoices.ts';

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
