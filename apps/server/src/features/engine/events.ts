import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db.ts';
import type { Scope } from '../../platform/scope.ts';
import { wordOf } from './status.ts';
import { moneyEvents } from './tables.ts';

export type MoneyEventKind = 'payout' | 'batch' | 'transfer' | 'refund' | 'reward' | '2d' | 'payin' | 'download';

export interface MoneyEvent {
  id: number;
  kind: MoneyEventKind;
  objectId: string;
  merchantId: number | null;
  holderId: number | null;
  /**
   * null when the movement was created. Its kind's screen words (status.ts): the outbox stores the vocabulary,
   * and what reads events tells people and merchants' systems (the activity log, live events, webhooks).
   */
  from: string | null;
  to: string;
  amount: number;
  at: Date;
}

/**
 * Who reads: a scope sees the movements of its tenants; a download (an export's file) is its owner's alone, so it is
 * read only with `ownerId`, whatever the scope.
 */
export interface Reader {
  scope: Scope;
  ownerId?: number;
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
 * The oldest transaction of this database still in progress (else the next to start): every event of a smaller
 * transaction id has committed or never will. Transactions of other databases on the same server are left out
 * (pg_snapshot_xmin alone counts them: a long one elsewhere would hold this database's events back).
 */
const HORIZON = sql`coalesce(
  (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) x
   WHERE x::xid IN (SELECT backend_xid FROM pg_stat_activity
                    WHERE datname = current_database() AND backend_xid IS NOT NULL)),
  pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * The outbox's reader (for live screens and merchants' webhooks): up to `limit` events the scope may see after the
 * event `afterId` (0: from the first), oldest first; pass the last one's id to read on. Events come in the order
 * of their transactions (`tx`, then id), and only those of transactions that have ended, so a reader never passes
 * an event whose transaction commits later: ids are taken before commit and a later commit may hold a smaller id.
 * The price: while a transaction of this database that started writing earlier is still open, later events wait
 * for it. An
 * `afterId` that was pruned (prune.ts: what goes is a prefix of this order) reads on from the first event kept; one
 * that no event ever had reads nothing.
 */
export async function eventsAfter(
  db: Executor,
  afterId: number,
  who: Scope | Reader,
  limit = 500,
): Promise<MoneyEvent[]> {
  const reader: Reader = 'scope' in who ? who : { scope: who };
  const movements = and(sql`${moneyEvents.kind} <> 'download'`, scopeCondition(reader.scope));
  const visible =
    reader.ownerId === undefined
      ? movements
      : or(movements, and(eq(moneyEvents.kind, 'download'), eq(moneyEvents.holderId, reader.ownerId)));
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
        sql`${moneyEvents.tx} < ${HORIZON}`,
        afterId === 0
          ? undefined
          : sql`((${moneyEvents.tx}, ${moneyEvents.id}) >
              (SELECT c.tx, c.id FROM money_events c WHERE c.id = ${afterId})
            OR (NOT EXISTS (SELECT 1 FROM money_events c WHERE c.id = ${afterId})
              AND ${afterId}::bigint < (SELECT max(m.id) FROM money_events m)))`,
        visible,
      ),
    )
    .orderBy(asc(moneyEvents.tx), asc(moneyEvents.id))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    kind: r.kind as MoneyEventKind,
    from: wordOf(r.kind, r.from),
    to: wordOf(r.kind, r.to),
    amount: Number(r.amount),
  }));
}

/** Whether the newest event is younger than `ms`, on the database's clock (money is moving). */
export async function movedWithin(db: Executor, ms: number): Promise<boolean> {
  const [row] = await db
    .select({ moving: sql<boolean>`${moneyEvents.at} > now() - make_interval(secs => ${ms / 1000})` })
    .from(moneyEvents)
    .orderBy(sql`${moneyEvents.id} DESC`)
    .limit(1);
  return row?.moving === true;
}

/** The newest event a reader can see now (0: none): where a stream that asks for nothing older starts. */
export async function lastEventId(db: Executor): Promise<number> {
  const [row] = await db
    .select({ id: moneyEvents.id })
    .from(moneyEvents)
    .where(sql`${moneyEvents.tx} < ${HORIZON}`)
    .orderBy(sql`${moneyEvents.tx} DESC`, sql`${moneyEvents.id} DESC`)
    .limit(1);
  return row?.id ?? 0;
}
