import { activityLabel, type ActivityOutcome, type ActivityRow } from '@obol/contract';
import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { usersUnder } from '../users/repo.ts';
import { activityLog } from '../../platform/tables.ts';

/**
 * The records a scope may see: staff every record; a merchant (and its team, if given the permission) those of
 * the merchant's own users (itself, its team, its brands); a brand none.
 */
export function activityScope(scope: Scope): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'merchant':
      return or(eq(activityLog.userId, scope.merchantId), inArray(activityLog.userId, usersUnder(scope.merchantId)))!;
    default:
      return sql`false`;
  }
}

export interface LogsQuery {
  page: number;
  perPage: number;
  /** [from, to) of the day asked for, or none for every day */
  range?: { from: Date; to: Date };
}

type Record = typeof activityLog.$inferSelect;

function toRow(r: Record): ActivityRow {
  return {
    id: r.id,
    seq: r.seq,
    user_name: r.userName,
    user_email: r.userEmail,
    activity: activityLabel(r.action, r.outcome),
    action: r.action,
    outcome: r.outcome as ActivityOutcome,
    status_code: r.statusCode,
    target: r.targetType ? { type: r.targetType, id: r.targetId } : null,
    before: r.before ?? null,
    after: r.after ?? null,
    detail: r.detail,
    ip: r.ip,
    request_id: r.requestId,
    created_at: r.createdAt.toISOString(),
    prev_hash: r.prevHash,
    hash: r.hash,
  };
}

/** A page of the records in scope, newest first (the created_at, seq index serves the day and the order). */
export async function listLogs(db: Executor, scope: Scope, q: LogsQuery) {
  const terms: SQL[] = [activityScope(scope)];
  if (q.range) terms.push(gte(activityLog.createdAt, q.range.from), lt(activityLog.createdAt, q.range.to));
  const where = and(...terms);
  const rows = await db
    .select()
    .from(activityLog)
    .where(where)
    .orderBy(desc(activityLog.createdAt), desc(activityLog.seq))
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage);
  const [{ total }] = await db.select({ total: count() }).from(activityLog).where(where);
  return { data: rows.map(toRow), total };
}
