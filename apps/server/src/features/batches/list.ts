import type { BatchListResponse, BatchStatus } from '@obol/contract';
import { and, count, desc, eq, gte, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { escapeLike, type Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { accounts } from '../ledger/tables.ts';
import { batchOutcomes } from '../payouts/find.ts';
import { users } from '../users/tables.ts';
import { batchScopeFilter } from './service.ts';
import { batches } from './tables.ts';

const uploader = alias(users, 'uploader');
const behalf = alias(users, 'behalf');
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
      uploadedBy: sql<string>`${uploader.name}`.as('uploaded_by_name'),
      behalfOf: sql<string>`${behalf.name}`.as('behalf_of_name'),
      accountName: sql<string>`${accounts.name}`.as('account_name'),
      accountReference: accounts.accountReference,
    })
    .from(batches)
    .innerJoin(uploader, eq(uploader.id, batches.uploadedBy))
    .innerJoin(behalf, eq(behalf.id, batches.behalfOfId))
    .innerJoin(accounts, eq(accounts.id, batches.accountId))
    .where(where)
    .orderBy(desc(batches.updatedAt), desc(batches.batchId))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .as('page');
  // the page's batches' payouts counted by outcome, in the same statement: one index range of payouts_batch_idx
  // per batch of the page (the page is cut first, so a long list costs no more than its page)
  const outcome = batchOutcomes(db, page.batchId);
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
      uploadedBy: page.uploadedBy,
      behalfOf: page.behalfOf,
      accountName: page.accountName,
      accountReference: page.accountReference,
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
