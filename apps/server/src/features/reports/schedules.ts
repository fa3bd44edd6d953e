import { REPORTS, type ReportKind, type ReportSchedule } from '@obol/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import { authContextOf } from '../auth/sessions.ts';
import { startExport } from '../downloads/service.ts';
import { REPORT_SPECS } from './reports.ts';
import { reportHolder, reportParams } from './service.ts';
import { reportSchedules } from './tables.ts';

type Row = typeof reportSchedules.$inferSelect;

/** The first instant of the month after `d` (UTC). */
const nextMonthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
/** YYYY-MM of the month before `d` (UTC), and its first and last days. */
export function previousMonth(d: Date) {
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0));
  return {
    period: first.toISOString().slice(0, 7),
    start: first.toISOString().slice(0, 10),
    end: last.toISOString().slice(0, 10),
  };
}

const toSchedule = (r: Row, now = new Date()): ReportSchedule => ({
  id: r.id,
  kind: r.kind as ReportKind,
  name: r.name,
  auth_id: r.authId,
  format: r.format as 'csv' | 'xlsx',
  last_period: r.lastPeriod,
  next_run: nextMonthStart(now).toISOString(),
  created_at: r.createdAt.toISOString(),
});

export async function listSchedules(db: Executor, auth: AuthContext): Promise<ReportSchedule[]> {
  const rows = await db
    .select()
    .from(reportSchedules)
    .where(and(eq(reportSchedules.ownerId, auth.user.id), eq(reportSchedules.active, true)))
    .orderBy(reportSchedules.createdAt, reportSchedules.id);
  return rows.map((r) => toSchedule(r));
}

/**
 * Schedules a report monthly for the caller: the report's permission and holder rules as for pulling it now. The
 * same report of the same holder again is the same schedule (a unique index), made active again if it was removed;
 * the months before it was made are not pulled.
 */
export async function scheduleReport(
  deps: Deps,
  auth: AuthContext,
  input: { kind: ReportKind; name: string; auth_id: number; format: 'csv' | 'xlsx' },
): Promise<ReportSchedule> {
  const report = REPORTS.find((r) => r.kind === input.kind)!;
  if (!auth.permissions.has(report.permission)) throw forbidden();
  await reportHolder(deps, auth, input.kind, input.auth_id);
  const { period } = previousMonth(new Date());
  const [row] = await deps.db
    .insert(reportSchedules)
    .values({
      ownerId: auth.user.id,
      kind: input.kind,
      authId: input.auth_id,
      name: input.name,
      format: input.format,
      lastPeriod: period,
    })
    .onConflictDoUpdate({
      target: [reportSchedules.ownerId, reportSchedules.kind, reportSchedules.authId],
      set: {
        active: true,
        name: input.name,
        format: input.format,
        // a schedule made again starts from now: the months it was off are not pulled
        lastPeriod: sql`CASE WHEN ${reportSchedules.active} THEN ${reportSchedules.lastPeriod} ELSE ${period} END`,
      },
    })
    .returning();
  return toSchedule(row);
}

export async function unscheduleReport(db: Executor, auth: AuthContext, id: number) {
  const [row] = await db
    .update(reportSchedules)
    .set({ active: false })
    .where(and(eq(reportSchedules.id, id), eq(reportSchedules.ownerId, auth.user.id), eq(reportSchedules.active, true)))
    .returning({ id: reportSchedules.id });
  // another user's schedule answers as one that does not exist
  if (!row) throw notFound('Schedule not found');
}

/**
 * Pulls every scheduled report whose last month is behind the month before `now` (UTC): each schedule is claimed by
 * moving its `last_period` forward in the transaction that starts its file (one conditional UPDATE: two processes,
 * or a run after a restart, find nothing more to claim), on its owner's behalf with their permissions and scope as
 * they are now. A month missed while the server was down is pulled when it runs again; months further back are
 * not (the schedule catches up to the last month only). An owner who may no longer pull the report, or whose
 * holder left their scope, has the month skipped and is told nothing. Answers how many were pulled.
 */
export async function runDueSchedules(deps: Deps, now = new Date()): Promise<number> {
  const { period, start, end } = previousMonth(now);
  const due = await deps.db
    .select()
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.active, true),
        sql`(${reportSchedules.lastPeriod} IS NULL OR ${reportSchedules.lastPeriod} < ${period})`,
      ),
    )
    .orderBy(reportSchedules.id)
    .limit(500);
  let pulled = 0;
  for (const s of due) {
    const owner = await authContextOf(deps, s.ownerId);
    const report = REPORTS.find((r) => r.kind === s.kind);
    // checked before the claim (on the owner's authority as it is now); a failed check still claims the month
    let params: Awaited<ReturnType<typeof reportParams>> | null = null;
    if (owner && report && owner.permissions.has(report.permission)) {
      try {
        params = await reportParams(
          deps,
          owner,
          report.kind,
          { name: s.name, auth_id: s.authId, start_date: start, end_date: end, tz: 'UTC', format: s.format as 'csv' },
          { notifyEmail: owner.email, now },
        );
      } catch (err) {
        deps.log.warn({ err, schedule: s.id }, 'a scheduled report cannot be pulled; its month is skipped');
      }
    }
    const started = await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(reportSchedules)
        .set({ lastPeriod: period })
        .where(
          and(
            eq(reportSchedules.id, s.id),
            eq(reportSchedules.active, true),
            sql`(${reportSchedules.lastPeriod} IS NULL OR ${reportSchedules.lastPeriod} < ${period})`,
          ),
        )
        .returning({ id: reportSchedules.id });
      if (!claimed || !params || !owner || !report) return false;
      await startExport(deps, owner, REPORT_SPECS[report.kind], params, tx, { allowEmpty: true });
      return true;
    });
    if (started) pulled++;
  }
  return pulled;
}
