import {
  APPROVAL_GROUPS,
  APPROVAL_MSG,
  approverPermissionOf,
  APPROVAL_KINDS,
  type ApprovalKind,
  type ApprovalPolicy,
  type ApprovalRow,
  type ApprovalStatus,
} from '@obol/contract';
import { and, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import { ApiError, conflict, notFound } from '../../platform/errors.ts';
import type { AuthContext } from '../../platform/http.ts';
import type { Scope } from '../../platform/scope.ts';
import { consumeApprovalCode, issueApprovalCode } from '../auth/approval.ts';
import { approvalPolicies, approvals } from './tables.ts';

type HolderType = 'merchant' | 'company';
type ApprovalDb = typeof approvals.$inferSelect;

/** A holder's threshold in cents, read in the command's transaction; 0 when none is set. */
export async function thresholdOf(db: Executor, holderType: HolderType, holderId: number | null): Promise<number> {
  if (!holderId) return 0;
  const [p] = await db
    .select({ threshold: approvalPolicies.threshold })
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.holderType, holderType), eq(approvalPolicies.holderId, holderId)));
  return p?.threshold ?? 0;
}

/** Whether an amount must wait for a second person under this threshold (at or above it; 0 is off). */
export const needsApproval = (threshold: number, amount: number) => threshold > 0 && amount >= threshold;

export async function readPolicy(db: Executor, holderType: HolderType, holderId: number): Promise<ApprovalPolicy> {
  const [p] = await db
    .select()
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.holderType, holderType), eq(approvalPolicies.holderId, holderId)));
  return {
    holder_type: holderType,
    holder_id: holderId,
    threshold: p?.threshold ?? 0,
    updated_at: p?.updatedAt.toISOString() ?? null,
    updated_by: p?.updatedBy ?? null,
  };
}

/** Sets a threshold (one upsert); answers the policy before and after, for the activity log. */
export async function writePolicy(
  db: Executor,
  holderType: HolderType,
  holderId: number,
  threshold: number,
  by: string,
): Promise<{ before: ApprovalPolicy; after: ApprovalPolicy }> {
  const before = await readPolicy(db, holderType, holderId);
  await db
    .insert(approvalPolicies)
    .values({ holderType, holderId, threshold, updatedBy: by })
    .onConflictDoUpdate({
      target: [approvalPolicies.holderType, approvalPolicies.holderId],
      set: { threshold, updatedBy: by, updatedAt: sql`now()` },
    });
  return { before, after: await readPolicy(db, holderType, holderId) };
}

export interface NewApproval {
  kind: ApprovalKind;
  objectId: string;
  merchantId: number | null;
  holderId: number | null;
  holderName: string;
  amount: number;
  currency?: string;
  description: string;
  makerId: number;
  makerName: string;
}

/** Records what waits, in the transaction that reserved its money; answers the approval's id. */
export async function holdForApproval(tx: Tx, a: NewApproval): Promise<number> {
  const [row] = await tx
    .insert(approvals)
    .values({ ...a, currency: a.currency ?? 'EUR' })
    .returning({ id: approvals.id });
  return row.id;
}

/**
 * What each kind does once decided, in the deciding transaction (handed in by app.ts, as the features that own the
 * movements import this one): `release` sends it on to the provider, `reject` returns its reserve and fails it.
 */
export interface Release {
  release(tx: Tx, objectId: string): Promise<void>;
  reject(tx: Tx, objectId: string, reason: string): Promise<void>;
}
export type Releases = Record<ApprovalKind, Release>;

/** The kinds a caller may see and decide: by their permissions. */
const kindsOf = (auth: AuthContext) => APPROVAL_KINDS.filter((k) => auth.permissions.has(approverPermissionOf(k)));

/** A tenant sees its own; staff see every merchant's; 2D transfers belong to no merchant (their admins see them). */
function scopeFilter(scope: Scope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'merchant':
      return eq(approvals.merchantId, scope.merchantId);
    case 'brand':
      return and(eq(approvals.merchantId, scope.merchantId), eq(approvals.holderId, scope.brandId));
    default:
      return sql`false`;
  }
}

function visible(auth: AuthContext): SQL {
  const kinds = kindsOf(auth);
  if (!kinds.length) return sql`false`;
  return and(inArray(approvals.kind, kinds), scopeFilter(auth.scope)) ?? sql`true`;
}

const rowOf = (r: ApprovalDb, userId: number): ApprovalRow => ({
  id: r.id,
  kind: r.kind as ApprovalKind,
  object_id: r.objectId,
  holder_name: r.holderName,
  amount: r.amount,
  currency: r.currency,
  description: r.description,
  status: r.status as ApprovalStatus,
  made_by: r.makerName,
  made_at: r.createdAt.toISOString(),
  own: r.makerId === userId,
  decided_by: r.decidedByName,
  decided_at: r.decidedAt?.toISOString() ?? null,
  reason: r.reason,
});

export async function listApprovals(
  deps: Deps,
  auth: AuthContext,
  q: { per_page: number; page: number; status?: ApprovalStatus; group?: keyof typeof APPROVAL_GROUPS },
) {
  const group = q.group ? inArray(approvals.kind, [...APPROVAL_GROUPS[q.group]]) : undefined;
  const where = and(visible(auth), group, q.status ? eq(approvals.status, q.status) : undefined);
  const [rows, [total], [pending]] = await Promise.all([
    deps.db
      .select()
      .from(approvals)
      .where(where)
      .orderBy(desc(approvals.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    deps.db.select({ n: count() }).from(approvals).where(where),
    deps.db
      .select({ n: count() })
      .from(approvals)
      .where(and(visible(auth), group, eq(approvals.status, 'Pending'), ne(approvals.makerId, auth.user.id))),
  ]);
  return { data: rows.map((r) => rowOf(r, auth.user.id)), total: total.n, pending: pending.n };
}

/** One the caller may see, still pending and not their own; else the 4xx that says why. */
async function decidable(deps: Deps, auth: AuthContext, id: number): Promise<ApprovalDb> {
  const [row] = await deps.db
    .select()
    .from(approvals)
    .where(and(eq(approvals.id, id), visible(auth)));
  if (!row) throw notFound(APPROVAL_MSG.notFound);
  if (row.makerId === auth.user.id) throw new ApiError(403, [APPROVAL_MSG.ownApproval]);
  if (row.status !== 'Pending') throw conflict(APPROVAL_MSG.decided);
  return row;
}

/** The approver's code is bound to this approval and its amount: it approves nothing else. */
const approveBinding = (row: ApprovalDb) => ({ op: 'approve', approval_id: row.id, amount: row.amount });

const what = (row: ApprovalDb) =>
  `${row.kind === '2d' ? 'a 2D transfer' : `a ${row.kind}`} of ${(row.amount / 100).toFixed(2)} ${row.currency} ` +
  `for ${row.holderName} (${row.description}), made by ${row.makerName}`;

export async function requestApproverCode(deps: Deps, auth: AuthContext, id: number) {
  const row = await decidable(deps, auth, id);
  return issueApprovalCode(deps, auth.user, 'approve', approveBinding(row), what(row));
}

/**
 * Decides in one transaction: the row moves Pending -> Approved or Rejected only if it is still Pending and the
 * caller did not make it (one conditional UPDATE: of an approve and a reject at the same moment one finds nothing
 * to move and answers 409), and the movement is released or returned with it.
 */
async function decide(
  deps: Deps,
  auth: AuthContext,
  row: ApprovalDb,
  to: 'Approved' | 'Rejected',
  reason: string | null,
  releases: Releases,
  record?: (tx: Tx, approval: ApprovalRow) => Promise<void>,
): Promise<ApprovalRow> {
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(approvals)
      .set({
        status: to,
        decidedBy: auth.user.id,
        decidedByName: auth.user.name,
        decidedAt: sql`now()`,
        reason,
      })
      .where(and(eq(approvals.id, row.id), eq(approvals.status, 'Pending'), ne(approvals.makerId, auth.user.id)))
      .returning();
    if (!moved) throw conflict(APPROVAL_MSG.decided);
    const kind = releases[moved.kind as ApprovalKind];
    if (to === 'Approved') await kind.release(tx, moved.objectId);
    else await kind.reject(tx, moved.objectId, `Rejected by ${auth.user.name}: ${reason}`);
    const shown = rowOf(moved, auth.user.id);
    await record?.(tx, shown);
    return shown;
  });
}

export async function approve(
  deps: Deps,
  auth: AuthContext,
  input: { id: number; code: string },
  releases: Releases,
  record?: (tx: Tx, approval: ApprovalRow) => Promise<void>,
) {
  const row = await decidable(deps, auth, input.id);
  await consumeApprovalCode(deps, auth.user, 'approve', approveBinding(row), input.code);
  return decide(deps, auth, row, 'Approved', null, releases, record);
}

export async function reject(
  deps: Deps,
  auth: AuthContext,
  input: { id: number; reason: string },
  releases: Releases,
  record?: (tx: Tx, approval: ApprovalRow) => Promise<void>,
) {
  const row = await decidable(deps, auth, input.id);
  return decide(deps, auth, row, 'Rejected', input.reason, releases, record);
}
