import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { moneyEvents } from './tables.ts';

export type MoneyEventKind = 'payout' | 'batch' | 'transfer' | 'refund' | 'reward' | '2d' | 'payin';

export interface MoneyEvent {
  id: number;
  kind: MoneyEventKind;
  objectId: string;
  merchantId: number | null;
  holderId: number | null;
  /** null when the movement was created */
  from: string | null;
  to: string;
  amount: number;
  at: Date;
}

const scopeCondition = (scope: Scope): SQL | undefined => {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'merchant':
      return eq(moneyEvents.merchantId, scope.merchantId);
    case 'brand':
      return and(eq(moneyEvents.merchantId, scope.merchantId), eq(moneyEvents.holderId, scope.brandId));
    case 'none':
      return sql`false`;
  }
};

/**
 * The outbox's reader (for live screens and merchants' webhooks): up to `limit` events the scope may see after the
 * event `afterId` (0: from the first), oldest first; pass the last one's id to read on. Events come in the order
 * of their transactions (`tx`, then id), and only those of transactions that have ended, so a reader never passes
 * an event whose transaction commits later: ids are taken before commit and a later commit may hold a smaller id.
 * The price: while a transaction that started writing earlier is still open, later events wait for it. An
 * `afterId` that does not exist reads nothing.
 */
export async function eventsAfter(db: Executor, afterId: number, scope: Scope, limit = 500): Promise<MoneyEvent[]> {
  const rows = await db
    .select({
      id: moneyEvents.id,
      kind: moneyEvents.kind,
      objectId: moneyEvents.objectId,
      merchantId: moneyEvents.merchantId,
      holderId: moneyEvents.holderId,
      from: moneyEvents.fromStatus,
      to: moneyEvents.toStatus,
      amount: moneyEvents.amount,
      at: moneyEvents.at,
    })
    .from(moneyEvents)
    .where(
      and(
        sql`${moneyEvents.tx} < pg_snapshot_xmin(pg_current_snapshot())`,
        afterId === 0
          ? undefined
          : sql`(${moneyEvents.tx}, ${moneyEvents.id}) >
              (SELECT c.tx, c.id FROM money_events c WHERE c.id = ${afterId})`,
        scopeCondition(scope),
      ),
    )
    .orderBy(asc(moneyEvents.tx), asc(moneyEvents.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, kind: r.kind as MoneyEventKind, amount: Number(r.amount) }));
}
