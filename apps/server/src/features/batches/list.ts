import type { BatchListResponse, BatchStatus } from '@obol/contract';
import { and, count, desc, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import { escapeLike, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { accountNameColumns } from '../ledger/accounts.ts';
import { batchOutcomes } from '../payouts/find.ts';
import { userNameColumn } from '../users/repo.ts';
import { batchScopeFilter } from './service.ts';
import { batches } from './tables.ts';

export interface BatchListQuery {
  page: number;
  perPage: number;
  search: string;
  status: string;
  /** only batches of the last 24 hours */
  recent?: boolean;
}

/** The batch list in the caller's scope, newest first: batch id or file name search, status filter. */
export async function listBatches(db: Executor, scope: Scope, q: BatchListQuery): Promise<BatchListResponse> {
  const filters: SQL[] = [batchScopeFilter(scope)];
  if (q.status) filters.push(eq(batches.status, q.status));
  if (q.search) {
    const p = `%${escapeLike(q.search)}%`;
    filters.push(or(ilike(batches.batchId, p), ilike(batches.fileName, p))!);
  }
  if (q.recent) filters.push(gte(batches.updatedAt, sql`now() - interval '24 hours'`));
  const where = and(...filters);
  const page = db
    .select({
      batchId: batches.batchId,
      payoutType: batches.payoutType,
      fileName: batches.fileName,
      status: batches.status,
      updatedAt: batches.updatedAt,
      createdAt: batches.createdAt,
      amount: batches.amount,
      fee: batches.fee,
      totalRows: batches.totalRows,
      uploadedById: batches.uploadedBy,
      behalfOfId: batches.behalfOfId,
      accountId: batches.accountId,
    })
    .from(batches)
    .where(where)
    .orderBy(desc(batches.updatedAt), desc(batches.batchId))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .as('page');
  // the page's batches' payouts counted by outcome, in the same statement: one index range of payouts_batch_idx
  // per batch of the page (the page is cut first, so a long list costs no more than its page)
  const outcome = batchOutcomes(db, page.batchId);
  // who and which account, looked up by their owners for the page's rows only
  const account = accountNameColumns(page.accountId);
  const rows = await db
    .select({
      batchId: page.batchId,
      payoutType: page.payoutType,
      fileName: page.fileName,
      status: page.status,
      updatedAt: page.updatedAt,
      createdAt: page.createdAt,
      amount: page.amount,
      fee: page.fee,
      totalRows: page.totalRows,
      uploadedBy: userNameColumn(page.uploadedById),
      behalfOf: userNameColumn(page.behalfOfId),
      accountName: account.name,
      accountReference: account.reference,
      completed: outcome.completed,
      failed: outcome.failed,
      inFlight: outcome.inFlight,
    })
    .from(page)
    .leftJoinLateral(outcome, sql`true`)
    .orderBy(desc(page.updatedAt), desc(page.batchId));
  const [{ total }] = await db.select({ total: count() }).from(batches).where(where);
  return {
    data: rows.map((r) => ({
      batch_id: r.batchId,
      payout_type: r.payoutType,
      uploaded_by: { name: r.uploadedBy },
      account_used: { name: r.accountName, account_reference: r.accountReference },
      behalf_of: { name: r.behalfOf },
      file_name: r.fileName,
      updated_at: r.updatedAt.toISOString(),
      created_at: r.createdAt.toISOString(),
      batch_status: r.status as BatchStatus,
      amount: r.amount,
      fee: r.fee,
      total_rows: r.totalRows,
      payouts: { completed: r.completed ?? 0, failed: r.failed ?? 0, in_flight: r.inFlight ?? 0 },
    })),
    total,
  };
}
