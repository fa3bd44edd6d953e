import { PAYMENT_MSG, rowAmountIssue, trimRow, validateRow, type StagedStatus } from '@obol/contract';
import { and, asc, between, count, eq, gte, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { escapeLike, rowsOf, type Executor } from '../../platform/db.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { accountById } from '../ledger/accounts.ts';
import { brandNamesOf, findHolderInScope } from '../merchants/holders.ts';
import { batchCounts, batchScopeFilter, cleanFileName, lockPending } from './service.ts';
import { takenMtids } from './stage.ts';
import { batches, stagedTransactions } from './tables.ts';

// ---------- the review page ----------

export interface StagedQuery {
  page: number;
  perPage: number;
  search: string;
  status: '' | StagedStatus;
}

export async function stagedPage(db: Executor, batchId: string, q: StagedQuery) {
  // one pass over the batch gives its counts, its first and last ids, and the total of a page without a search
  const counts = await reviewCounts(db, batchId);
  const all = counts.pending + counts.failed;
  let total = q.status === 'Pending' ? counts.pending : q.status === 'Failed' ? counts.failed : all;
  const offset = (q.page - 1) * q.perPage;
  // the batch's rows: the range of ids from its first to its last, which holds no other batch's (stagedRangeOf), read
  // in order by the primary key
  const filters: SQL[] = [between(stagedTransactions.id, counts.firstId, counts.lastId)];
  if (q.status) filters.push(eq(stagedTransactions.status, q.status));
  if (q.search) {
    const p = `%${escapeLike(q.search)}%`;
    filters.push(
      or(
        ilike(stagedTransactions.beneficiaryName, p),
        ilike(stagedTransactions.merchantTransactionId, p),
        ilike(stagedTransactions.obolId, p),
        ilike(stagedTransactions.reference, p),
      )!,
    );
  }
  const where = and(...filters);
  if (q.search) [{ total }] = await db.select({ total: count() }).from(stagedTransactions).where(where);
  const page = db.select().from(stagedTransactions);
  // Ids follow the file's order, each row its own. While a batch's ids run without a gap (no row deleted, no blank
  // or multi-line row: the usual case), the row `offset` places down is the one numbered first + offset, found by
  // the index at any depth; otherwise OFFSET counts its way there.
  const rows =
    all === 0
      ? []
      : !q.status && !q.search && counts.lastId - counts.firstId + 1 === all
        ? await page
            .where(and(where, gte(stagedTransactions.id, counts.firstId + offset)))
            .orderBy(asc(stagedTransactions.id))
            .limit(q.perPage)
        : await page.where(where).orderBy(asc(stagedTransactions.id)).limit(q.perPage).offset(offset);
  return {
    transaction: { data: rows.map(stagedView), total },
    missingTransaction: counts.missing,
    pendingTransaction: counts.pending,
    failedTransaction: counts.failed,
    failedByReason: counts.failed ? await failuresByReason(db, counts.firstId, counts.lastId) : [],
  };
}

/** A batch's Failed rows counted per error message, most first: ten reasons at most (the rest are like them). */
async function failuresByReason(db: Executor, firstId: number, lastId: number) {
  const rows = rowsOf<{ reason: string; count: number | string }>(
    await db.execute(sql`
      SELECT e.value AS reason, count(*) AS count
      FROM ${stagedTransactions} s, jsonb_each_text(s.errors) e
      WHERE s.id BETWEEN ${firstId} AND ${lastId} AND s.status = 'Failed'
      GROUP BY e.value ORDER BY count(*) DESC, e.value LIMIT 10`),
  );
  return rows.map((r) => ({ reason: r.reason, count: Number(r.count) }));
}

/** The counts of a batch's rows (as batchCounts) and its first and last ids, in one pass. */
async function reviewCounts(db: Executor, batchId: string) {
  const [c] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Pending')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Failed')`.mapWith(Number),
      missing: sql<number>`count(*) filter (where ${stagedTransactions.missing} > 0)`.mapWith(Number),
      firstId: sql<number>`coalesce(min(${stagedTransactions.id}), 0)`.mapWith(Number),
      lastId: sql<number>`coalesce(max(${stagedTransactions.id}), -1)`.mapWith(Number),
    })
    .from(stagedTransactions)
    .where(eq(stagedTransactions.batchId, batchId));
  return c;
}

type StagedRow = typeof stagedTransactions.$inferSelect;
const field = (value: string, error?: string) => ({ value, error: error ?? null });
export function stagedView(r: StagedRow) {
  const e = r.errors ?? {};
  return {
    id: r.id,
    row_number: r.rowNumber,
    beneficiary_name: field(r.beneficiaryName, e.beneficiary_name),
    account_id: field(r.obolId, e.obol_id),
    obol_id: field(r.obolId, e.obol_id),
    merchant_transaction_id: field(r.merchantTransactionId, e.merchant_transaction_id),
    brand: field(r.brand, e.brand),
    reference: field(r.reference, e.reference),
    amount: field(r.amountText, e.amount),
    amount_cents: r.amount,
    status: r.status as StagedStatus,
  };
}

// ---------- changes, each guarded by lockPending in its own transaction ----------

export interface RowEdit {
  id: number;
  beneficiary_name: string;
  obol_id: string;
  merchant_transaction_id: string;
  brand: string;
  amount: string;
  reference: string;
}

export async function updateStagedRow(deps: Deps, auth: AuthContext, batchId: string, edit: RowEdit) {
  const values = trimRow(edit);
  return deps.db.transaction(async (tx) => {
    const b = await lockPending(tx, auth.scope, batchId);
    const [row] = await tx
      .select()
      .from(stagedTransactions)
      .where(and(eq(stagedTransactions.id, edit.id), eq(stagedTransactions.batchId, b.batchId)));
    if (!row) throw notFound('Transaction not found');
    const holder = await findHolderInScope(tx, { kind: 'all' }, b.behalfOfId);
    const brands = await brandNamesOf(tx, b.merchantId, holder ?? null);
    const mtid = values.merchant_transaction_id;
    const [inFile] = mtid
      ? await tx
          .select({ n: count() })
          .from(stagedTransactions)
          .where(
            and(
              eq(stagedTransactions.batchId, b.batchId),
              eq(stagedTransactions.merchantTransactionId, mtid),
              ne(stagedTransactions.id, row.id),
            ),
          )
      : [{ n: 0 }];
    const taken = mtid ? await takenMtids(tx, b.merchantId, b.batchId, [mtid]) : new Set<string>();
    const v = validateRow(values, { brands, duplicateInFile: inFile.n > 0, duplicateOfPayout: taken.has(mtid) });
    // the manual payout's third amount rule: refused, nothing changed (the batch's total is checked when it runs)
    if (!v.errors.amount && rowAmountIssue(v.amount, (await accountById(tx, b.accountId))?.balance))
      throw unprocessable(PAYMENT_MSG.amountExceeds, 'amount');
    const [updated] = await tx
      .update(stagedTransactions)
      .set({
        beneficiaryName: values.beneficiary_name,
        obolId: values.obol_id,
        merchantTransactionId: values.merchant_transaction_id,
        brand: values.brand,
        reference: values.reference,
        amountText: values.amount,
        amount: v.amount,
        errors: v.errors,
        status: v.status,
        missing: v.missing ? 1 : 0,
      })
      .where(eq(stagedTransactions.id, row.id))
      .returning();
    return { before: stagedView(row), after: stagedView(updated) };
  });
}

/**
 * Deletes staged rows of a Pending batch. Without a batch id the row's batch is looked up, and a row of
 * another tenant's batch answers exactly as a row that does not exist.
 */
export async function deleteStagedRows(deps: Deps, auth: AuthContext, batchId: string | null, ids: number[]) {
  if (!ids.length) return 0;
  let target = batchId;
  if (!target) {
    const [r] = await deps.db
      .select({ batchId: stagedTransactions.batchId })
      .from(stagedTransactions)
      .innerJoin(batches, eq(batches.batchId, stagedTransactions.batchId))
      .where(and(eq(stagedTransactions.id, ids[0]), batchScopeFilter(auth.scope)));
    if (!r) throw notFound('Transaction not found');
    target = r.batchId;
  }
  return deps.db.transaction(async (tx) => {
    const b = await lockPending(tx, auth.scope, target);
    const deleted = await tx
      .delete(stagedTransactions)
      .where(and(eq(stagedTransactions.batchId, b.batchId), inArray(stagedTransactions.id, ids)))
      .returning({ id: stagedTransactions.id });
    if (deleted.length === 0) throw notFound('Transaction not found');
    const left = await batchCounts(tx, b.batchId);
    await tx
      .update(batches)
      .set({ totalRows: left.pending + left.failed })
      .where(eq(batches.batchId, b.batchId));
    return deleted.length;
  });
}

/** A batch may be renamed until it is executed or declined: one conditional UPDATE. */
export async function renameBatch(deps: Deps, auth: AuthContext, batchId: string, fileName: string) {
  const clean = cleanFileName(fileName);
  if (!clean) throw unprocessable('The file name needs at least one letter or digit', 'file_name');
  const [before] = await deps.db
    .select({ fileName: batches.fileName })
    .from(batches)
    .where(and(batchScopeFilter(auth.scope), eq(batches.batchId, batchId)));
  if (!before) throw notFound('Batch not found');
  const [renamed] = await deps.db
    .update(batches)
    .set({ fileName: `${clean}.csv`, updatedAt: new Date() })
    .where(
      and(
        batchScopeFilter(auth.scope),
        eq(batches.batchId, batchId),
        or(eq(batches.status, 'Pending'), eq(batches.status, 'Processing')),
      ),
    )
    .returning({ status: batches.status });
  if (!renamed) {
    const [now] = await deps.db.select({ status: batches.status }).from(batches).where(eq(batches.batchId, batchId));
    throw conflict(`The batch is ${now?.status ?? 'gone'} and can no longer be changed`);
  }
  return { before: before.fileName, after: `${clean}.csv` };
}

/** Pending -> Declined, its staged rows gone, in one transaction. */
export async function clearBatch(deps: Deps, auth: AuthContext, batchId: string) {
  await deps.db.transaction(async (tx) => {
    const b = await lockPending(tx, auth.scope, batchId);
    await tx.update(batches).set({ status: 'Declined', updatedAt: new Date() }).where(eq(batches.batchId, b.batchId));
    await tx.delete(stagedTransactions).where(eq(stagedTransactions.batchId, b.batchId));
  });
}
