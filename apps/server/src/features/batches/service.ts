import { rm } from 'node:fs/promises';
import path from 'node:path';
import { feeCents, PAYMENT_MSG } from '@obol/contract';
import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor } from '../../platform/db.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { platformAccountId } from '../ledger/accounts.ts';
import { InsufficientFunds, postEntry } from '../ledger/service.ts';
import { accounts } from '../ledger/tables.ts';
import { brandNamesOf } from '../payments/service.ts';
import { findHolderInScope } from '../payments/holders.ts';
import { submitPayout } from '../payouts/service.ts';
import { payouts } from '../payouts/tables.ts';
import { FileRefused, readRows, type FileFormat, type RawRow } from './parse.ts';
import { batches, stagedTransactions } from './tables.ts';
import { validateRow } from './validate.ts';

export type BatchRow = typeof batches.$inferSelect;
export const STAGE_CHUNK = 1000;

export const uploadPath = (deps: Deps, batchId: string, format: string) =>
  path.join(deps.config.dataDir, 'uploads', `${batchId}.${format}`);

/** Batches a scope may see: staff all; a merchant (team) its own; a brand those made on its behalf. */
export function batchScopeFilter(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return eq(batches.merchantId, scope.merchantId);
    case 'brand':
      return eq(batches.behalfOfId, scope.brandId);
    default:
      return sql`false`;
  }
}

export async function findBatchInScope(db: Executor, scope: Scope, batchId: string): Promise<BatchRow> {
  const [b] = await db
    .select()
    .from(batches)
    .where(and(batchScopeFilter(scope), eq(batches.batchId, batchId)))
    .limit(1);
  if (!b) throw notFound('Batch not found');
  return b;
}

/** Only a staged batch awaiting execution may be edited, cleared or executed. */
function assertPending(b: BatchRow) {
  if (b.status === 'Processing') throw conflict(PAYMENT_MSG.batchProcessing);
  if (b.status !== 'Pending') throw conflict(`The batch is ${b.status} and can no longer be changed`);
}

// ---------- staging ----------

/**
 * The staging job: streams the stored file, validates every row and writes it in chunks, updating the
 * progress as it goes. Safe to run again: it starts the batch's rows afresh.
 */
export async function stageBatch(deps: Deps, batchId: string): Promise<void> {
  const [b] = await deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b || b.status !== 'Processing' || b.executedAt) return;
  const holder = await findHolderInScope(deps.db, { kind: 'all' }, b.behalfOfId);
  const brands = await brandNamesOf(deps.db, b.merchantId, holder ?? null);
  const file = uploadPath(deps, batchId, b.fileFormat ?? 'csv');
  await deps.db.delete(stagedTransactions).where(eq(stagedTransactions.batchId, batchId));
  await deps.db.update(batches).set({ processedRows: 0 }).where(eq(batches.batchId, batchId));
  const seen = new Set<string>();
  let chunk: { row: number; values: RawRow }[] = [];
  let processed = 0;
  const flush = async () => {
    if (!chunk.length) return;
    const mtids = [...new Set(chunk.map((c) => c.values.merchant_transaction_id).filter(Boolean))];
    const used = mtids.length
      ? await deps.db
          .select({ m: payouts.merchantTransactionId })
          .from(payouts)
          .where(and(eq(payouts.merchantId, b.merchantId), inArray(payouts.merchantTransactionId, mtids)))
      : [];
    const usedSet = new Set(used.map((u) => u.m));
    const rows = chunk.map((c) => {
      const mtid = c.values.merchant_transaction_id;
      const dupInFile = !!mtid && seen.has(mtid);
      if (mtid) seen.add(mtid);
      const v = validateRow(c.values, { brands, duplicateInFile: dupInFile, duplicateOfPayout: usedSet.has(mtid) });
      return { row: c.row, v };
    });
    await insertStaged(deps.db, batchId, rows);
    processed += chunk.length;
    chunk = [];
    await deps.db
      .update(batches)
      .set({ processedRows: processed, updatedAt: new Date() })
      .where(eq(batches.batchId, batchId));
    // let other requests run between chunks (PGlite shares the event loop)
    await new Promise((r) => setImmediate(r));
  };
  try {
    for await (const r of readRows(file, (b.fileFormat ?? 'csv') as FileFormat)) {
      chunk.push(r);
      if (chunk.length >= STAGE_CHUNK) await flush();
    }
    await flush();
    await deps.db
      .update(batches)
      .set({ status: 'Pending', totalRows: processed, updatedAt: new Date() })
      .where(eq(batches.batchId, batchId));
  } catch (err) {
    if (!(err instanceof FileRefused)) throw err;
    // the file changed under us or could not be read after all: nothing of it stays
    await deps.db.delete(stagedTransactions).where(eq(stagedTransactions.batchId, batchId));
    await deps.db
      .update(batches)
      .set({ status: 'Declined', error: err.message, updatedAt: new Date() })
      .where(eq(batches.batchId, batchId));
  }
  await rm(file, { force: true });
}

/** One INSERT ... SELECT FROM unnest(...) per chunk: far faster than a row at a time. */
async function insertStaged(db: Executor, batchId: string, rows: { row: number; v: ReturnType<typeof validateRow> }[]) {
  // each column travels as one array parameter
  const col = <T>(f: (r: (typeof rows)[number]) => T) => sql.param(rows.map(f));
  await db.execute(sql`
    INSERT INTO staged_transactions
      (batch_id, row_number, beneficiary_name, obol_id, merchant_transaction_id, brand, reference, amount_text, amount, errors, status, missing)
    SELECT ${batchId}, * FROM unnest(
      ${col((r) => r.row)}::int[], ${col((r) => r.v.values.beneficiary_name)}::text[], ${col((r) => r.v.values.obol_id)}::text[],
      ${col((r) => r.v.values.merchant_transaction_id)}::text[], ${col((r) => r.v.values.brand)}::text[],
      ${col((r) => r.v.values.reference)}::text[], ${col((r) => r.v.values.amount)}::text[],
      ${col((r) => r.v.amount)}::bigint[], ${col((r) => JSON.stringify(r.v.errors))}::jsonb[],
      ${col((r) => r.v.status)}::text[], ${col((r) => (r.v.missing ? 1 : 0))}::int[]
    )`);
}

// ---------- review ----------

export interface StagedQuery {
  page: number;
  perPage: number;
  search: string;
  status: '' | 'Pending' | 'Failed';
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function stagedPage(db: Executor, batchId: string, q: StagedQuery) {
  const filters: SQL[] = [eq(stagedTransactions.batchId, batchId)];
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
  const rows = await db
    .select()
    .from(stagedTransactions)
    .where(where)
    .orderBy(asc(stagedTransactions.rowNumber), asc(stagedTransactions.id))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ total }] = await db.select({ total: count() }).from(stagedTransactions).where(where);
  const counts = await batchCounts(db, batchId);
  return {
    transaction: { data: rows.map(stagedView), total },
    missingTransaction: counts.missing,
    pendingTransaction: counts.pending,
    failedTransaction: counts.failed,
  };
}

export async function batchCounts(db: Executor, batchId: string) {
  const [c] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Pending')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${stagedTransactions.status} = 'Failed')`.mapWith(Number),
      missing: sql<number>`count(*) filter (where ${stagedTransactions.missing} > 0)`.mapWith(Number),
      amount:
        sql<number>`coalesce(sum(${stagedTransactions.amount}) filter (where ${stagedTransactions.status} = 'Pending'), 0)`.mapWith(
          Number,
        ),
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
    status: r.status,
  };
}

/** Total and batch fee of the executable rows: the fee is applied on the summed amount. */
export async function batchAmount(db: Executor, b: BatchRow) {
  const c = await batchCounts(db, b.batchId);
  const feeBps = await batchFeeBps(db, b);
  return { amount: c.amount, fee: feeCents(c.amount, feeBps), feeBps, counts: c };
}

async function batchFeeBps(db: Executor, b: BatchRow) {
  const [acct] = await db.select({ kind: accounts.kind }).from(accounts).where(eq(accounts.id, b.accountId));
  if (acct?.kind === 'fee') return 0;
  const holder = await findHolderInScope(db, { kind: 'all' }, b.behalfOfId);
  return holder?.feeBps ?? 0;
}

// ---------- edits ----------

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
  const b = await findBatchInScope(deps.db, auth.scope, batchId);
  assertPending(b);
  const [row] = await deps.db
    .select()
    .from(stagedTransactions)
    .where(and(eq(stagedTransactions.id, edit.id), eq(stagedTransactions.batchId, b.batchId)));
  if (!row) throw notFound('Transaction not found');
  const values: RawRow = {
    beneficiary_name: edit.beneficiary_name.trim(),
    obol_id: edit.obol_id.trim(),
    merchant_transaction_id: edit.merchant_transaction_id.trim(),
    brand: edit.brand.trim(),
    reference: edit.reference.trim(),
    amount: String(edit.amount).trim(),
  };
  const holder = await findHolderInScope(deps.db, { kind: 'all' }, b.behalfOfId);
  const brands = await brandNamesOf(deps.db, b.merchantId, holder ?? null);
  const mtid = values.merchant_transaction_id;
  const [inFile] = mtid
    ? await deps.db
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
  const [ofPayout] = mtid
    ? await deps.db
        .select({ n: count() })
        .from(payouts)
        .where(and(eq(payouts.merchantId, b.merchantId), eq(payouts.merchantTransactionId, mtid)))
    : [{ n: 0 }];
  const v = validateRow(values, { brands, duplicateInFile: inFile.n > 0, duplicateOfPayout: ofPayout.n > 0 });
  const before = stagedView(row);
  const [updated] = await deps.db
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
  await deps.db.update(batches).set({ updatedAt: new Date() }).where(eq(batches.batchId, b.batchId));
  return { before, after: stagedView(updated) };
}

export async function deleteStagedRows(deps: Deps, auth: AuthContext, batchId: string | null, ids: number[]) {
  if (!ids.length) return 0;
  let target = batchId;
  if (!target) {
    const [r] = await deps.db
      .select({ batchId: stagedTransactions.batchId })
      .from(stagedTransactions)
      .where(eq(stagedTransactions.id, ids[0]));
    if (!r) throw notFound('Transaction not found');
    target = r.batchId;
  }
  const b = await findBatchInScope(deps.db, auth.scope, target);
  assertPending(b);
  const deleted = await deps.db
    .delete(stagedTransactions)
    .where(and(eq(stagedTransactions.batchId, b.batchId), inArray(stagedTransactions.id, ids)))
    .returning({ id: stagedTransactions.id });
  if (deleted.length !== ids.length && deleted.length === 0) throw notFound('Transaction not found');
  const left = await batchCounts(deps.db, b.batchId);
  await deps.db
    .update(batches)
    .set({ totalRows: left.pending + left.failed, updatedAt: new Date() })
    .where(eq(batches.batchId, b.batchId));
  return deleted.length;
}

/** Non-word characters are stripped; the .csv suffix is dropped for display. */
export const cleanFileName = (name: string) => name.replace(/\.(csv|xlsx)$/i, '').replace(/\W+/g, '');

export async function renameBatch(deps: Deps, auth: AuthContext, batchId: string, fileName: string) {
  const b = await findBatchInScope(deps.db, auth.scope, batchId);
  if (b.status === 'Completed' || b.status === 'Declined')
    throw conflict(`The batch is ${b.status} and can no longer be changed`);
  const clean = cleanFileName(fileName);
  if (!clean) throw unprocessable('The file name needs at least one letter or digit', 'file_name');
  await deps.db
    .update(batches)
    .set({ fileName: `${clean}.csv`, updatedAt: new Date() })
    .where(eq(batches.batchId, b.batchId));
  return { before: b.fileName, after: `${clean}.csv` };
}

export async function clearBatch(deps: Deps, auth: AuthContext, batchId: string) {
  const b = await findBatchInScope(deps.db, auth.scope, batchId);
  assertPending(b);
  await deps.db.transaction(async (tx) => {
    const [u] = await tx
      .update(batches)
      .set({ status: 'Declined', updatedAt: new Date() })
      .where(and(eq(batches.batchId, b.batchId), eq(batches.status, 'Pending')))
      .returning({ id: batches.batchId });
    if (!u) throw conflict('The batch is no longer pending');
    await tx.delete(stagedTransactions).where(eq(stagedTransactions.batchId, b.batchId));
  });
}

// ---------- execution ----------

const executeBinding = (batchId: string, amount: number) => ({ op: 'execute_batch', batch_id: batchId, amount });

async function executable(deps: Deps, auth: AuthContext, batchId: string) {
  const b = await findBatchInScope(deps.db, auth.scope, batchId);
  assertPending(b);
  const { amount, fee, feeBps, counts } = await batchAmount(deps.db, b);
  if (counts.pending === 0) throw unprocessable('The batch has no executable transactions');
  if (counts.missing > 0) throw unprocessable('Some transactions miss required fields: fix or delete them first');
  const [acct] = await deps.db.select().from(accounts).where(eq(accounts.id, b.accountId));
  if (acct.balance < amount + fee) throw unprocessable('Insufficient balance');
  return { b, amount, fee, feeBps, counts, account: acct };
}

/** Checks the batch can run and sends the code that approves exactly this batch and total. */
export async function requestExecution(deps: Deps, auth: AuthContext, batchId: string, clientAmount?: number) {
  const { b, amount, fee } = await executable(deps, auth, batchId);
  if (clientAmount !== undefined && clientAmount !== amount) {
    throw conflict(`The batch total is now ${amount} cents; review the batch again`);
  }
  return issueApprovalCode(
    deps,
    auth.user,
    'execute_batch',
    executeBinding(b.batchId, amount),
    `batch ${b.batchId} of ${(amount / 100).toFixed(2)} EUR plus ${(fee / 100).toFixed(2)} EUR fee`,
  );
}

/**
 * Confirms with the code: in one transaction the batch moves Pending -> Processing (once) and its total plus
 * fee is reserved from the payout account in one ledger entry; the payouts are then created and sent by jobs.
 */
export async function confirmExecution(deps: Deps, auth: AuthContext, batchId: string, code: string) {
  const { b, amount, fee, feeBps } = await executable(deps, auth, batchId);
  await consumeApprovalCode(deps, auth.user, 'execute_batch', executeBinding(b.batchId, amount), code);
  try {
    await deps.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(batches)
        .set({ status: 'Processing', amount, fee, feeBps, executedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(batches.batchId, b.batchId), eq(batches.status, 'Pending')))
        .returning({ id: batches.batchId });
      if (!moved) throw conflict('The batch has already been executed');
      const clearing = await platformAccountId(tx, 'payout_clearing');
      const feeAccount = await platformAccountId(tx, 'fee');
      const lines = [
        { accountId: b.accountId, amount: -(amount + fee) },
        { accountId: clearing, amount },
      ];
      if (fee > 0) lines.push({ accountId: feeAccount, amount: fee });
      await postEntry(tx, {
        idempotencyKey: `batch:${b.batchId}:reserve`,
        kind: 'batch.reserve',
        businessType: 'batch',
        businessId: b.batchId,
        createdBy: auth.user.id,
        postings: lines,
      });
      await deps.jobs.send('batch.execute', { batchId: b.batchId }, { tx });
    });
  } catch (err) {
    if (err instanceof InsufficientFunds) throw unprocessable('Insufficient balance');
    throw err;
  }
  return { amount, fee };
}

/**
 * The execution job: creates the batch's payouts from its executable rows in chunks (each with its own
 * idempotency key, so a rerun creates nothing twice), then marks the batch Completed and queues submission.
 */
export async function executeBatch(deps: Deps, batchId: string): Promise<void> {
  const [b] = await deps.db.select().from(batches).where(eq(batches.batchId, batchId));
  if (!b || b.status !== 'Processing' || !b.executedAt) return;
  let after = 0;
  for (;;) {
    const res = await deps.db.execute(sql`
      WITH chunk AS (
        SELECT * FROM staged_transactions
        WHERE batch_id = ${batchId} AND status = 'Pending' AND row_number > ${after}
        ORDER BY row_number LIMIT ${STAGE_CHUNK}
      ), ins AS (
        INSERT INTO payouts (merchant_id, behalf_of_id, account_id, created_by, batch_id, payout_type,
          merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, fee, fee_bps, status, idempotency_key)
        SELECT ${b.merchantId}, ${b.behalfOfId}, ${b.accountId}, ${b.uploadedBy}, ${batchId}, 'batch',
          merchant_transaction_id, beneficiary_name, brand, obol_id, reference, amount, 0, ${b.feeBps}, 'Processing',
          'batch:' || ${batchId} || ':row:' || row_number
        FROM chunk
        ON CONFLICT (idempotency_key) DO NOTHING
      )
      SELECT max(row_number) AS last FROM chunk`);
    const last = (res as unknown as { rows: { last: number | null }[] }).rows?.[0]?.last;
    if (last === null || last === undefined) break;
    after = Number(last);
    await new Promise((r) => setImmediate(r));
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(batches)
      .set({ status: 'Completed', updatedAt: new Date() })
      .where(and(eq(batches.batchId, batchId), eq(batches.status, 'Processing')));
    await deps.jobs.send('batch.submit', { batchId }, { tx, singletonKey: batchId });
  });
}

/** Sends the batch's unsent payouts to the provider, a few at a time; safe to rerun. */
export async function submitBatch(deps: Deps, batchId: string, concurrency = 8): Promise<void> {
  for (;;) {
    const todo = await deps.db
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.batchId, batchId), eq(payouts.status, 'Processing'), sql`${payouts.providerId} IS NULL`))
      .orderBy(asc(payouts.id))
      .limit(200);
    if (!todo.length) return;
    let i = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (i < todo.length) {
          const id = todo[i++].id;
          await submitPayout(deps, deps.provider, id);
        }
      }),
    );
  }
}
