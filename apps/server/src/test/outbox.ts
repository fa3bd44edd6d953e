import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../platform/db.ts';
import { moneyEvents } from '../features/engine/tables.ts';

/** The outbox's record of one movement: its status changes in order, `[from, to]`. */
export async function outboxPath(db: Executor, kind: string, objectId: number | string) {
  const rows = await db
    .select({ from: moneyEvents.fromStatus, to: moneyEvents.toStatus })
    .from(moneyEvents)
    .where(and(eq(moneyEvents.kind, kind), eq(moneyEvents.objectId, String(objectId))))
    .orderBy(asc(moneyEvents.id));
  return rows.map((r) => [r.from, r.to]);
}
