import { INVOICE_MSG } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Executor, type Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { defineExport } from '../downloads/exports.ts';
import { findHolderInScope } from '../merchants/holders.ts';
import { renderInvoice } from './invoice-pdf.ts';
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

/** The days an invoice of `month` ('YYYY-MM' or its first day) covers: its file lists this period, as the PDF does. */
export const invoicePeriod = (month: string) => {
  const m = month.slice(0, 7);
  return { start_date: `${m}-01`, end_date: monthBounds(m).last };
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
      WHERE p.merchant_id = ${merchantId} AND p.status = 'completed'
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

/** The invoice's file: rendered by the export job from the invoice as issued. */
export const INVOICE_EXPORT = defineExport({
  kind: 'invoice',
  fileName: 'invoice',
  isReport: true,
  header: [],
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
